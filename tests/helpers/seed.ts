import path from "node:path";
import { eq } from "drizzle-orm";
import { addDays, todayUtc } from "~/domain/dates";
import type { UserRole } from "~/domain/enums";
import { payoffQuote } from "~/domain/loan-servicing";
import { addMonths } from "~/domain/truth-in-lending";
import type { AuditActor } from "~/server/platform/audit/audit.server";
import { hashPassword } from "~/server/accounts/password-hash.server";
import { approveApplication, type ApprovalTerms } from "~/server/applications/index.server";
import { loadLedger, recordAccountValidation, recordPayment } from "~/server/loans/index.server";
import { giveConsent, signOffer } from "~/server/offers/index.server";
import { getConfig } from "~/server/platform/config.server";
import type { Db, DbOrTx } from "~/server/platform/db/client.server";
import {
  account,
  approvedLoans,
  bankAccounts,
  loanApplications,
  profiles,
  user as userTable,
  userRoles,
  type LoanApplication,
  type NewLoanApplication,
  type NewProfile,
} from "~/server/platform/db/schema.server";
import { createLocalStorage, type DocumentStorage } from "~/server/platform/storage/storage.server";
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

/**
 * A suite's applicants, seeded one per call and numbered from 1: `<prefix>-applicant-<scope>-<n>`,
 * `<prefix>.applicant<n>@example.com`, named "Applicant <n>", with a profile named `<profileName><n>`
 * and a New York phone.
 */
export function applicantSeries(db: () => DbOrTx, { prefix, scope, profileName }: { prefix: string; scope: string; profileName: string }) {
  let n = 0;
  return async (): Promise<SeededBorrower> => {
    n += 1;
    const email = `${prefix}.applicant${n}@example.com`;
    const profile = { fullName: `${profileName}${n}`, phone: "2125550100" };
    const person = await seedApplicant(db(), { id: `${prefix}-applicant-${scope}-${n}`, name: `Applicant ${n}`, email, profile });
    return { ...person, isStaff: false };
  };
}

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

/** An applicant as the offer pages see them (the signer). */
export type SeededBorrower = SeededPerson & { isStaff: false };

export type OfferOptions = {
  /** The applicant; a new one (Jane Doe, as the application row is by default) otherwise. */
  owner?: SeededPerson;
  /** The approving staff member; a new admin by default. */
  admin?: AuditActor;
  /** Application columns the test is about (the name, the amount asked for); application-rows.ts has the rest. */
  application?: Partial<NewLoanApplication>;
  /** The terms staff approve (as the approve dialog sends them); 25,000 at 9.5 % for 36 months with a 1 % fee (the default request) by default. */
  terms?: ApprovalTerms;
  /** When staff approve. */
  at?: Date;
};

export type SeededOffer = { application: LoanApplication; owner: SeededBorrower; admin: AuditActor; offerId: string };

const DEFAULT_TERMS: ApprovalTerms = { approvedAmountCents: 2_500_000, interestRateMilli: 9500, termMonths: 36, originationFeeMilli: 1000 };

/** An application approved with an offer, through the approval staff use (approveApplication). */
export async function seedOffer(db: Db, options: OfferOptions = {}): Promise<SeededOffer> {
  const admin = options.admin ?? (await seedStaff(db, { role: "admin" }));
  const owner = options.owner ?? (await seedApplicant(db, { name: "Jane Doe", profile: true }));
  const application = await seedApplication(db, owner.id, options.application);
  const { offerId } = await approveApplication(application.id, options.terms ?? DEFAULT_TERMS, { actor: admin, request: {} }, db, options.at ?? new Date());
  return { application, owner: { ...owner, isStaff: false }, admin, offerId };
}

export type LoanOptions = OfferOptions & {
  /** The day the loan is seen from ('yyyy-MM-dd'); today in UTC by default. */
  today?: string;
  /**
   * How many days past due the oldest unpaid installment is on `today`: the agreement is signed one
   * month before that installment fell due. 0 (the default) signs on `today`: current, the first
   * installment a month away.
   */
  daysLate?: number;
  /** The signing day instead ('yyyy-MM-dd'), when the test is about the loan's start. */
  signedOn?: string;
  /** The signing moment instead (noon UTC of the signing day by default; now when that day is today). */
  signedAt?: Date;
  /** Paid in full on `today` by a posted wire of the payoff (as staff's Record Payment posts it). */
  paidOff?: boolean;
  /**
   * Funded (the default): active with funded_on = start_date, as a settled funding credit leaves it.
   * false leaves the loan as signing opens it: Awaiting Funding.
   */
  funded?: boolean;
  /** Where the signed agreement's PDF is kept; the configured data folder's storage by default. */
  storage?: DocumentStorage;
};

export type SeededLoan = SeededOffer & { loanId: string; startDate: string };

const SIGNING_INFO = { ip: "203.0.113.21", userAgent: "seeded loan" };

/** The signing day whose first installment (due a month after signing) falls on `due`. */
function signingDayFor(due: string): string {
  for (let back = 28; back <= 31; back++) {
    const day = addDays(due, -back);
    if (addMonths(day, 1) === due) return day;
  }
  // The 29th to 31st after a shorter month: no signing day has it as its first due date.
  throw new Error(`seedLoan: no first installment falls due on ${due}; pick another today`);
}

/**
 * A signed, funded, active loan made the way the product makes it: an offer (seedOffer), E-SIGN consent
 * and a typed signature on the signing day (signOffer writes the agreement and the loan, Awaiting
 * Funding), then marked funded (unless `funded: false`); paid off when asked. `daysLate` (or
 * `signedOn`) places the signing in the past, so the loan is late on `today`.
 */
export async function seedLoan(db: Db, options: LoanOptions = {}): Promise<SeededLoan> {
  const today = options.today ?? todayUtc();
  const daysLate = options.daysLate ?? 0;
  const signedOn = options.signedAt ? todayUtc(options.signedAt) : (options.signedOn ?? (daysLate === 0 ? today : signingDayFor(addDays(today, -daysLate))));
  const signedAt = options.signedAt ?? (signedOn === todayUtc() ? new Date() : new Date(`${signedOn}T12:00:00.000Z`));
  const offer = await seedOffer(db, { ...options, at: options.at ?? new Date(signedAt.getTime() - 60 * 60 * 1000) });
  const { application, owner } = offer;
  await giveConsent(application.id, { actor: owner, request: SIGNING_INFO }, db, new Date(signedAt.getTime() - 60_000));
  const storage = options.storage ?? createLocalStorage(path.join(getConfig().dataDir, "storage"));
  await signOffer(application.id, { kind: "typed", name: `${application.firstName} ${application.lastName}` }, { actor: owner, request: SIGNING_INFO }, { db, storage, now: signedAt });
  const [loan] = await db
    .select({ id: approvedLoans.id, startDate: approvedLoans.startDate, expectedFundingDate: approvedLoans.expectedFundingDate })
    .from(approvedLoans)
    .where(eq(approvedLoans.applicationId, application.id));
  if (options.funded ?? true) {
    // A direct update, not the product's Fund Loan → ACH file → Mark Funds Settled: the state a credit
    // settled on the expected funding day leaves (active, interest from that day, as disclosed). Servicing
    // tests want a funded loan; tests/integration/loan-funding.test.ts goes through the product's path.
    await db.update(approvedLoans).set({ status: "active", fundedOn: loan!.expectedFundingDate }).where(eq(approvedLoans.id, loan!.id));
    // A funded loan's account was validated first: staff recorded a bank letter (the prenote queued at signing becomes it).
    const [account] = await db.select({ id: bankAccounts.id }).from(bankAccounts).where(eq(bankAccounts.applicationId, application.id)).limit(1);
    if (account) await recordAccountValidation(account.id, { method: "bank_letter", reference: "SEEDED-LETTER" }, { actor: offer.admin, request: SIGNING_INFO }, db, signedAt);
  }
  if (options.paidOff) {
    const ledger = (await loadLedger(loan!.id, db, today))!;
    const payoff = payoffQuote(ledger.terms, ledger.payments, ledger.fees, today).totalCents;
    await recordPayment(loan!.id, { amountCents: payoff, receivedOn: today, method: "wire", reference: `PAYOFF-${loan!.id.slice(0, 8)}` }, { actor: offer.admin, request: {} }, db, today);
  }
  return { ...offer, loanId: loan!.id, startDate: loan!.startDate };
}
