import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payoffQuote } from "~/domain/loan-servicing";
import type { AuditActor } from "~/server/platform/audit/audit.server";
import { decryptField } from "~/server/platform/crypto/field-encryption.server";
import { ENCRYPTION_PURPOSES } from "~/server/platform/crypto/encryption-purposes.server";
import { achBatches, approvedLoans, auditLog, emailOutbox, loanPayments } from "~/server/platform/db/schema.server";
import { createAchBatch, loadAchPage, refundAchEntry, returnAchEntry, settleAchEntry } from "~/server/loans/ach-batches.server";
import { cancelDebit } from "~/server/loans/debit-cancellation.server";
import { loadLedger } from "~/server/loans/ledger.server";
import { nextBankingDay } from "~/domain/banking-days";
import { recordPayment } from "~/server/loans/payments.server";
import { loadStaffLoan } from "~/server/loans/staff-loans.server";
import { activeLoan, pendingDebit, servicingAdmin, type ActiveLoan } from "../helpers/servicing-loans";
import { appErrorOf } from "../helpers/rejection";
import { expectStoredAchFilesMatch } from "../helpers/nacha-parser";
import { setUpTestConfig } from "../helpers/temp-config";
import { testTargets, useTestDatabase } from "../helpers/test-db";
import { isAppError } from "~/server/platform/http/app-error.server";

/**
 * A paid-off loan is never debited again: paying it off cancels the borrower's unsent debits (e-mail,
 * audit); Create ACH Batch leaves out debits of loans not active or above the payoff on the file's
 * effective date (with the reason); Cancel Debit; Record Payment asks for a confirmation while a
 * debit is pending; a debit collected after payoff is Refund Due, never posted, then Mark Refunded;
 * settlement and return dates never before the file's effective date; trace numbers unique per
 * originator and day across files; names in other scripts transliterated or refused. On PGlite and,
 * with TEST_DATABASE_URL, PostgreSQL (the races).
 */

const dataDir = setUpTestConfig("debits-after-payoff", { APP_SECRET: "p".repeat(48), PUBLIC_URL: "https://loans.example.com" });

// A pending debit to confirm is a servicing refusal too.
const refusal = (promise: Promise<unknown>) => appErrorOf(promise, "servicing", "pending_debit_unconfirmed");

describe.each(testTargets)("debits and payoff on %s", (target) => {
  const database = useTestDatabase({ target, global: true });
  const db = () => database().db;
  let admin: AuditActor;

  beforeAll(async () => {
    admin = await servicingAdmin(db(), `payoff-admin-${target}`);
  });
  // Every file these tests made, read by the registry's parser and compared with the database.
  afterAll(async () => {
    expect(await expectStoredAchFilesMatch(db())).toBeGreaterThan(0);
  });

  // Each test batches only its own debits: earlier tests' leftovers are cancelled first.
  const clearPending = () =>
    db().update(loanPayments).set({ status: "cancelled", cancelReason: "test set-up", cancelledAt: new Date() }).where(and(eq(loanPayments.status, "pending")));

  const payoffToday = async (loan: ActiveLoan, day: string) => {
    const ledger = (await loadLedger(loan.loanId, db(), day))!;
    return payoffQuote(ledger.terms, ledger.payments, ledger.fees, day).totalCents;
  };
  const mails = (to: string, template: string) => db().select().from(emailOutbox).where(and(eq(emailOutbox.toAddress, to), eq(emailOutbox.template, template)));
  const payment = async (id: string) => (await db().select().from(loanPayments).where(eq(loanPayments.id, id)))[0]!;

  it("Record Payment asks for a confirmation while a debit is pending; paying off cancels the unsent debit and tells the borrower", async () => {
    await clearPending();
    const loan = await activeLoan(db(), dataDir, admin);
    const debit = await pendingDebit(db(), loan, 50_000);
    const today = new Date().toISOString().slice(0, 10);
    const payoff = await payoffToday(loan, today);

    const unconfirmed = await refusal(recordPayment(loan.loanId, { amountCents: payoff, receivedOn: today, method: "wire", reference: "WIRE-1" }, { actor: admin, request: {} }, db()));
    expect(unconfirmed).toSatisfy((e) => isAppError(e, "pending_debit_unconfirmed"));
    expect(unconfirmed.status).toBe(409);
    expect(unconfirmed.message).toContain("A borrower debit of $500.00 is pending");
    expect((await loadStaffLoan(loan.loanId, { actor: admin, request: {} }, db()))!.pendingDebit).toMatchObject({ amountCents: 50_000, sent: false });

    const result = await recordPayment(loan.loanId, { amountCents: payoff, receivedOn: today, method: "wire", reference: "WIRE-1", confirmPendingDebit: true }, { actor: admin, request: {} }, db());
    expect(result.paidInFull).toBe(true);
    expect(await payment(debit)).toMatchObject({ status: "cancelled", cancelReason: "Your loan was paid in full before this debit was sent.", achBatchId: null, receivedOn: null });
    const [mail] = await mails(loan.owner.email, "debit-cancelled");
    expect(mail!.textBody).toContain("will not be taken from your account");
    expect(mail!.textBody).toContain("$500.00");
    expect(mail!.textBody).not.toMatch(/000123456789|021000021/);
    const audits = await db().select().from(auditLog).where(and(eq(auditLog.action, "payment.cancel"), eq(auditLog.recordId, debit)));
    expect(audits).toHaveLength(1);
    // Nothing left to send: the next batch has none of this loan's debits.
    const batch = await createAchBatch({ actor: admin, request: {} }, db());
    expect(batch).toMatchObject({ ok: false, skipped: [] });
  });

  it("Create ACH Batch leaves out a debit of a paid-off loan and one above the payoff on the effective date, and says why", async () => {
    await clearPending();
    const paidOff = await activeLoan(db(), dataDir, admin);
    const stale = await pendingDebit(db(), paidOff, 10_000);
    // A debit left over from before the payoff rule (the loan marked paid off directly).
    await db().update(approvedLoans).set({ status: "paid_off", paidOffAt: new Date() }).where(eq(approvedLoans.id, paidOff.loanId));
    const big = await activeLoan(db(), dataDir, admin);
    const now = new Date("2026-12-07T15:00:00Z");
    const effective = nextBankingDay("2026-12-07");
    const tooMuch = await pendingDebit(db(), big, (await payoffToday(big, effective)) + 1);
    const fine = await activeLoan(db(), dataDir, admin);
    const ok = await pendingDebit(db(), fine, 20_000);

    const page = await loadAchPage(db(), "2026-12-07");
    const reasons = new Map(page.pending.map((p) => [p.paymentId, p.skipReason]));
    expect(reasons.get(stale)).toContain("paid off");
    expect(reasons.get(tooMuch)).toContain("More than the loan's payoff on the file's effective date");
    expect(reasons.get(ok)).toBeNull();

    const result = await createAchBatch({ actor: admin, request: {} }, db(), now);
    if (!result.ok) throw new Error(result.message);
    expect(result.entryCount).toBe(1);
    expect(result.skipped.map((s) => s.paymentId).sort()).toEqual([stale, tooMuch].sort());
    expect((await payment(ok)).achBatchId).toBe(result.batchId);
    for (const id of [stale, tooMuch]) expect(await payment(id)).toMatchObject({ status: "pending", achBatchId: null });

    // Staff cancel the left-out debits; the borrower is told the reason given.
    await cancelDebit(stale, "Loan already paid off", { actor: admin, request: {} }, db());
    expect(await payment(stale)).toMatchObject({ status: "cancelled", cancelReason: "Loan already paid off", cancelledBy: admin.id });
    expect((await mails(paidOff.owner.email, "debit-cancelled"))[0]!.textBody).toContain("Loan already paid off");
    // Once only; and a debit already in a file cannot be cancelled.
    expect((await refusal(cancelDebit(stale, "again", { actor: admin, request: {} }, db()))).status).toBe(409);
    expect((await refusal(cancelDebit(ok, "too late", { actor: admin, request: {} }, db()))).status).toBe(409);
    expect((await refusal(cancelDebit("00000000-0000-4000-8000-000000000000", "x", { actor: admin, request: {} }, db()))).status).toBe(404);
  });

  it("a debit settled after the loan was paid off is Refund Due, never posted; Mark Refunded closes it", async () => {
    await clearPending();
    const loan = await activeLoan(db(), dataDir, admin);
    const debit = await pendingDebit(db(), loan, 30_000);
    const batch = await createAchBatch({ actor: admin, request: {} }, db());
    if (!batch.ok) throw new Error(batch.message);
    const effective = batch.effectiveDate;
    // Paid off by wire while the debit is at the bank: staff confirm the warning (the debit was sent).
    const payoff = await payoffToday(loan, effective);
    const warned = await refusal(recordPayment(loan.loanId, { amountCents: payoff, receivedOn: effective, method: "wire", reference: "WIRE-PAYOFF" }, { actor: admin, request: {} }, db(), effective));
    expect(warned.message).toContain("already sent to the bank");
    await recordPayment(loan.loanId, { amountCents: payoff, receivedOn: effective, method: "wire", reference: "WIRE-PAYOFF", confirmPendingDebit: true }, { actor: admin, request: {} }, db(), effective);
    // The sent debit is not cancelled (the bank has it).
    expect(await payment(debit)).toMatchObject({ status: "pending", achBatchId: batch.batchId });

    const settled = await settleAchEntry(debit, effective, { actor: admin, request: {} }, db(), effective);
    expect(settled.refundDue).toBe(true);
    expect(await payment(debit)).toMatchObject({ status: "refund_due", receivedOn: effective, postedAt: null });
    const ledger = (await loadLedger(loan.loanId, db(), effective))!;
    expect(ledger.payments.map((p) => p.id)).not.toContain(debit);
    expect(ledger.state.allocations.every((a) => a.excessCents === 0)).toBe(true);
    expect((await mails(loan.owner.email, "refund-due"))[0]!.textBody).toContain("$300.00");

    const staffPage = (await loadStaffLoan(loan.loanId, { actor: admin, request: {} }, db(), effective))!;
    expect(staffPage.refundsDue).toEqual([{ paymentId: debit, amountCents: 30_000, receivedOn: effective, reference: expect.any(String) }]);
    expect((await loadAchPage(db(), effective)).refundsDue.map((r) => r.paymentId)).toContain(debit);

    expect((await refusal(refundAchEntry(debit, "2000-01-01", "CHK-1", { actor: admin, request: {} }, db(), effective))).status).toBe(400);
    await refundAchEntry(debit, effective, "CHK-1001", { actor: admin, request: {} }, db(), effective);
    expect(await payment(debit)).toMatchObject({ status: "refunded", refundedOn: effective, refundReference: "CHK-1001", refundedBy: admin.id });
    expect((await refusal(refundAchEntry(debit, effective, "CHK-1002", { actor: admin, request: {} }, db(), effective))).status).toBe(409);
    expect((await loadAchPage(db(), effective)).refundsDue.map((r) => r.paymentId)).not.toContain(debit);
    expect((await mails(loan.owner.email, "refund-sent"))[0]!.textBody).toContain("CHK-1001");
  });

  it("a settlement or return date before the file's effective date is refused", async () => {
    await clearPending();
    const loan = await activeLoan(db(), dataDir, admin, { signedAt: new Date("2026-10-01T12:00:00Z") });
    const a = await pendingDebit(db(), loan, 10_000);
    const b = await pendingDebit(db(), loan, 11_000);
    const batch = await createAchBatch({ actor: admin, request: {} }, db(), new Date("2026-12-04T15:00:00Z")); // a Friday: effective Monday
    if (!batch.ok) throw new Error(batch.message);
    expect(batch.effectiveDate).toBe("2026-12-07");
    const later = "2026-12-09";
    const early = await refusal(settleAchEntry(a, "2026-12-04", { actor: admin, request: {} }, db(), later));
    expect(early.status).toBe(400);
    expect(early.message).toContain("effective date (2026-12-07)");
    const earlyReturn = await refusal(returnAchEntry(b, "R01", "2026-12-05", { actor: admin, request: {} }, db(), later));
    expect(earlyReturn.status).toBe(400);
    expect((await refusal(returnAchEntry(b, "R01", "2026-12-10", { actor: admin, request: {} }, db(), later))).status).toBe(400);
    expect(await payment(a)).toMatchObject({ status: "pending" });
    await settleAchEntry(a, "2026-12-07", { actor: admin, request: {} }, db(), later);
    await returnAchEntry(b, "R01", "2026-12-08", { actor: admin, request: {} }, db(), later);
    expect(await payment(a)).toMatchObject({ status: "posted", receivedOn: "2026-12-07" });
    expect(await payment(b)).toMatchObject({ status: "returned", returnedOn: "2026-12-08" });
  });

  it("trace numbers never repeat across the day's files; other scripts are transliterated, a name with nothing readable is refused", async () => {
    await clearPending();
    const day = new Date("2026-12-08T14:00:00Z");
    const traces: string[] = [];
    const readTraces = async (batchId: string) => {
      const [row] = await db().select().from(achBatches).where(eq(achBatches.id, batchId));
      return decryptField(row!.content, ENCRYPTION_PURPOSES.achFile)
        .split("\n")
        .filter((l) => l.startsWith("6"));
    };
    const cyrillic = await activeLoan(db(), dataDir, admin, { holder: "Мария Гонсалес" });
    const blank = await activeLoan(db(), dataDir, admin, { holder: "🙂🙂" });
    const blankId = await pendingDebit(db(), blank, 1_500);
    await pendingDebit(db(), cyrillic, 1_000);
    const first = await createAchBatch({ actor: admin, request: {} }, db(), day);
    if (!first.ok) throw new Error(first.message);
    expect(first.skipped).toEqual([{ paymentId: blankId, reason: expect.stringContaining("name") }]);
    const lines = await readTraces(first.batchId);
    expect(lines[0]!.slice(54, 76).trim()).toBe("MARIYA GONSALES");
    traces.push(...lines.map((l) => l.slice(79, 94)));
    await cancelDebit(blankId, "Name cannot be sent", { actor: admin, request: {} }, db());
    for (let i = 0; i < 2; i++) {
      const loan = await activeLoan(db(), dataDir, admin);
      await pendingDebit(db(), loan, 2_000 + i);
      await pendingDebit(db(), cyrillic, 3_000 + i).catch(() => null);
      const next = await createAchBatch({ actor: admin, request: {} }, db(), new Date(day.getTime() + (i + 1) * 60_000));
      if (!next.ok) throw new Error(next.message);
      traces.push(...(await readTraces(next.batchId)).map((l) => l.slice(79, 94)));
    }
    expect(traces.length).toBeGreaterThanOrEqual(3);
    expect(new Set(traces).size).toBe(traces.length);
  });

  it("a payoff racing Create ACH Batch: the debit is either cancelled or sent (then Refund Due), never posted on top", async () => {
    for (let round = 0; round < 3; round++) {
      await clearPending();
      const loan = await activeLoan(db(), dataDir, admin);
      const debit = await pendingDebit(db(), loan, 25_000);
      const today = new Date().toISOString().slice(0, 10);
      const payoff = await payoffToday(loan, today);
      const [batch] = await Promise.all([
        createAchBatch({ actor: admin, request: {} }, db()),
        recordPayment(loan.loanId, { amountCents: payoff, receivedOn: today, method: "wire", reference: `RACE-${round}`, confirmPendingDebit: true }, { actor: admin, request: {} }, db()),
      ]);
      const row = await payment(debit);
      if (row.status === "cancelled") {
        expect(row.achBatchId).toBeNull();
        expect(batch.ok).toBe(false);
      } else {
        expect(row).toMatchObject({ status: "pending" });
        expect(batch.ok && row.achBatchId === batch.batchId).toBe(true);
        const effective = batch.ok ? batch.effectiveDate : today;
        expect((await settleAchEntry(debit, effective, { actor: admin, request: {} }, db(), effective)).refundDue).toBe(true);
      }
      const posted = await db().select().from(loanPayments).where(and(eq(loanPayments.loanId, loan.loanId), inArray(loanPayments.status, ["posted"])));
      expect(posted.map((p) => p.reference)).toEqual([`RACE-${round}`]);
    }
  });
});
