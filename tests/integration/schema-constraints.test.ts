import { betterAuth } from "better-auth";
import { rateFromPercent } from "~/domain/money";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { getAuthTables } from "better-auth/db";
import { twoFactor as twoFactorPlugin } from "better-auth/plugins";
import { eq, getTableColumns, sql } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { LIMITS } from "~/domain/enums";
import * as schema from "~/server/platform/db/schema.server";
import {
  account,
  approvedLoans,
  auditLog,
  bankAccounts,
  contactMessages,
  emailOutbox,
  emailVerificationCodes,
  loanApplications,
  loanDocuments,
  profiles,
  rateLimit,
  rateLimitHits,
  session,
  testimonials,
  twoFactor,
  user,
  userRoles,
  verification,
  type NewBankAccount,
  type NewLoanApplication,
  type NewLoanDocument,
} from "~/server/platform/db/schema.server";
import { applicationRow } from "../helpers/application-rows";
import { grantStaffRole, seedUser } from "../helpers/seed";
import { databaseErrorOf, testTargets, useTestDatabase } from "../helpers/test-db";

const CHECK = "23514";
const UNIQUE = "23505";
const FOREIGN_KEY = "23503";
/** ON DELETE RESTRICT: PostgreSQL 18 (PGlite) reports restrict_violation, 15 to 17 foreign_key_violation. */
const RESTRICT = ["23001", FOREIGN_KEY];
const RAISED = "P0001";

async function expectRefused(
  attempt: PromiseLike<unknown>,
  expected: { code: string | string[]; constraint?: string; message?: RegExp },
): Promise<void> {
  let caught: unknown;
  try {
    await attempt;
  } catch (error) {
    caught = error;
  }
  expect(caught, "the database accepted a row it should refuse").toBeDefined();
  const info = databaseErrorOf(caught);
  expect([expected.code].flat(), info.message).toContain(info.code);
  if (expected.constraint) expect(info.constraint).toBe(expected.constraint);
  if (expected.message) expect(info.message).toMatch(expected.message);
}

/** Every optional column filled, with the values the round-trip test reads back (a half dollar, the leap day). */
const fullApplication = (userId: string, overrides: Partial<NewLoanApplication> = {}): NewLoanApplication =>
  applicationRow(userId, {
    requestedAmountCents: 25_000_050,
    desiredRateMilli: 8500,
    dateOfBirth: "1980-02-29",
    middleInitial: "M",
    addressLine2: "Suite 2",
    jobTitle: "Engineer",
    yearsEmployed: 4.5,
    monthlyDebtsCents: 125_075,
    hasOutstandingLoans: true,
    authorizeCreditReport: true,
    ...overrides,
  });

type Owned = { userId: string; applicationId: string };

/** A builder of rows that belong to an applicant's application: `defaults`, then the test's `overrides`. */
const ownedRow =
  <Row extends Owned>(defaults: (owner: Owned) => Omit<Row, keyof Owned>) =>
  (userId: string, applicationId: string, overrides: Partial<Row> = {}): Row =>
    ({ userId, applicationId, ...defaults({ userId, applicationId }), ...overrides }) as Row;

const documentRow = ownedRow<NewLoanDocument>(({ userId, applicationId }) => ({
  documentType: "id_card_front",
  fileName: "front.png",
  filePath: `${userId}/${applicationId}/${randomUUID()}.png`,
  fileSize: 120_000,
  mimeType: "image/png",
}));

const bankRow = ownedRow<NewBankAccount>(() => ({
  accountHolderName: "Ada Lovelace",
  bankName: "First Private Bank",
  accountNumber: "v1:ciphertext-account",
  routingNumber: "v1:ciphertext-routing",
  accountNumberLast4: "6789",
  routingNumberLast2: "21",
}));

describe.each(testTargets)("database constraints on %s", (target) => {
  const getDatabase = useTestDatabase({ target });
  const db = () => getDatabase().db;

  async function newUser(): Promise<string> {
    const id = randomUUID();
    await seedUser(db(), { id, name: "Test User", email: `${id}@example.com`, emailVerified: false });
    return id;
  }

  async function newApplication(overrides: Partial<NewLoanApplication> = {}): Promise<{ userId: string; applicationId: string }> {
    const userId = overrides.userId ?? (await newUser());
    const [row] = await db()
      .insert(loanApplications)
      .values(fullApplication(userId, overrides))
      .returning({ id: loanApplications.id });
    return { userId, applicationId: row!.id };
  }

  it("accepts a valid full row in every table and reads it back with the declared types", async () => {
    const userId = await newUser();
    const adminId = await newUser();
    const now = new Date();
    const later = new Date(now.getTime() + 600_000);

    await db().insert(session).values({ id: randomUUID(), token: randomUUID(), userId, expiresAt: later, ipAddress: "203.0.113.9", userAgent: "vitest" });
    await db().insert(account).values({ id: randomUUID(), accountId: userId, providerId: "credential", userId, password: "argon2id$hash" });
    await db().insert(verification).values({ id: randomUUID(), identifier: "reset-password:abc", value: userId, expiresAt: later });
    await db().insert(twoFactor).values({ id: randomUUID(), secret: "enc-secret", backupCodes: "enc-codes", userId });
    await db().insert(rateLimit).values({ id: randomUUID(), key: `203.0.113.9|/sign-in/email|${userId}`, count: 1, lastRequest: Date.now() });
    await db().insert(profiles).values({
      id: userId,
      fullName: "Ada Lovelace",
      email: "ada@example.com",
      phone: "5551234567",
      address: "1 Main Street",
      city: "Austin",
      state: "TX",
      zipCode: "78701",
    });
    await grantStaffRole(db(), adminId, "admin");

    const { applicationId } = await newApplication({
      userId,
      loanType: "hard-money",
      propertyAddress: "9 Bridge Road, Austin, TX 78701",
      loanDuration: 36,
      idempotencyKey: randomUUID(),
      status: "approved",
      reviewedAt: now,
      reviewedBy: adminId,
      notes: "Strong collateral.",
    });
    await db().insert(loanDocuments).values(documentRow(userId, applicationId, { documentType: "bank_statement_1", mimeType: "application/pdf", fileName: "march.pdf", fileSize: LIMITS.maxDocumentBytes }));
    await db().insert(bankAccounts).values(bankRow(userId, applicationId, { isPrimary: true, swiftCode: "DEUTDEFF500", accountType: "business", bankAddress: "1 Bank Plaza" }));
    await db().insert(approvedLoans).values({
      userId,
      applicationId,
      obligorName: "Ann Applicant",
      balanceCents: 25_000_050,
      termMonths: 36,
      amountCents: 25_000_050,
      noteRateMilli: 8500,
      paymentCents: 512_912,
      startDate: "2026-01-15",
    });
    await db().insert(emailVerificationCodes).values({ email: "new.user@example.com", codeHash: "sha256:abc", expiresAt: later });
    await db().insert(testimonials).values({
      userId,
      fullName: "Ada Lovelace",
      displayName: "Ada L.",
      role: "Investor",
      location: "Austin, TX",
      content: "Fast and discreet.",
      rating: 5,
    });
    await db().insert(contactMessages).values({ name: "Bob", email: "bob@example.com", subject: "Rates", message: "What are your rates?", ipAddress: "203.0.113.7" });
    const [audit] = await db()
      .insert(auditLog)
      .values({ actorId: adminId, actorName: "Admin", actorEmail: "admin@example.com", action: "ssn.reveal", tableName: "loan_applications", recordId: applicationId, details: { reason: "verification" } })
      .returning();
    await db().insert(emailOutbox).values({ toAddress: "ada@example.com", subject: "Approved", textBody: "Your loan is approved.", template: "application-approved" });
    await db().insert(rateLimitHits).values({ key: "contact:203.0.113.7", windowStart: new Date(Math.floor(now.getTime() / 60_000) * 60_000), count: 1 });

    const [app] = await db().select().from(loanApplications).where(eq(loanApplications.id, applicationId));
    expect(app).toMatchObject({
      status: "approved",
      requestedAmountCents: 25_000_050,
      desiredRateMilli: 8500,
      yearsEmployed: 4.5,
      monthlyDebtsCents: 125_075,
      dateOfBirth: "1980-02-29",
      hasOutstandingLoans: true,
    });
    expect(app!.submittedAt).toBeInstanceOf(Date);
    expect(audit!.id).toBeGreaterThan(0);
    expect(audit!.details).toEqual({ reason: "verification" });

    const [bank] = await db().select().from(bankAccounts).where(eq(bankAccounts.applicationId, applicationId));
    expect(bank).toMatchObject({ accountType: "business", isPrimary: true, isVerified: false, accountNumberLast4: "6789", routingNumberLast2: "21" });

    const [code] = await db().select().from(emailVerificationCodes).where(eq(emailVerificationCodes.email, "new.user@example.com"));
    expect(code).toMatchObject({ purpose: "sign-up", verified: false, attempts: 0, consumedAt: null });
    const [t] = await db().select().from(testimonials).where(eq(testimonials.userId, userId));
    expect(t!.status).toBe("pending");
    const [c] = await db().select().from(contactMessages).where(eq(contactMessages.email, "bob@example.com"));
    expect(c!.status).toBe("new");

    // The relational query API is wired (relations exported with the schema).
    const withChildren = await db().query.loanApplications.findFirst({
      where: eq(loanApplications.id, applicationId),
      with: { documents: true, bankAccounts: true, approvedLoan: true, user: true, reviewer: true },
    });
    expect(withChildren?.documents).toHaveLength(1);
    expect(withChildren?.bankAccounts).toHaveLength(1);
    expect(withChildren?.approvedLoan?.termMonths).toBe(36);
    expect(withChildren?.reviewer?.id).toBe(adminId);
  });

  it("refuses a loan type outside the list", async () => {
    const userId = await newUser();
    await expectRefused(
      db().insert(loanApplications).values(fullApplication(userId, { loanType: "payday" as never })),
      { code: CHECK, constraint: "loan_applications_loan_type_check" },
    );
  });

  it("refuses an interest rate of 40 and accepts both bounds", async () => {
    const userId = await newUser();
    await expectRefused(db().insert(loanApplications).values(fullApplication(userId, { desiredRateMilli: 40_000 })), {
      code: CHECK,
      constraint: "loan_applications_desired_rate_milli_check",
    });
    await expectRefused(db().insert(loanApplications).values(fullApplication(userId, { desiredRateMilli: 5980 })), {
      code: CHECK,
      constraint: "loan_applications_desired_rate_milli_check",
    });
    await newApplication({ userId, desiredRateMilli: rateFromPercent(LIMITS.interestRateMin) });
    await newApplication({ userId, desiredRateMilli: rateFromPercent(LIMITS.interestRateMax) });
  });

  it("refuses a credit score of 900", async () => {
    const userId = await newUser();
    await expectRefused(db().insert(loanApplications).values(fullApplication(userId, { creditScore: 900 })), {
      code: CHECK,
      constraint: "loan_applications_credit_score_check",
    });
    await newApplication({ userId, creditScore: null });
  });

  it("refuses a ZIP code that is not exactly 5 digits", async () => {
    const userId = await newUser();
    for (const zipCode of ["1234", "123456", "7870A", "78701-1234"]) {
      await expectRefused(db().insert(loanApplications).values(fullApplication(userId, { zipCode })), {
        code: CHECK,
        constraint: "loan_applications_zip_code_check",
      });
    }
    await expectRefused(db().insert(profiles).values({ id: userId, fullName: "A", email: "a@example.com", zipCode: "1234" }), {
      code: CHECK,
      constraint: "profiles_zip_code_check",
    });
  });

  it("refuses other malformed application fields", async () => {
    const userId = await newUser();
    const cases: [Partial<NewLoanApplication>, string][] = [
      [{ loanDuration: 7 }, "loan_applications_loan_duration_check"],
      [{ requestedAmountCents: 0 }, "loan_applications_requested_amount_cents_check"],
      [{ purpose: "too short" }, "loan_applications_purpose_check"],
      [{ purpose: "x".repeat(501) }, "loan_applications_purpose_check"],
      [{ phone: "(555) 123-4567" }, "loan_applications_phone_check"],
      [{ state: "tx" }, "loan_applications_state_check"],
      [{ middleInitial: "AB" }, "loan_applications_middle_initial_check"],
      [{ employmentStatus: "student" as never }, "loan_applications_employment_status_check"],
      [{ monthlyIncomeCents: -1 }, "loan_applications_monthly_income_cents_check"],
      [{ status: "archived" as never }, "loan_applications_status_check"],
      [{ loanType: "hard-money", propertyAddress: null }, "loan_applications_property_address_check"],
      [{ loanType: "hard-money", propertyAddress: "  " }, "loan_applications_property_address_check"],
      [{ status: "denied", reviewedAt: null }, "loan_applications_reviewed_at_check"],
    ];
    for (const [overrides, constraint] of cases) {
      await expectRefused(db().insert(loanApplications).values(fullApplication(userId, overrides)), { code: CHECK, constraint });
    }
  });

  it("refuses a second application with the same idempotency key from the same user", async () => {
    const key = randomUUID();
    const { userId } = await newApplication({ idempotencyKey: key });
    await expectRefused(db().insert(loanApplications).values(fullApplication(userId, { idempotencyKey: key })), {
      code: UNIQUE,
      constraint: "loan_applications_user_id_idempotency_key_key",
    });
    await newApplication({ idempotencyKey: key }); // another user may use the same key
    await newApplication({ userId, idempotencyKey: null });
    await newApplication({ userId, idempotencyKey: null });
  });

  it("refuses a 6 MB document, a GIF, and a second document of one type per application", async () => {
    const { userId, applicationId } = await newApplication();
    await expectRefused(db().insert(loanDocuments).values(documentRow(userId, applicationId, { fileSize: 6 * 1024 * 1024 })), {
      code: CHECK,
      constraint: "loan_documents_file_size_check",
    });
    await expectRefused(db().insert(loanDocuments).values(documentRow(userId, applicationId, { fileSize: 0 })), {
      code: CHECK,
      constraint: "loan_documents_file_size_check",
    });
    await expectRefused(db().insert(loanDocuments).values(documentRow(userId, applicationId, { mimeType: "image/gif" as never })), {
      code: CHECK,
      constraint: "loan_documents_mime_type_check",
    });
    await expectRefused(db().insert(loanDocuments).values(documentRow(userId, applicationId, { documentType: "selfie" as never })), {
      code: CHECK,
      constraint: "loan_documents_document_type_check",
    });
    await db().insert(loanDocuments).values(documentRow(userId, applicationId));
    await expectRefused(db().insert(loanDocuments).values(documentRow(userId, applicationId)), {
      code: UNIQUE,
      constraint: "loan_documents_application_id_document_type_key",
    });
  });

  it("refuses a second primary bank account for one user, but not a second non-primary one", async () => {
    const { userId, applicationId } = await newApplication();
    await db().insert(bankAccounts).values(bankRow(userId, applicationId, { isPrimary: true }));
    await expectRefused(db().insert(bankAccounts).values(bankRow(userId, applicationId, { isPrimary: true })), {
      code: UNIQUE,
      constraint: "bank_accounts_one_primary_per_user_idx",
    });
    await db().insert(bankAccounts).values(bankRow(userId, applicationId, { isPrimary: false }));
    await db().insert(bankAccounts).values(bankRow(userId, applicationId, { isPrimary: false }));
    // Another user has a primary account of their own.
    const other = await newApplication();
    await db().insert(bankAccounts).values(bankRow(other.userId, other.applicationId, { isPrimary: true }));
  });

  it("refuses malformed bank account fields", async () => {
    const { userId, applicationId } = await newApplication();
    const cases: [Partial<NewBankAccount>, string][] = [
      [{ swiftCode: "deutdeff" }, "bank_accounts_swift_code_check"],
      [{ swiftCode: "DEUTDEFF5" }, "bank_accounts_swift_code_check"],
      [{ accountType: "brokerage" as never }, "bank_accounts_account_type_check"],
      [{ accountNumberLast4: "67a9" }, "bank_accounts_account_number_last4_check"],
      [{ routingNumberLast2: "2" }, "bank_accounts_routing_number_last2_check"],
    ];
    for (const [overrides, constraint] of cases) {
      await expectRefused(db().insert(bankAccounts).values(bankRow(userId, applicationId, overrides)), { code: CHECK, constraint });
    }
    await db().insert(bankAccounts).values(bankRow(userId, applicationId, { swiftCode: "DEUTDEFF" }));
  });

  it("refuses UPDATE, DELETE and TRUNCATE on audit_log", async () => {
    const [row] = await db().insert(auditLog).values({ action: "application.approve", details: {} }).returning();
    await expectRefused(db().update(auditLog).set({ action: "application.deny" }).where(eq(auditLog.id, row!.id)), {
      code: RAISED,
      message: /audit_log is append-only/,
    });
    await expectRefused(db().delete(auditLog).where(eq(auditLog.id, row!.id)), { code: RAISED, message: /audit_log is append-only/ });
    await expectRefused(db().execute(sql`truncate audit_log`), { code: RAISED, message: /audit_log is append-only/ });
    const [still] = await db().select().from(auditLog).where(eq(auditLog.id, row!.id));
    expect(still?.action).toBe("application.approve");
    // The identity column is generated always: a caller cannot choose ids.
    await expectRefused(db().execute(sql`insert into audit_log (id, action) values (999999, 'x')`), { code: "428C9" });
  });

  it("keeps e-mail verification codes lowercase, single use and limited to 5 tries", async () => {
    const expiresAt = new Date(Date.now() + 600_000);
    await expectRefused(db().insert(emailVerificationCodes).values({ email: "Ada@Example.com", codeHash: "h", expiresAt }), {
      code: CHECK,
      constraint: "email_verification_codes_email_check",
    });
    await expectRefused(db().insert(emailVerificationCodes).values({ email: "ada@example.com", codeHash: "h", expiresAt, attempts: 6 }), {
      code: CHECK,
      constraint: "email_verification_codes_attempts_check",
    });
    await expectRefused(db().insert(emailVerificationCodes).values({ email: "ada@example.com", codeHash: "h", expiresAt, verified: true }), {
      code: CHECK,
      constraint: "email_verification_codes_verified_at_check",
    });
    await expectRefused(
      db().insert(emailVerificationCodes).values({ email: "ada@example.com", codeHash: "h", expiresAt, consumedAt: new Date() }),
      { code: CHECK, constraint: "email_verification_codes_consumed_at_check" },
    );
    await db()
      .insert(emailVerificationCodes)
      .values({ email: "ada@example.com", codeHash: "h", expiresAt, attempts: 5, verified: true, verifiedAt: new Date(), consumedAt: new Date() });
  });

  it("refuses a testimonial rating outside 1 to 5 and an unknown role", async () => {
    const userId = await newUser();
    const base = { userId, fullName: "A", displayName: "A", role: "Owner", content: "Great." };
    await expectRefused(db().insert(testimonials).values({ ...base, rating: 0 }), { code: CHECK, constraint: "testimonials_rating_check" });
    await expectRefused(db().insert(testimonials).values({ ...base, rating: 6 }), { code: CHECK, constraint: "testimonials_rating_check" });
    await expectRefused(db().insert(testimonials).values({ ...base, rating: 5, content: "" }), { code: CHECK, constraint: "testimonials_content_check" });
    await expectRefused(db().insert(userRoles).values({ userId, role: "superuser" as never }), { code: CHECK, constraint: "user_roles_role_check" });
    await db().insert(userRoles).values({ userId, role: "admin" });
    await expectRefused(db().insert(userRoles).values({ userId, role: "admin" }), { code: UNIQUE, constraint: "user_roles_user_id_role_key" });
  });

  it("keeps one approved loan per application with sane numbers", async () => {
    const { userId, applicationId } = await newApplication();
    const loan = { userId, applicationId, obligorName: "Ann Applicant", balanceCents: 100_000, termMonths: 12, amountCents: 100_000, noteRateMilli: 8500, paymentCents: 9000, startDate: "2026-01-15" };
    await expectRefused(db().insert(approvedLoans).values({ ...loan, amountCents: 0 }), { code: CHECK, constraint: "approved_loans_amount_cents_check" });
    await expectRefused(db().insert(approvedLoans).values({ ...loan, termMonths: 0 }), { code: CHECK, constraint: "approved_loans_term_months_check" });
    await expectRefused(db().insert(approvedLoans).values({ ...loan, status: "defaulted" as never }), { code: CHECK, constraint: "approved_loans_status_check" });
    await db().insert(approvedLoans).values(loan);
    await expectRefused(db().insert(approvedLoans).values(loan), { code: UNIQUE, constraint: "approved_loans_application_id_unique" });
  });

  it("keeps a lender's records: a user with applications cannot be deleted; auth rows cascade", async () => {
    const { userId } = await newApplication();
    await expectRefused(db().delete(user).where(eq(user.id, userId)), {
      code: RESTRICT,
      constraint: "loan_applications_user_id_user_id_fk",
    });

    const loner = await newUser();
    await db().insert(session).values({ id: randomUUID(), token: randomUUID(), userId: loner, expiresAt: new Date(Date.now() + 60_000) });
    await db().insert(profiles).values({ id: loner, fullName: "Lone", email: "lone@example.com" });
    await db().delete(user).where(eq(user.id, loner));
    expect(await db().select().from(session).where(eq(session.userId, loner))).toEqual([]);
    expect(await db().select().from(profiles).where(eq(profiles.id, loner))).toEqual([]);
  });

  it("refuses rows that point at nothing", async () => {
    await expectRefused(db().insert(loanApplications).values(fullApplication("no-such-user")), { code: FOREIGN_KEY });
    const userId = await newUser();
    await expectRefused(db().insert(loanDocuments).values(documentRow(userId, randomUUID())), { code: FOREIGN_KEY });
  });
});

describe("Better Auth 1.7 and the hand-written auth tables", () => {
  const options = { plugins: [twoFactorPlugin()], rateLimit: { storage: "database" as const } };

  it("every table and field Better Auth writes exists, and nothing else is required", () => {
    const tables = getAuthTables(options);
    expect(Object.keys(tables).sort()).toEqual(["account", "rateLimit", "session", "twoFactor", "user", "verification"]);
    for (const table of Object.values(tables)) {
      const drizzleTable = (schema as Record<string, unknown>)[table.modelName];
      expect(drizzleTable, `schema export "${table.modelName}"`).toBeDefined();
      const columns = getTableColumns(drizzleTable as typeof user);
      const written = new Set(["id", ...Object.entries(table.fields).map(([key, f]) => f.fieldName || key)]);
      for (const field of written) expect(Object.keys(columns), `${table.modelName}.${field}`).toContain(field);
      for (const [key, f] of Object.entries(table.fields)) {
        const column = columns[(f.fieldName || key) as keyof typeof columns]!;
        if (f.required === false) expect(column.notNull && !column.hasDefault, `${table.modelName}.${key} must be optional`).toBe(false);
      }
      for (const [name, column] of Object.entries(columns)) {
        if (!written.has(name)) expect(!column.notNull || column.hasDefault, `${table.modelName}.${name} is required but never written`).toBe(true);
      }
    }
  });

  describe.each(testTargets)("on %s", (target) => {
    const getDatabase = useTestDatabase({ target });

    it("signs a user up, stores the session and counts requests in rate_limit", async () => {
      const { db } = getDatabase();
      const auth = betterAuth({
        secret: "test-secret-test-secret-test-secret-0123456789",
        baseURL: "http://localhost:3000",
        database: drizzleAdapter(db, { provider: "pg", schema }),
        emailAndPassword: { enabled: true },
        plugins: [twoFactorPlugin()],
        rateLimit: { enabled: true, storage: "database", window: 60, max: 100 },
        advanced: { ipAddress: { ipAddressHeaders: ["x-forwarded-for"] } },
        logger: { disabled: true },
      });
      const email = `${randomUUID()}@example.com`;
      const result = await auth.api.signUpEmail({ body: { name: "Grace Hopper", email, password: "Correct-Horse-9!" } });
      expect(result.user.email).toBe(email);

      const [u] = await db.select().from(user).where(eq(user.email, email));
      expect(u).toMatchObject({ name: "Grace Hopper", emailVerified: false, twoFactorEnabled: false });
      const [cred] = await db.select().from(account).where(eq(account.userId, u!.id));
      expect(cred?.providerId).toBe("credential");
      expect(cred?.password).toBeTruthy();
      const sessions = await db.select().from(session).where(eq(session.userId, u!.id));
      expect(sessions).toHaveLength(1);
      expect(sessions[0]!.expiresAt.getTime()).toBeGreaterThan(Date.now());

      const response = await auth.handler(
        new Request("http://localhost:3000/api/auth/get-session", { headers: { "x-forwarded-for": "203.0.113.50" } }),
      );
      expect(response.status).toBe(200);
      const counters = await db.select().from(rateLimit);
      expect(counters.length).toBeGreaterThan(0);
      expect(typeof counters[0]!.lastRequest).toBe("number");
    });
  });
});
