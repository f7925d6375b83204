import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { todayUtc } from "~/domain/dates";
import { ACCOUNT_RESTRICTION_LIMITS, ACCOUNT_RESTRICTION_MESSAGES } from "~/domain/validation/account-restriction";
import type { AuditActor } from "~/server/platform/audit/audit.server";
import { auditLog, bankAccountRestrictions, loanPayments } from "~/server/platform/db/schema.server";
import { accountRestrictions, clearAccountRestriction, restrictAccount } from "~/server/loans/account-restrictions.server";
import { loanAccountRestrictions } from "~/server/loans/ach-returns-panel.server";
import { createAchBatch } from "~/server/loans/ach-batches.server";
import { loanPageAction } from "~/server/loans/staff-loans.server";
import { activeLoan, pendingDebit, servicingAdmin, type ActiveLoan } from "../helpers/servicing-loans";
import { appErrorOf } from "../helpers/rejection";
import { setUpTestConfig } from "../helpers/temp-config";
import { testTargets, useTestDatabase } from "../helpers/test-db";

/**
 * Clear Restriction: staff lift a bank account's restriction (after a return) from the loan's page with
 * a required reason: one conditional UPDATE, so two at once leave one clearing and the other is told;
 * only an account this loan uses (another loan's is a 404); audited; the account's debits go in the
 * next ACH file again. On PGlite and, with TEST_DATABASE_URL, PostgreSQL.
 */

const dataDir = setUpTestConfig("account-restrictions", { APP_SECRET: "c".repeat(48), PUBLIC_URL: "https://loans.example.com" });
const REASON = "The bank confirmed the account was reopened; the borrower re-authorised debits by phone, ref 55-1021.";

describe.each(testTargets)("Clear Restriction on %s", (target) => {
  const database = useTestDatabase({ target, global: true });
  const db = () => database().db;
  let admin: AuditActor;
  let other: AuditActor;
  const as = (actor: AuditActor) => ({ actor, request: { ip: "198.51.100.9" } });
  const refusal = (promise: Promise<unknown>) => appErrorOf(promise, "servicing");

  beforeAll(async () => {
    admin = await servicingAdmin(db(), `restrict-admin-${target}`);
    other = await servicingAdmin(db(), `restrict-other-${target}`);
  });

  const restricted = async (kind: "unusable" | "blocked" = "unusable") => {
    const loan = await activeLoan(db(), dataDir, admin);
    await db().transaction((tx) => restrictAccount(tx, loan.bankAccountId, kind, kind === "blocked" ? "R10" : "R02", null));
    return loan;
  };
  const post = (loan: Pick<ActiveLoan, "loanId">, fields: Record<string, string>, actor = admin) =>
    loanPageAction(new Request(`https://loans.example.com/admin/loans/${loan.loanId}`, { method: "POST", body: new URLSearchParams(fields) }), loan.loanId, as(actor), db());
  const live = async (bankAccountId: string) => (await accountRestrictions([bankAccountId], db())).get(bankAccountId);

  it("clears with the reason (kept on the row, audited); the page no longer lists it; the account's debit goes in the next file", async () => {
    await db().update(loanPayments).set({ status: "cancelled", cancelReason: "test set-up", cancelledAt: new Date() }).where(eq(loanPayments.status, "pending"));
    const loan = await restricted("blocked");
    expect(await loanAccountRestrictions(loan.loanId, db())).toMatchObject([{ bankAccountId: loan.bankAccountId, kind: "blocked", returnCode: "R10", clearable: true }]);
    const debit = await pendingDebit(db(), loan, 12_500);
    const day = todayUtc();
    const skipped = await createAchBatch(as(admin), db(), new Date(`${day}T12:00:00Z`));
    expect(skipped).toMatchObject({ ok: false, skipped: [{ paymentId: debit, reason: expect.stringContaining("blocked") }] });

    const answer = await post(loan, { intent: "clear-restriction", bankAccountId: loan.bankAccountId, reason: `  ${REASON}  ` });
    expect(answer).toMatchObject({ status: 200, body: { ok: true, toast: { type: "success", title: "Restriction Cleared" } } });
    expect(await live(loan.bankAccountId)).toBeUndefined();
    expect(await loanAccountRestrictions(loan.loanId, db())).toEqual([]);
    const [row] = await db().select().from(bankAccountRestrictions).where(eq(bankAccountRestrictions.bankAccountId, loan.bankAccountId));
    expect(row).toMatchObject({ clearedBy: admin.id, clearReason: REASON, kind: "blocked", returnCode: "R10" });
    expect(row!.clearedAt).not.toBeNull();
    const [audit] = await db().select().from(auditLog).where(and(eq(auditLog.action, "bank_account.restriction_clear"), eq(auditLog.recordId, row!.id)));
    expect(audit).toMatchObject({ actorId: admin.id, details: { loanId: loan.loanId, bankAccountId: loan.bankAccountId, kind: "blocked", returnCode: "R10", reason: REASON } });

    const sent = await createAchBatch(as(admin), db(), new Date(`${day}T12:00:00Z`));
    expect(sent).toMatchObject({ ok: true, counts: { debit: 1 }, totalCents: 12_500, skipped: [] });
    expect((await db().select().from(loanPayments).where(eq(loanPayments.id, debit)))[0]!.achBatchId).toBe(sent.ok ? sent.batchId : "none");

    // Cleared already: a second clearing is told so (409); a later return restricts the account afresh.
    expect(await post(loan, { intent: "clear-restriction", bankAccountId: loan.bankAccountId, reason: REASON })).toMatchObject({ status: 409, body: { ok: false } });
    await db().transaction((tx) => restrictAccount(tx, loan.bankAccountId, "unusable", "R02", null));
    expect(await live(loan.bankAccountId)).toMatchObject({ kind: "unusable", returnCode: "R02" });
  });

  it("two staff at once: one clears, the other is told it is already cleared", async () => {
    const loan = await restricted();
    const results = await Promise.allSettled([
      clearAccountRestriction(loan.loanId, loan.bankAccountId, REASON, as(admin), db()),
      clearAccountRestriction(loan.loanId, loan.bankAccountId, "Checked with the bank", as(other), db()),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const [rejected] = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(rejected!.reason).toMatchObject({ status: 409, message: ACCOUNT_RESTRICTION_MESSAGES.alreadyCleared });
    const rows = await db().select().from(bankAccountRestrictions).where(eq(bankAccountRestrictions.bankAccountId, loan.bankAccountId));
    expect(rows).toHaveLength(1);
    const audits = await db().select().from(auditLog).where(and(eq(auditLog.action, "bank_account.restriction_clear"), eq(auditLog.recordId, rows[0]!.id)));
    expect(audits).toHaveLength(1);
  });

  it("another loan's account, a made-up one or a made-up loan is a 404; nothing is cleared", async () => {
    const mine = await restricted();
    const theirs = await restricted();
    const answer = await post(mine, { intent: "clear-restriction", bankAccountId: theirs.bankAccountId, reason: REASON });
    expect(answer).toMatchObject({ status: 404, body: { ok: false } });
    expect((await refusal(clearAccountRestriction(mine.loanId, theirs.bankAccountId, REASON, as(admin), db()))).status).toBe(404);
    expect((await refusal(clearAccountRestriction(mine.loanId, "00000000-0000-4000-8000-000000000000", REASON, as(admin), db()))).status).toBe(404);
    expect((await refusal(clearAccountRestriction("00000000-0000-4000-8000-000000000000", mine.bankAccountId, REASON, as(admin), db()))).status).toBe(404);
    expect((await post(mine, { intent: "clear-restriction", bankAccountId: "not-a-uuid", reason: REASON })).status).toBe(404);
    expect(await live(theirs.bankAccountId)).toBeDefined();
    expect(await live(mine.bankAccountId)).toBeDefined();
  });

  it("a blank, missing or oversized reason is refused (400) and nothing is cleared; an account with no restriction is a 409", async () => {
    const loan = await restricted();
    for (const reason of ["", "   \n ", "x".repeat(ACCOUNT_RESTRICTION_LIMITS.reasonMaxLength + 1), "Called\u0000back"]) {
      const answer = await post(loan, { intent: "clear-restriction", bankAccountId: loan.bankAccountId, reason });
      expect(answer.status, JSON.stringify(reason.slice(0, 10))).toBe(400);
    }
    expect((await post(loan, { intent: "clear-restriction", bankAccountId: loan.bankAccountId })).status).toBe(400);
    expect(await live(loan.bankAccountId)).toBeDefined();
    const fresh = await activeLoan(db(), dataDir, admin);
    expect((await refusal(clearAccountRestriction(fresh.loanId, fresh.bankAccountId, REASON, as(admin), db()))).message).toBe(ACCOUNT_RESTRICTION_MESSAGES.notRestricted);
  });
});
