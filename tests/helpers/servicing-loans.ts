import { centsFromDollars, rateFromPercent } from "~/domain/money";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { AuditActor } from "~/server/platform/audit/audit.server";
import { encryptField } from "~/server/platform/crypto/field-encryption.server";
import { ENCRYPTION_PURPOSES } from "~/server/platform/crypto/encryption-purposes.server";
import type { Db } from "~/server/platform/db/client.server";
import { approvedLoans, bankAccounts, loanApplications, loanPayments, user as userTable } from "~/server/platform/db/schema.server";
import { giveConsent } from "~/server/offers/consent.server";
import { signOffer } from "~/server/offers/sign-agreement.server";
import { approveApplication } from "~/server/applications/reviews.server";
import { createLocalStorage } from "~/server/platform/storage/storage.server";
import { applicationRow } from "./application-rows";
import { seedApplicant, seedStaff } from "./seed";

/**
 * Active loans for servicing tests (issue 21), made the way the product makes them: an application,
 * approved with an offer, E-SIGN consent, signed (typed name). Signing happens at `signedAt`, so a test
 * can place the loan's start in the past.
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

/** 10,000 at 12 % for 12 months by default, signed at `signedAt`. */
export async function activeLoan(
  db: Db,
  dataDir: string,
  admin: AuditActor,
  options: { signedAt?: Date; amount?: number; rate?: number; term?: number; routing?: string; account?: string; accountType?: "checking" | "savings"; holder?: string } = {},
): Promise<ActiveLoan> {
  n += 1;
  const suffix = `${process.pid}-${n}-${Math.random().toString(36).slice(2, 8)}`;
  const id = `svc-borrower-${suffix}`;
  const email = `svc.${suffix}@example.com`;
  await seedApplicant(db, { id, name: "Dana Whitfield", email, profile: { phone: "2125550100" } });
  const [app] = await db
    .insert(loanApplications)
    .values(applicationRow(id, { firstName: "Dana", lastName: "Whitfield", email, requestedAmountCents: centsFromDollars(options.amount ?? 10_000), desiredRateMilli: rateFromPercent(options.rate ?? 12), loanDuration: options.term ?? 12 }))
    .returning();
  const signedAt = options.signedAt ?? new Date();
  const before = new Date(signedAt.getTime() - 60 * 60 * 1000);
  await approveApplication(app!.id, { approvedAmountCents: centsFromDollars(options.amount ?? 10_000), interestRateMilli: rateFromPercent(options.rate ?? 12), termMonths: options.term ?? 12, originationFeeMilli: 1000 }, admin, {}, db, before);
  const owner = { id, name: "Dana Whitfield", email, isStaff: false };
  await giveConsent(app!.id, owner, info, db, new Date(signedAt.getTime() - 60_000));
  await signOffer(app!.id, owner, { kind: "typed", name: "Dana Whitfield" }, info, { db, storage: createLocalStorage(path.join(dataDir, "storage")), now: signedAt });
  const [loan] = await db.select({ id: approvedLoans.id }).from(approvedLoans).where(eq(approvedLoans.applicationId, app!.id));
  const routing = options.routing ?? "021000021";
  const account = options.account ?? "000123456789";
  const [bank] = await db
    .insert(bankAccounts)
    .values({
      userId: id,
      applicationId: app!.id,
      accountHolderName: options.holder ?? "Dana Whitfield",
      bankName: "Test Bank",
      accountType: options.accountType ?? "checking",
      accountNumber: encryptField(account, ENCRYPTION_PURPOSES.accountNumber),
      routingNumber: encryptField(routing, ENCRYPTION_PURPOSES.routingNumber),
      accountNumberLast4: account.slice(-4),
      routingNumberLast2: routing.slice(-2),
    })
    .returning({ id: bankAccounts.id });
  return { loanId: loan!.id, applicationId: app!.id, owner: { id, name: owner.name, email }, bankAccountId: bank!.id };
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
