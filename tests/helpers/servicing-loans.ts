import { centsFromDollars, rateFromPercent } from "~/domain/money";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { AuditActor } from "~/server/platform/audit/audit.server";
import { encryptField } from "~/server/platform/crypto/field-encryption.server";
import { ENCRYPTION_PURPOSES } from "~/server/platform/crypto/encryption-purposes.server";
import type { Db } from "~/server/platform/db/client.server";
import { bankAccounts, bankAccountValidations, loanPayments, user as userTable } from "~/server/platform/db/schema.server";
import { createLocalStorage } from "~/server/platform/storage/storage.server";
import { seedApplicant, seedLoan, seedStaff } from "./seed";

/**
 * Active loans for servicing tests, made the way the product makes them (seedLoan: an application,
 * approved with an offer, E-SIGN consent, signed with a typed name), with a bank account to debit.
 * Signing happens at `signedAt`, so a test can place the loan's start in the past.
 */

const info = { ip: "203.0.113.21", userAgent: "servicing test" };
let n = 0;

export async function servicingAdmin(db: Db, id = "svc-admin"): Promise<AuditActor> {
  const email = `${id}@example.com`;
  const [existing] = await db.select({ id: userTable.id }).from(userTable).where(eq(userTable.id, id));
  if (!existing) await seedStaff(db, { id, name: "Sam Servicer", email, role: "admin" });
  return { id, name: "Sam Servicer", email };
}

export type ActiveLoan = { loanId: string; applicationId: string; owner: { id: string; name: string; email: string }; bankAccountId: string };

/**
 * 10,000 at 12 % for 12 months by default, signed at `signedAt` (seedLoan), with a checking account on
 * file, validated (a bank letter on file) so its debits can go in a file at once; `validated: false`
 * leaves it without any validation, as an account the borrower just added.
 */
export async function activeLoan(
  db: Db,
  dataDir: string,
  admin: AuditActor,
  options: { signedAt?: Date; amount?: number; rate?: number; term?: number; routing?: string; account?: string; accountType?: "checking" | "savings"; holder?: string; validated?: boolean } = {},
): Promise<ActiveLoan> {
  n += 1;
  const suffix = `${process.pid}-${n}-${Math.random().toString(36).slice(2, 8)}`;
  const id = `svc-borrower-${suffix}`;
  const email = `svc.${suffix}@example.com`;
  const owner = await seedApplicant(db, { id, name: "Dana Whitfield", email, profile: { phone: "2125550100" } });
  const amount = options.amount ?? 10_000;
  const rate = options.rate ?? 12;
  const term = options.term ?? 12;
  const loan = await seedLoan(db, {
    owner,
    admin,
    application: { firstName: "Dana", lastName: "Whitfield", email, requestedAmountCents: centsFromDollars(amount), desiredRateMilli: rateFromPercent(rate), loanDuration: term },
    terms: { approvedAmountCents: centsFromDollars(amount), interestRateMilli: rateFromPercent(rate), termMonths: term, originationFeeMilli: 1000 },
    signedAt: options.signedAt ?? new Date(),
    storage: createLocalStorage(path.join(dataDir, "storage")),
  });
  const routing = options.routing ?? "021000021";
  const account = options.account ?? "000123456789";
  const [bank] = await db
    .insert(bankAccounts)
    .values({
      userId: id,
      applicationId: loan.application.id,
      accountHolderName: options.holder ?? "Dana Whitfield",
      bankName: "Test Bank",
      accountType: options.accountType ?? "checking",
      accountNumber: encryptField(account, ENCRYPTION_PURPOSES.accountNumber),
      routingNumber: encryptField(routing, ENCRYPTION_PURPOSES.routingNumber),
      accountNumberLast4: account.slice(-4),
      routingNumberLast2: routing.slice(-2),
    })
    .returning({ id: bankAccounts.id });
  if (options.validated !== false) {
    await db.insert(bankAccountValidations).values({ bankAccountId: bank!.id, method: "bank_letter", status: "validated", reference: "Test bank letter", validatedAt: new Date() });
  }
  return { loanId: loan.loanId, applicationId: loan.application.id, owner: { id, name: owner.name, email }, bankAccountId: bank!.id };
}

/** A borrower's authorised one-time ACH debit, pending (what Make a Payment stores). */
export async function pendingDebit(db: Db, loan: ActiveLoan, amountCents: number): Promise<string> {
  const [row] = await db
    .insert(loanPayments)
    .values({
      loanId: loan.loanId,
      userId: loan.owner.id,
      amountCents,
      status: "pending",
      method: "ach",
      source: "borrower",
      choice: "amount",
      reference: `ACH-${Math.random().toString(36).slice(2, 12).toUpperCase()}`,
      bankAccountId: loan.bankAccountId,
      authorizationVersion: "test-1",
      authorizedAt: new Date(),
      authorizationIp: info.ip,
      authorizationUserAgent: info.userAgent,
    })
    .returning({ id: loanPayments.id });
  return row!.id;
}
