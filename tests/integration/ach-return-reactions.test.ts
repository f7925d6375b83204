import { and, asc, eq, ne } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addBankingDays, nextBankingDay } from "~/domain/banking-days";
import { addDays, todayUtc } from "~/domain/dates";
import { SERVICING_TERMS_VERSION, INTEREST_METHOD, PAYMENT_ORDER } from "~/domain/servicing-terms";
import { payoffQuote } from "~/domain/loan-servicing";
import type { AuditActor } from "~/server/platform/audit/audit.server";
import { decryptField } from "~/server/platform/crypto/field-encryption.server";
import { ENCRYPTION_PURPOSES } from "~/server/platform/crypto/encryption-purposes.server";
import {
  achBatches,
  applicationEvents,
  approvedLoans,
  auditLog,
  autopayAuthorizations,
  bankAccountRestrictions,
  emailOutbox,
  loanFees,
  loanFlags,
  loanPayments,
  loanProtections,
} from "~/server/platform/db/schema.server";
import { createAchBatch } from "~/server/loans/ach-batches.server";
import { loadLedger } from "~/server/loans/ledger.server";
import { returnPayment, settlePayment } from "~/server/loans/payments.server";
import { returnedDebitsView } from "~/server/loans/returned-debits.server";
import { changePaymentAccount } from "~/server/loans/payment-accounts.server";
import { loadBorrowerLoan } from "~/server/loans/borrower-loan.server";
import { activeLoan, pendingDebit, servicingAdmin, type ActiveLoan } from "../helpers/servicing-loans";
import { appErrorOf } from "../helpers/rejection";
import { checkNachaFile, expectStoredAchFilesMatch } from "../helpers/nacha-parser";
import { setUpTestConfig } from "../helpers/temp-config";
import { testTargets, useTestDatabase } from "../helpers/test-db";

/**
 * The reaction to a returned borrower debit, by its return code: R01/R09 retried (five banking days
 * later, in a RETRY PYMT batch, at most twice, within 180 days of the original), a returned-payment
 * fee only when the loan's terms have one; R02/R03/R04 autopay stopped and the account unusable;
 * R05/R07/R10/R11/R29 autopay stopped, the account blocked, staff flagged, never retried; anything else
 * told and not retried. A posted debit returned leaves the ledger; a second return is refused; two at
 * once leave one reaction; e-mails never carry a bank number. On PGlite and, with TEST_DATABASE_URL,
 * PostgreSQL.
 */

const dataDir = setUpTestConfig("ach-return-reactions", { APP_SECRET: "r".repeat(48), PUBLIC_URL: "https://loans.example.com" });

const ACCOUNT = "000123456789";
const ROUTING = "021000021";
const DAY_MS = 86_400_000;

describe.each(testTargets)("returned debits on %s", (target) => {
  const database = useTestDatabase({ target, global: true });
  const db = () => database().db;
  let admin: AuditActor;
  const caller = () => ({ actor: admin, request: { ip: "198.51.100.7" } });

  beforeAll(async () => {
    admin = await servicingAdmin(db(), `returns-admin-${target}`);
  });
  afterAll(async () => {
    expect(await expectStoredAchFilesMatch(db())).toBeGreaterThan(0);
  });

  // Each test batches only its own debits: earlier tests' leftovers are cancelled first.
  const clearPending = () => db().update(loanPayments).set({ status: "cancelled", cancelReason: "test set-up", cancelledAt: new Date() }).where(eq(loanPayments.status, "pending"));
  const payment = async (id: string) => (await db().select().from(loanPayments).where(eq(loanPayments.id, id)))[0]!;
  const retriesOf = (id: string) => db().select().from(loanPayments).where(eq(loanPayments.retryOf, id)).orderBy(asc(loanPayments.retryNumber));
  const mails = (to: string) => db().select().from(emailOutbox).where(and(eq(emailOutbox.toAddress, to), eq(emailOutbox.template, "payment-returned"))).orderBy(asc(emailOutbox.createdAt));
  const events = (applicationId: string, kind: "payment_returned" | "payment_retry" | "autopay_off") =>
    db().select().from(applicationEvents).where(and(eq(applicationEvents.applicationId, applicationId), eq(applicationEvents.kind, kind)));
  const returnAudits = (paymentId: string) => db().select().from(auditLog).where(and(eq(auditLog.action, "payment.return"), eq(auditLog.recordId, paymentId)));

  /** A batch made at noon (UTC) of `day`: its effective date is the next banking day. */
  const batchOn = async (day: string) => {
    const result = await createAchBatch(caller(), db(), new Date(`${day}T12:00:00Z`));
    if (!result.ok) throw new Error(`no batch: ${result.message} ${JSON.stringify(result.skipped)}`);
    return result;
  };
  /** A one-time debit sent in a file made today; returns its id and the file's effective date. */
  const sentDebit = async (loan: ActiveLoan, amountCents: number, day = todayUtc()) => {
    await clearPending();
    const id = await pendingDebit(db(), loan, amountCents);
    const batch = await batchOn(day);
    expect((await payment(id)).achBatchId).toBe(batch.batchId);
    return { id, effective: batch.effectiveDate };
  };
  const withAutopay = async (loan: ActiveLoan) => {
    const [row] = await db()
      .insert(autopayAuthorizations)
      .values({ loanId: loan.loanId, userId: loan.owner.id, bankAccountId: loan.bankAccountId, amountKind: "installment", daysBeforeDue: 0, textVersion: "autopay-test-1", nextQueueOn: todayUtc() })
      .returning({ id: autopayAuthorizations.id });
    return row!.id;
  };
  const autopayDebit = async (loan: ActiveLoan, autopayId: string, installmentNumber: number, scheduledOn: string | null) => {
    const [row] = await db()
      .insert(loanPayments)
      .values({
        loanId: loan.loanId,
        userId: loan.owner.id,
        amountCents: 20_000,
        status: "pending",
        method: "ach",
        source: "borrower",
        choice: "installment",
        paymentType: "R",
        reference: `AUTO-${Math.random().toString(36).slice(2, 10).toUpperCase()}`,
        bankAccountId: loan.bankAccountId,
        authorizationVersion: "autopay-test-1",
        authorizedAt: new Date(),
        autopayAuthorizationId: autopayId,
        installmentNumber,
        scheduledOn,
      })
      .returning({ id: loanPayments.id });
    return row!.id;
  };
  const expectNoBankNumbers = async (email: string) => {
    const rows = await db().select().from(emailOutbox).where(eq(emailOutbox.toAddress, email));
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      const text = `${r.subject} ${r.textBody} ${r.htmlBody ?? ""}`;
      expect(text).not.toContain(ACCOUNT);
      expect(text).not.toContain(ROUTING);
      expect(text).not.toContain("6789");
    }
  };

  it("R01: the borrower is told, a retry is queued five banking days later, goes in a later file as RETRY PYMT; a second retry; no third", async () => {
    const loan = await activeLoan(db(), dataDir, admin, { account: ACCOUNT, routing: ROUTING });
    const { id, effective } = await sentDebit(loan, 30_000);
    const result = await returnPayment(id, "R01", effective, caller(), db(), effective);
    const retryDay = addBankingDays(effective, 5);
    expect(result).toMatchObject({ kind: "retry", retry: { scheduledOn: retryDay, retryNumber: 1 }, feeCents: null, autopayStopped: false, leftLedger: false });
    expect(await payment(id)).toMatchObject({ status: "returned", returnCode: "R01", returnedOn: effective });
    const [retry1] = await retriesOf(id);
    const original = await payment(id);
    expect(retry1).toMatchObject({
      status: "pending",
      retryOf: id,
      retryNumber: 1,
      scheduledOn: retryDay,
      amountCents: 30_000,
      reference: `${original.reference}-R1`,
      bankAccountId: loan.bankAccountId,
      source: "borrower",
      method: "ach",
      choice: original.choice,
      authorizationVersion: original.authorizationVersion,
    });

    // Told: the e-mail, the timeline, the audit row, and the loan page.
    const [mail] = await mails(loan.owner.email);
    expect(mail!.textBody).toContain("R01 Insufficient Funds");
    expect(mail!.textBody).toContain("We will try again on");
    expect(await events(loan.applicationId, "payment_returned")).toHaveLength(1);
    const [retryEvent] = await events(loan.applicationId, "payment_retry");
    expect(retryEvent!.internal).toBe(false);
    const [audit] = await returnAudits(id);
    expect(audit!.details).toMatchObject({ returnCode: "R01", reaction: "retry", retryOn: retryDay, retryNumber: 1, feeCents: null, autopayStopped: false });
    const page = (await loadBorrowerLoan(loan.loanId, { actor: { ...loan.owner, isStaff: false }, request: {} }, db(), effective))!;
    expect(page.history.find((h) => h.id === id)).toMatchObject({ status: "returned", returnCode: "R01" });
    expect(page.history.find((h) => h.id === retry1!.id)).toMatchObject({ status: "pending", reference: `${original.reference}-R1` });
    expect(page.returnedDebits.map((r) => r.paymentId)).toEqual([id]);
    const view = await returnedDebitsView(loan.loanId, db());
    expect(view).toEqual([expect.objectContaining({ paymentId: id, returnCode: "R01", returnLabel: "Insufficient Funds", amountCents: 30_000, nextStep: expect.stringContaining("We will try again on") })]);

    // Not in a file before its day; in the file effective that day, in its own RETRY PYMT batch.
    const early = await createAchBatch(caller(), db(), new Date(`${effective}T12:00:00Z`));
    expect(early.ok).toBe(false);
    expect(early.skipped).toEqual([{ paymentId: retry1!.id, reason: expect.stringContaining("Scheduled to settle") }]);
    const later = await batchOn(addDays(retryDay, -1));
    expect(later.effectiveDate).toBe(retryDay);
    const [batch] = await db().select().from(achBatches).where(eq(achBatches.id, later.batchId));
    const parsed = checkNachaFile(decryptField(batch!.content, ENCRYPTION_PURPOSES.achFile));
    expect(parsed.batches.map((b) => b.description.trim())).toEqual(["RETRY PYMT"]);
    expect(parsed.batches[0]!.entries).toEqual([expect.objectContaining({ amount: 30_000, paymentTypeCode: "S" })]);

    // The retry returned too: the second retry (of the same original), then none.
    const second = await returnPayment(retry1!.id, "R09", retryDay, caller(), db(), retryDay);
    const retry2Day = addBankingDays(retryDay, 5);
    expect(second.retry).toMatchObject({ scheduledOn: retry2Day, retryNumber: 2 });
    const [, retry2] = await retriesOf(id);
    expect(retry2).toMatchObject({ retryOf: id, retryNumber: 2, reference: `${original.reference}-R2`, scheduledOn: retry2Day });
    await batchOn(addDays(retry2Day, -1));
    const third = await returnPayment(retry2!.id, "R01", retry2Day, caller(), db(), retry2Day);
    expect(third).toMatchObject({ kind: "retry", retry: null, noRetryReason: "limit" });
    expect(await retriesOf(id)).toHaveLength(2);
    const last = (await mails(loan.owner.email)).at(-1)!;
    expect(last.textBody).toContain("We will not try again: make a payment from this page.");
    const after = await returnedDebitsView(loan.loanId, db());
    expect(after.map((r) => r.nextStep)).toEqual([
      expect.stringContaining("that debit was returned too"),
      expect.stringContaining("that debit was returned too"),
      "We will not try again: make a payment from this page.",
    ]);
    await expectNoBankNumbers(loan.owner.email);
  });

  it("no retry more than 180 days after the original's effective date", async () => {
    const loan = await activeLoan(db(), dataDir, admin, { signedAt: new Date(Date.now() - 220 * DAY_MS) });
    const day = todayUtc(new Date(Date.now() - 178 * DAY_MS));
    const { id, effective } = await sentDebit(loan, 10_000, day);
    expect(effective < todayUtc()).toBe(true);
    const result = await returnPayment(id, "R01", todayUtc(), caller(), db());
    expect(result).toMatchObject({ kind: "retry", retry: null, noRetryReason: "window" });
    expect(await retriesOf(id)).toHaveLength(0);
  });

  it("a returned-payment fee only when the loan's terms have one, once per installment", async () => {
    const without = await activeLoan(db(), dataDir, admin);
    const a = await sentDebit(without, 10_000);
    expect((await returnPayment(a.id, "R01", a.effective, caller(), db(), a.effective)).feeCents).toBeNull();
    expect(await db().select().from(loanFees).where(eq(loanFees.loanId, without.loanId))).toHaveLength(0);

    const withFee = await activeLoan(db(), dataDir, admin);
    await db()
      .update(approvedLoans)
      .set({ servicingTerms: { version: SERVICING_TERMS_VERSION, interestMethod: INTEREST_METHOD, paymentOrder: PAYMENT_ORDER, lateFee: null, returnedPaymentFeeCents: 2_500, prepaymentPenalty: "none" } })
      .where(eq(approvedLoans.id, withFee.loanId));
    const b = await sentDebit(withFee, 10_000);
    const result = await returnPayment(b.id, "R01", b.effective, caller(), db(), b.effective);
    expect(result.feeCents).toBe(2_500);
    const fees = await db().select().from(loanFees).where(eq(loanFees.loanId, withFee.loanId));
    expect(fees).toEqual([expect.objectContaining({ kind: "returned_payment_fee", amountCents: 2_500, installmentNumber: 1, assessedOn: b.effective })]);
    const ledger = (await loadLedger(withFee.loanId, db(), b.effective))!;
    expect(ledger.state.feesDueCents).toBe(2_500);
    expect((await mails(withFee.owner.email))[0]!.textBody).toContain("returned-payment fee of $25.00");
    expect(await db().select().from(auditLog).where(and(eq(auditLog.action, "fee.assess"), eq(auditLog.recordId, fees[0]!.id)))).toHaveLength(1);
    // Its retry returned as well: no second fee for the same installment.
    const [retry] = await retriesOf(b.id);
    const retryDay = retry!.scheduledOn!;
    await batchOn(addDays(retryDay, -1));
    expect((await returnPayment(retry!.id, "R01", retryDay, caller(), db(), retryDay)).feeCents).toBeNull();
    expect(await db().select().from(loanFees).where(eq(loanFees.loanId, withFee.loanId))).toHaveLength(1);
  });

  it("a debit sent before a bankruptcy filing and returned during the stay: no retry, no fee, and the borrower is asked for nothing", async () => {
    const loan = await activeLoan(db(), dataDir, admin);
    await db()
      .update(approvedLoans)
      .set({ servicingTerms: { version: SERVICING_TERMS_VERSION, interestMethod: INTEREST_METHOD, paymentOrder: PAYMENT_ORDER, lateFee: null, returnedPaymentFeeCents: 2_500, prepaymentPenalty: "none" } })
      .where(eq(approvedLoans.id, loan.loanId));
    const { id, effective } = await sentDebit(loan, 10_000);
    // Filed after the file went out (the debit was already at the bank), recorded before the return.
    await db().insert(loanProtections).values({ loanId: loan.loanId, kind: "bankruptcy", startsOn: todayUtc(), reference: "Case 26-10004, Bankr. D. Del.", recordedBy: admin.id });
    const result = await returnPayment(id, "R01", effective, caller(), db(), effective);
    expect(result).toMatchObject({ kind: "retry", retry: null, noRetryReason: "bankruptcy_stay", feeCents: null });
    expect(await retriesOf(id)).toHaveLength(0);
    expect(await db().select().from(loanFees).where(eq(loanFees.loanId, loan.loanId))).toHaveLength(0);
    const [mail] = await mails(loan.owner.email);
    expect(mail!.textBody).toContain("We will not try again while your bankruptcy case is open.");
    expect(mail!.textBody).not.toContain("make a payment");
    expect((await returnedDebitsView(loan.loanId, db())).map((r) => r.nextStep)).toEqual(["We will not try again while your bankruptcy case is open."]);
  });

  it.each(["R02", "R03", "R04"])("%s: autopay stops, the account is unusable, unsent debits cancelled, the borrower asked for another account", async (code) => {
    const loan = await activeLoan(db(), dataDir, admin, { account: ACCOUNT, routing: ROUTING });
    await clearPending();
    const autopayId = await withAutopay(loan);
    const debit = await autopayDebit(loan, autopayId, 1, null);
    const batch = await batchOn(todayUtc());
    const next = await autopayDebit(loan, autopayId, 2, addDays(batch.effectiveDate, 30));
    const result = await returnPayment(debit, code, batch.effectiveDate, caller(), db(), batch.effectiveDate);
    expect(result).toMatchObject({ kind: "account_unusable", retry: null, autopayStopped: true, flagId: null, cancelledPaymentIds: [next] });
    expect((await db().select().from(autopayAuthorizations).where(eq(autopayAuthorizations.id, autopayId)))[0]).toMatchObject({ status: "stopped", stopReturnCode: code, nextQueueOn: null });
    expect(await payment(next)).toMatchObject({ status: "cancelled" });
    const [restriction] = await db().select().from(bankAccountRestrictions).where(eq(bankAccountRestrictions.bankAccountId, loan.bankAccountId));
    expect(restriction).toMatchObject({ kind: "unusable", returnCode: code, paymentId: debit });
    expect(await events(loan.applicationId, "autopay_off")).toHaveLength(1);
    const [mail] = await mails(loan.owner.email);
    expect(mail!.textBody).toContain("Autopay is off: add another bank account.");
    expect((await returnedDebitsView(loan.loanId, db()))[0]!.nextStep).toBe("Autopay is off: add another bank account.");
    expect(await retriesOf(debit)).toHaveLength(0);
    // The next file leaves a debit from that account out.
    await clearPending();
    const later = await pendingDebit(db(), loan, 5_000);
    const refused = await createAchBatch(caller(), db(), new Date(`${batch.effectiveDate}T12:00:00Z`));
    expect(refused.skipped).toEqual([{ paymentId: later, reason: expect.stringContaining("cannot be used") }]);
    await expectNoBankNumbers(loan.owner.email);
  });

  it.each(["R05", "R07", "R10", "R11", "R29"])("%s: autopay stops, the account is blocked, staff flagged, never retried, pending retries cancelled", async (code) => {
    const loan = await activeLoan(db(), dataDir, admin, { account: ACCOUNT, routing: ROUTING });
    // An earlier R01 left a retry pending; then another debit comes back unauthorised.
    const first = await sentDebit(loan, 10_000);
    await returnPayment(first.id, "R01", first.effective, caller(), db(), first.effective);
    const [retry] = await retriesOf(first.id);
    expect(retry!.status).toBe("pending");
    const autopayId = await withAutopay(loan);
    await db().update(loanPayments).set({ status: "cancelled", cancelReason: "test set-up", cancelledAt: new Date() }).where(and(eq(loanPayments.status, "pending"), ne(loanPayments.loanId, loan.loanId)));
    const debit = await autopayDebit(loan, autopayId, 1, null);
    // Only this loan's debits in the file: other loans' leftovers out of the way, the retry kept (it waits for its day).
    const batch = await batchOn(todayUtc());
    expect((await payment(debit)).achBatchId).toBe(batch.batchId);
    const result = await returnPayment(debit, code, batch.effectiveDate, caller(), db(), batch.effectiveDate);
    expect(result).toMatchObject({ kind: "unauthorized", retry: null, autopayStopped: true });
    expect(result.cancelledPaymentIds).toContain(retry!.id);
    expect(await payment(retry!.id)).toMatchObject({ status: "cancelled" });
    const [restriction] = await db().select().from(bankAccountRestrictions).where(eq(bankAccountRestrictions.bankAccountId, loan.bankAccountId));
    expect(restriction).toMatchObject({ kind: "blocked", returnCode: code });
    const [flag] = await db().select().from(loanFlags).where(eq(loanFlags.loanId, loan.loanId));
    expect(flag).toMatchObject({ kind: "unauthorized_return", paymentId: debit, returnCode: code, resolvedAt: null });
    expect(flag!.summary).not.toMatch(/000123456789|021000021|6789/);
    expect(await retriesOf(debit)).toHaveLength(0);
    const [audit] = await returnAudits(debit);
    expect(audit!.details).toMatchObject({ reaction: "unauthorized", autopayStopped: true, restriction: "blocked", flagId: flag!.id });
    expect((await mails(loan.owner.email)).at(-1)!.textBody).toContain("Autopay is off and this account is blocked: contact us.");
    await expectNoBankNumbers(loan.owner.email);
  });

  it.each(["R08", "R16", "R20"])("%s: the borrower is told; no retry, no restriction", async (code) => {
    const loan = await activeLoan(db(), dataDir, admin);
    const { id, effective } = await sentDebit(loan, 10_000);
    const result = await returnPayment(id, code, effective, caller(), db(), effective);
    expect(result).toMatchObject({ kind: "no_retry", retry: null, autopayStopped: false, flagId: null, feeCents: null });
    expect(await retriesOf(id)).toHaveLength(0);
    expect(await db().select().from(bankAccountRestrictions).where(eq(bankAccountRestrictions.bankAccountId, loan.bankAccountId))).toHaveLength(0);
    expect((await mails(loan.owner.email))[0]!.textBody).toContain("We will not try again: make a payment from this page.");
  });

  it("a posted debit returned leaves the ledger; a loan it had paid off owes again", async () => {
    const loan = await activeLoan(db(), dataDir, admin);
    await clearPending();
    const batchDay = todayUtc();
    const effective = nextBankingDay(batchDay);
    const ledger = (await loadLedger(loan.loanId, db(), effective))!;
    const payoff = payoffQuote(ledger.terms, ledger.payments, ledger.fees, effective).totalCents;
    const id = await pendingDebit(db(), loan, payoff);
    // A second debit in the same file settles after the payoff: Refund Due, held when the loan owes again.
    const other = await pendingDebit(db(), loan, 5_000);
    await batchOn(batchDay);
    const settled = await settlePayment(id, effective, caller(), db(), effective);
    expect(settled.paidInFull).toBe(true);
    expect((await settlePayment(other, effective, caller(), db(), effective)).refundDue).toBe(true);
    expect((await db().select().from(approvedLoans).where(eq(approvedLoans.id, loan.loanId)))[0]!.status).toBe("paid_off");

    const returnedOn = addBankingDays(effective, 2);
    const result = await returnPayment(id, "R08", returnedOn, caller(), db(), returnedOn);
    expect(result).toMatchObject({ leftLedger: true, reopened: true, kind: "no_retry", refundsDueHeld: 1 });
    expect(await payment(id)).toMatchObject({ status: "returned", returnCode: "R08" });
    const [row] = await db().select().from(approvedLoans).where(eq(approvedLoans.id, loan.loanId));
    expect(row).toMatchObject({ status: "active", paidOffAt: null, balanceCents: ledger.loan.amountCents });
    const after = (await loadLedger(loan.loanId, db(), returnedOn))!;
    expect(after.payments.map((p) => p.id)).not.toContain(id);
    expect((await mails(loan.owner.email)).at(-1)!.textBody).toContain("no longer paid in full");
  });

  it("a second return of the same entry is refused (409) and changes nothing; two at once leave one reaction", async () => {
    const loan = await activeLoan(db(), dataDir, admin);
    const { id, effective } = await sentDebit(loan, 10_000);
    const results = await Promise.allSettled([returnPayment(id, "R01", effective, caller(), db(), effective), returnPayment(id, "R01", effective, caller(), db(), effective)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ status: 409 });
    expect(String(refused.reason.message)).toContain("already returned");
    expect(await retriesOf(id)).toHaveLength(1);
    expect(await returnAudits(id)).toHaveLength(1);
    expect(await mails(loan.owner.email)).toHaveLength(1);
    expect(await events(loan.applicationId, "payment_returned")).toHaveLength(1);

    const again = await appErrorOf(returnPayment(id, "R02", effective, caller(), db(), effective), "servicing");
    expect(again.status).toBe(409);
    expect(await payment(id)).toMatchObject({ status: "returned", returnCode: "R01" });
    expect(await db().select().from(bankAccountRestrictions).where(eq(bankAccountRestrictions.bankAccountId, loan.bankAccountId))).toHaveLength(0);
    expect(await returnAudits(id)).toHaveLength(1);
  });

  it("Change Bank Account refuses an account a return restricted (the same numbers again), and takes another", async () => {
    const loan = await activeLoan(db(), dataDir, admin, { account: ACCOUNT, routing: ROUTING });
    const { id, effective } = await sentDebit(loan, 10_000);
    await returnPayment(id, "R10", effective, caller(), db(), effective);
    const borrower = { actor: { ...loan.owner, isStaff: false }, request: { ip: "203.0.113.9" } };
    const form = (accountNumber: string) => ({ intent: "change-account", accountHolderName: "Dana Whitfield", bankName: "Test Bank", bankAccountType: "checking", accountNumber, routingNumber: ROUTING }) as never;
    const page = (await loadBorrowerLoan(loan.loanId, borrower, db(), effective))!;
    expect(page.bankAccounts.find((a) => a.id === loan.bankAccountId)!.validationState).toContain("blocked for debits");
    const refused = await appErrorOf(changePaymentAccount(loan.loanId, form(ACCOUNT), borrower, db()), "servicing");
    expect(refused.status).toBe(409);
    expect(refused.message).toBe("This bank account is blocked for debits: the bank returned a debit as not authorized (R10).");
    const changed = await changePaymentAccount(loan.loanId, form("000555566667"), borrower, db());
    expect(changed.bankAccountId).not.toBe(loan.bankAccountId);
  });
});
