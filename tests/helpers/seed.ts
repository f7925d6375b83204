import type { UserRole } from "~/domain/enums";
import type { AuditActor } from "~/server/platform/audit/audit.server";
import { hashPassword } from "~/server/accounts/password-hash.server";
import type { DbOrTx } from "~/server/platform/db/client.server";
import { account, loanApplications, profiles, user as userTable, userRoles, type LoanApplication, type NewLoanApplication, type NewProfile } from "~/server/platform/db/schema.server";
import { applicationRow } from "./application-rows";

/**
 * The state a test starts from, written in one place: people (applicants and staff) and their
 * applications. A test names what it is about (`seedStaff(db, { role: "auditor" })`) and takes
 * defaults for the rest. People are rows as sign-up leaves them (a verified e-mail; a password only
 * when the test signs in with one); decisions and loans go through the product's own functions
 * (seedOffer here, activeLoan in servicing-loans.ts).
 */

export type SeededPerson = AuditActor;

let seeded = 0;
/** A key no other seeded row in this process has, for default ids and addresses. */
function nextKey(prefix: string): string {
  seeded += 1;
  return `${prefix}-${process.pid}-${seeded}`;
}

export type PersonOptions = {
  id?: string;
  name?: string;
  email?: string;
  /** True unless said otherwise, as after the sign-up form's mailed code. */
  emailVerified?: boolean;
  createdAt?: Date;
  /** A credential to sign in with (an argon2 hash of it is stored, as sign-up does). */
  password?: string;
  /** The credential row's id; `acct-<user id>` by default. */
  accountId?: string;
  /** The applicant's profile row too: `true` for the default one, or the columns to set. */
  profile?: boolean | Partial<NewProfile>;
};

/** An applicant's sign-in account (and, when asked, a password and a profile). */
export async function seedApplicant(db: DbOrTx, options: PersonOptions = {}): Promise<SeededPerson> {
  const [person] = await seedApplicants(db, [options]);
  return person!;
}

/** Several applicants, their accounts written in one statement. */
export async function seedApplicants(db: DbOrTx, people: PersonOptions[]): Promise<SeededPerson[]> {
  if (people.length === 0) return [];
  const made = people.map((options) => {
    const id = options.id ?? nextKey("applicant");
    return { id, name: options.name ?? "Jane Doe", email: options.email ?? `${id}@example.com` };
  });
  await db.insert(userTable).values(
    made.map((person, i) => ({
      ...person,
      emailVerified: people[i]!.emailVerified ?? true,
      ...(people[i]!.createdAt ? { createdAt: people[i]!.createdAt } : {}),
    })),
  );
  for (const [i, options] of people.entries()) {
    const person = made[i]!;
    if (options.password !== undefined) await seedPassword(db, person.id, options.password, options.accountId);
    if (options.profile) {
      await db.insert(profiles).values({ id: person.id, fullName: person.name, email: person.email, ...(options.profile === true ? {} : options.profile) });
    }
  }
  return made;
}

/** A sign-in account with no staff role and no application (what sign-up alone leaves). */
export const seedUser = seedApplicant;

/** A credential (password) for an existing user, as sign-up stores it. */
export async function seedPassword(db: DbOrTx, userId: string, password: string, accountId = `acct-${userId}`): Promise<void> {
  await db.insert(account).values({ id: accountId, accountId: userId, providerId: "credential", userId, password: await hashPassword(password) });
}

export type StaffOptions = Omit<PersonOptions, "profile"> & {
  /** The one staff role; admin by default. */
  role?: UserRole;
  /** When set, the role is deactivated (the person can no longer sign in as staff). */
  deactivatedAt?: Date;
};

/** A staff member: an account and its one role. */
export async function seedStaff(db: DbOrTx, options: StaffOptions = {}): Promise<SeededPerson> {
  const { role = "admin", deactivatedAt, ...person } = options;
  const staff = await seedApplicant(db, { name: "Ada Admin", ...person, id: person.id ?? nextKey(`staff-${role}`) });
  await grantStaffRole(db, staff.id, role, { deactivatedAt });
  return staff;
}

/** Gives an existing user a staff role (what accepting a staff invitation records). */
export async function grantStaffRole(db: DbOrTx, userId: string, role: UserRole = "admin", options: { deactivatedAt?: Date } = {}): Promise<void> {
  await db.insert(userRoles).values({ userId, role, ...(options.deactivatedAt ? { deactivatedAt: options.deactivatedAt } : {}) });
}

/**
 * A loan application row owned by `userId` (valid against every constraint: application-rows.ts), with
 * the columns the test is about (`{ status: "under_review" }`); the stored row.
 */
export async function seedApplication(db: DbOrTx, userId: string, columns: Partial<NewLoanApplication> = {}): Promise<LoanApplication> {
  const [row] = await db.insert(loanApplications).values(applicationRow(userId, columns)).returning();
  return row!;
}
