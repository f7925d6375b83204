import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTOPAY_AUTHORIZATION_VERSION } from "~/domain/autopay-authorization";
import { formatMoney } from "~/domain/money";
import { payoffQuote } from "~/domain/loan-servicing";
import { AUTOPAY_MESSAGES, type AutopayTerms } from "~/domain/validation/autopay";
import type { AuditActor } from "~/server/platform/audit/audit.server";
import { approvedLoans, auditLog, autopayAuthorizations, emailOutbox, loanFees, loanPayments } from "~/server/platform/db/schema.server";
import { restrictAccount } from "~/server/loans/account-restrictions.server";
import { createAchBatch, downloadAchBatch } from "~/server/loans/ach-batches.server";
import { queueAutopayDebits } from "~/server/loans/autopay-job.server";
import { cancelAutopay, changeAutopay, setUpAutopay } from "~/server/loans/autopay.server";
import { borrowerLoanAction, makePayment } from "~/server/loans/borrower-payments.server";
import { runServicingJobs } from "~/server/loans/servicing-jobs.server";
import { recordPayment } from "~/server/loans/payments.server";
import { loadLedger } from "~/server/loans/ledger.server";
import { loadBorrowerLoan } from "~/server/loans/borrower-loan.server";
import { loanRecordsOfPerson } from "~/server/loans/person-loans.server";
import { appErrorOf } from "../helpers/rejection";
import { checkNachaFile, expectStoredAchFilesMatch } from "../helpers/nacha-parser";
import { activeLoan, pendingDebit, servicingAdmin, type ActiveLoan } from "../helpers/servicing-loans";
import { seedApplicant, seedLoan } from "../helpers/seed";
import { setUpTestConfig } from "../helpers/temp-config";
import { testTargets, useTestDatabase } from "../helpers/test-db";

/**
 * Autopay against the database: Set Up (a validated, unrestricted account of the borrower's own, a
 * serviced loan, two at once make one), Change and Cancel around the cutoff, the job queuing each
 * installment's WEB R debit once on its queue day (two runs at once: one row), the hand payment that
 * replaces the queued debit, the amount notice, the reminder's wording, and the ACH file carrying the
 * debit only when effective on its day. On PGlite and, with TEST_DATABASE_URL, PostgreSQL.
 *
 * The calendar: signed Friday 2026-11-20, so installment 1 is due Sunday 2026-12-20 (debit day Friday
 * 2026-12-18, queued 2026-12-08, cancellable through Tuesday 2026-12-15) and installment 2 Wednesday
 * 2027-01-20 (queued 2027-01-10).
 */

const dataDir = setUpTestConfig("autopay", { APP_SECRET: "q".repeat(48), PUBLIC_URL: "https://loans.example.com" });
const info = { ip: "203.0.113.44", userAgent: "Mozilla/5.0 AutopayTest" };
const SIGNED_AT = new Date("2026-11-20T15:00:00Z");
const SETUP_DAY = "2026-12-01";
const at = (day: string) => new Date(`${day}T15:00:00Z`);

describe.each(testTargets)("autopay on %s", (target) => {
  const database = useTestDatabase({ target, global: true });
  const db = () => database().db;
  let admin: AuditActor;

  beforeAll(async () => {
    admin = await servicingAdmin(db(), `autopay-admin-${target}`);
  });
  afterAll(async () => {
    await expectStoredAchFilesMatch(db());
  });

  const borrower = (loan: ActiveLoan) => ({ actor: { ...loan.owner, isStaff: false }, request: info });
  const terms = (loan: ActiveLoan, extra: Partial<AutopayTerms> = {}): AutopayTerms => ({ bankAccountId: loan.bankAccountId, amountKind: "installment", fixedAmountCents: null, daysBeforeDue: 0, ...extra });
  const autopayDebits = (loanId: string) => db().select().from(loanPayments).where(and(eq(loanPayments.loanId, loanId), eq(loanPayments.paymentType, "R")));
  const mails = (to: string, template: string) => db().select().from(emailOutbox).where(and(eq(emailOutbox.toAddress, to), eq(emailOutbox.template, template)));
  const authorizations = (loanId: string) => db().select().from(autopayAuthorizations).where(eq(autopayAuthorizations.loanId, loanId));
  const newLoan = (options: Parameters<typeof activeLoan>[3] = {}) => activeLoan(db(), dataDir, admin, { signedAt: SIGNED_AT, ...options });
  const paymentCents = async (loanId: string) => (await db().select({ c: approvedLoans.paymentCents }).from(approvedLoans).where(eq(approvedLoans.id, loanId)))[0]!.c;
  // Each ACH test batches only its own debits: earlier tests' leftovers are cancelled first.
  const clearPending = () => db().update(loanPayments).set({ status: "cancelled", cancelReason: "test set-up", cancelledAt: new Date() }).where(eq(loanPayments.status, "pending"));

  it("Set Up stores the authorisation (version, time, IP, browser, next queue day), audits, tells the timeline and e-mails a copy", async () => {
    const loan = await newLoan();
    const result = await setUpAutopay(loan.loanId, terms(loan), borrower(loan), db(), SETUP_DAY);
    expect(result.next).toEqual({ installmentNumber: 1, on: "2026-12-18", amountCents: await paymentCents(loan.loanId) });
    const [row] = await authorizations(loan.loanId);
    expect(row).toMatchObject({ status: "active", textVersion: AUTOPAY_AUTHORIZATION_VERSION, authorizationIp: info.ip, authorizationUserAgent: info.userAgent, nextQueueOn: "2026-12-08", daysBeforeDue: 0 });
    const [mail] = await mails(loan.owner.email, "autopay-authorized");
    expect(mail!.textBody).toContain("recurring electronic debits");
    expect(mail!.textBody).toContain("Checking ••••6789");
    expect(mail!.textBody).not.toMatch(/000123456789|021000021/);
    const audits = await db().select().from(auditLog).where(and(eq(auditLog.action, "autopay.authorize"), eq(auditLog.recordId, row!.id)));
    expect(audits).toHaveLength(1);
  });

  it("the account's consents list the autopay authorisations with their text, status and end", async () => {
    const loan = await newLoan();
    await setUpAutopay(loan.loanId, terms(loan), borrower(loan), db(), SETUP_DAY);
    await cancelAutopay(loan.loanId, borrower(loan), db(), SETUP_DAY);
    const { autopays } = await loanRecordsOfPerson(loan.owner.id, db());
    expect(autopays).toHaveLength(1);
    expect(autopays[0]).toMatchObject({ loanId: loan.loanId, version: AUTOPAY_AUTHORIZATION_VERSION, ipAddress: info.ip, userAgent: info.userAgent, status: "cancelled", account: "Checking ••••6789" });
    expect(autopays[0]!.endedAt).not.toBeNull();
    expect(autopays[0]!.text!.join(" ")).toContain("recurring electronic debits (ACH) from my Checking ••••6789");
  });

  it("refuses an unvalidated account, a restricted one, another person's, a fixed amount below the payment, and an unfunded loan", async () => {
    const unvalidated = await newLoan({ validated: false });
    expect((await appErrorOf(setUpAutopay(unvalidated.loanId, terms(unvalidated), borrower(unvalidated), db(), SETUP_DAY), "servicing")).message).toBe(AUTOPAY_MESSAGES.notValidated);

    const restricted = await newLoan();
    await restrictAccount(db(), restricted.bankAccountId, "unusable", "R02", null);
    const refusal = await appErrorOf(setUpAutopay(restricted.loanId, terms(restricted), borrower(restricted), db(), SETUP_DAY), "servicing");
    expect(refusal.status).toBe(409);
    expect(refusal.message).toContain("R02");

    const other = await newLoan();
    expect((await appErrorOf(setUpAutopay(other.loanId, terms(other, { bankAccountId: unvalidated.bankAccountId }), borrower(other), db(), SETUP_DAY), "servicing")).message).toBe(AUTOPAY_MESSAGES.bankAccountUnknown);
    const low = await appErrorOf(setUpAutopay(other.loanId, terms(other, { amountKind: "fixed", fixedAmountCents: 100 }), borrower(other), db(), SETUP_DAY), "servicing");
    expect(low.message).toContain(AUTOPAY_MESSAGES.amountBelowInstallment);

    const owner = await seedApplicant(db(), { id: `autopay-unfunded-${target}`, name: "Uma Unfunded", email: `autopay.unfunded.${target}@example.com` });
    const unfunded = await seedLoan(db(), { owner, admin, funded: false });
    const caller = { actor: { ...owner, isStaff: false }, request: info };
    const notActive = await appErrorOf(setUpAutopay(unfunded.loanId, terms(other), caller, db(), SETUP_DAY), "servicing");
    expect(notActive).toMatchObject({ status: 409, message: AUTOPAY_MESSAGES.notActive });
    expect(await db().select().from(autopayAuthorizations).where(eq(autopayAuthorizations.userId, owner.id))).toHaveLength(0);
  });

  it("two Set Up Autopay at once make one authorisation; the other is told autopay is already on", async () => {
    const loan = await newLoan();
    const results = await Promise.allSettled([0, 1, 2].map(() => setUpAutopay(loan.loanId, terms(loan), borrower(loan), db(), SETUP_DAY)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results) if (r.status === "rejected") expect((r.reason as Error).message).toBe(AUTOPAY_MESSAGES.alreadyOn);
    expect(await authorizations(loan.loanId)).toHaveLength(1);
  });

  it("the job queues the installment's WEB R debit on its queue day, once, as the contract says; two runs at once make one row", async () => {
    const loan = await newLoan();
    await setUpAutopay(loan.loanId, terms(loan), borrower(loan), db(), SETUP_DAY);
    await queueAutopayDebits(db(), "2026-12-07", at("2026-12-07"));
    expect(await autopayDebits(loan.loanId)).toHaveLength(0);
    await Promise.all([queueAutopayDebits(db(), "2026-12-08", at("2026-12-08")), queueAutopayDebits(db(), "2026-12-08", at("2026-12-08"))]);
    await queueAutopayDebits(db(), "2026-12-08", at("2026-12-08"));
    const debits = await autopayDebits(loan.loanId);
    expect(debits).toHaveLength(1);
    const [auth] = await authorizations(loan.loanId);
    expect(debits[0]).toMatchObject({
      status: "pending",
      method: "ach",
      source: "borrower",
      choice: "installment",
      paymentType: "R",
      autopayAuthorizationId: auth!.id,
      installmentNumber: 1,
      scheduledOn: "2026-12-18",
      bankAccountId: loan.bankAccountId,
      authorizationVersion: AUTOPAY_AUTHORIZATION_VERSION,
      authorizationIp: info.ip,
      amountCents: await paymentCents(loan.loanId),
    });
    expect(debits[0]!.reference).toMatch(/^AUTO-[A-Z2-9]{8}$/);
    expect(auth!.nextQueueOn).toBe("2027-01-10");
    // The amount is the regular payment the authorisation showed: no notice.
    expect(await mails(loan.owner.email, "autopay-amount")).toHaveLength(0);
  });

  it("a differing amount (a fee added) is told at least ten days ahead, once", async () => {
    const loan = await newLoan();
    await setUpAutopay(loan.loanId, terms(loan), borrower(loan), db(), SETUP_DAY);
    await db().insert(loanFees).values({ loanId: loan.loanId, kind: "late_fee", installmentNumber: 99, amountCents: 2500, assessedOn: "2026-12-02" });
    await queueAutopayDebits(db(), "2026-12-08", at("2026-12-08"));
    const [debit] = await autopayDebits(loan.loanId);
    expect(debit!.amountCents).toBe((await paymentCents(loan.loanId)) + 2500);
    const notices = await mails(loan.owner.email, "autopay-amount");
    expect(notices).toHaveLength(1);
    expect(notices[0]!.textBody).toContain(`Autopay will debit ${formatMoney(debit!.amountCents)}`);
    expect(notices[0]!.textBody).toContain("Dec 18, 2026");
  });

  it("a borrower paying by hand: a pending one-time debit skips the queueing; Make a Payment cancels an unsent autopay debit ('Paid by hand')", async () => {
    const skipped = await newLoan();
    await setUpAutopay(skipped.loanId, terms(skipped), borrower(skipped), db(), SETUP_DAY);
    await pendingDebit(db(), skipped, 5000);
    await queueAutopayDebits(db(), "2026-12-08", at("2026-12-08"));
    expect(await autopayDebits(skipped.loanId)).toHaveLength(0);

    const loan = await newLoan();
    await setUpAutopay(loan.loanId, terms(loan), borrower(loan), db(), SETUP_DAY);
    await queueAutopayDebits(db(), "2026-12-08", at("2026-12-08"));
    const [queued] = await autopayDebits(loan.loanId);
    const paid = await makePayment(loan.loanId, { choice: "installment", amountCents: null, bankAccountId: loan.bankAccountId }, borrower(loan), db(), "2026-12-09");
    expect(paid.replacedDebitIds).toEqual([queued!.id]);
    const [after] = await autopayDebits(loan.loanId);
    expect(after).toMatchObject({ status: "cancelled", cancelReason: "Paid by hand" });
    const pending = await db().select().from(loanPayments).where(and(eq(loanPayments.loanId, loan.loanId), eq(loanPayments.status, "pending")));
    expect(pending.map((p) => p.id)).toEqual([paid.paymentId]);
  });

  it("an installment paid by hand before its queue day gets no autopay debit: the job waits for the next one", async () => {
    const loan = await newLoan();
    await setUpAutopay(loan.loanId, terms(loan), borrower(loan), db(), SETUP_DAY);
    await recordPayment(loan.loanId, { amountCents: await paymentCents(loan.loanId), receivedOn: "2026-12-05", method: "check", reference: "CHK-HAND-1" }, { actor: admin, request: info }, db(), "2026-12-05");
    expect(await queueAutopayDebits(db(), "2026-12-08", at("2026-12-08"))).toBe(0);
    expect(await autopayDebits(loan.loanId)).toHaveLength(0);
    expect((await authorizations(loan.loanId))[0]!.nextQueueOn).toBe("2027-01-10");
  });

  it("a loan that takes no more debits ends its autopay (cancelled by the system) with its unsent debit", async () => {
    const loan = await newLoan();
    await setUpAutopay(loan.loanId, terms(loan), borrower(loan), db(), SETUP_DAY);
    await queueAutopayDebits(db(), "2026-12-08", at("2026-12-08"));
    await db().update(approvedLoans).set({ status: "closed" }).where(eq(approvedLoans.id, loan.loanId));
    await db().update(autopayAuthorizations).set({ nextQueueOn: "2026-12-09" }).where(eq(autopayAuthorizations.loanId, loan.loanId));
    await queueAutopayDebits(db(), "2026-12-09", at("2026-12-09"));
    expect((await authorizations(loan.loanId))[0]).toMatchObject({ status: "cancelled", endedBy: null, nextQueueOn: null, endReason: "The loan takes no more payments." });
    expect((await autopayDebits(loan.loanId))[0]).toMatchObject({ status: "cancelled" });
    const audits = await db().select().from(auditLog).where(and(eq(auditLog.action, "autopay.end"), eq(auditLog.recordId, (await authorizations(loan.loanId))[0]!.id)));
    expect(audits[0]!.actorId).toBeNull();
  });

  it("a payoff ends autopay at once: the queued debit is cancelled, the page shows Autopay Off, the borrower is told", async () => {
    const loan = await newLoan();
    await setUpAutopay(loan.loanId, terms(loan), borrower(loan), db(), SETUP_DAY);
    await queueAutopayDebits(db(), "2026-12-08", at("2026-12-08"));
    expect((await autopayDebits(loan.loanId))[0]).toMatchObject({ status: "pending" });
    const ledger = (await loadLedger(loan.loanId, db(), "2026-12-09"))!;
    const payoff = payoffQuote(ledger.terms, ledger.payments, ledger.fees, "2026-12-09").totalCents;
    const posted = await recordPayment(loan.loanId, { amountCents: payoff, receivedOn: "2026-12-09", method: "wire", reference: "WIRE-PAYOFF-1", confirmPendingDebit: true }, { actor: admin, request: info }, db(), "2026-12-09");
    expect(posted.paidInFull).toBe(true);
    const [auth] = await authorizations(loan.loanId);
    expect(auth).toMatchObject({ status: "cancelled", endedBy: null, nextQueueOn: null, endReason: "The loan is paid in full." });
    expect((await autopayDebits(loan.loanId))[0]).toMatchObject({ status: "cancelled" });
    expect((await mails(loan.owner.email, "autopay-cancelled"))[0]!.textBody).toContain("the loan is paid in full");
    const audits = await db().select().from(auditLog).where(and(eq(auditLog.action, "autopay.end"), eq(auditLog.recordId, auth!.id)));
    expect(audits).toHaveLength(1);
    const page = (await loadBorrowerLoan(loan.loanId, borrower(loan), db(), "2026-12-09"))!;
    expect(page.autopay).toMatchObject({ on: false, next: null });
    expect(page.upcomingDebits).toEqual([]);
    // The job's next run queues nothing more for this loan (other tests' loans share the database).
    await queueAutopayDebits(db(), "2027-01-10", at("2027-01-10"));
    expect(await autopayDebits(loan.loanId)).toHaveLength(1);
    expect((await authorizations(loan.loanId))[0]!.status).toBe("cancelled");
  });

  it("an account restricted after autopay was set up stops autopay at the job instead of queueing a debit", async () => {
    const loan = await newLoan();
    await setUpAutopay(loan.loanId, terms(loan), borrower(loan), db(), SETUP_DAY);
    await restrictAccount(db(), loan.bankAccountId, "blocked", "R10", null);
    expect(await queueAutopayDebits(db(), "2026-12-08", at("2026-12-08"))).toBe(0);
    expect(await autopayDebits(loan.loanId)).toHaveLength(0);
    expect((await authorizations(loan.loanId))[0]).toMatchObject({ status: "stopped", stopReturnCode: "R10", endedBy: null });
    expect((await mails(loan.owner.email, "autopay-cancelled"))[0]!.textBody).toContain("(R10)");
  });

  it("Make a Payment refuses a restricted account", async () => {
    const loan = await newLoan();
    await restrictAccount(db(), loan.bankAccountId, "blocked", "R10", null);
    const refusal = await appErrorOf(makePayment(loan.loanId, { choice: "installment", amountCents: null, bankAccountId: loan.bankAccountId }, borrower(loan), db(), SETUP_DAY), "servicing");
    expect(refusal.status).toBe(409);
    expect(refusal.message).toContain("blocked");
  });

  it("Cancel before the cutoff stops the queued debit; after it the debit still goes and the answer says so", async () => {
    const early = await newLoan();
    await setUpAutopay(early.loanId, terms(early), borrower(early), db(), SETUP_DAY);
    await queueAutopayDebits(db(), "2026-12-08", at("2026-12-08"));
    const stopped = await cancelAutopay(early.loanId, borrower(early), db(), "2026-12-15");
    expect(stopped.stopped).toHaveLength(1);
    expect((await autopayDebits(early.loanId))[0]).toMatchObject({ status: "cancelled", cancelReason: "Autopay cancelled" });
    expect((await authorizations(early.loanId))[0]).toMatchObject({ status: "cancelled", endedBy: early.owner.id, nextQueueOn: null });
    expect((await mails(early.owner.email, "autopay-cancelled"))[0]!.textBody).toContain("is cancelled and will not be made");

    const late = await newLoan();
    await setUpAutopay(late.loanId, terms(late), borrower(late), db(), SETUP_DAY);
    await queueAutopayDebits(db(), "2026-12-08", at("2026-12-08"));
    const going = await cancelAutopay(late.loanId, borrower(late), db(), "2026-12-16");
    expect(going.stopped).toHaveLength(0);
    expect(going.notes).toEqual([`The debit of ${formatMoney(await paymentCents(late.loanId))} on Dec 18, 2026 from Checking ••••6789 will still be made.`]);
    expect((await autopayDebits(late.loanId))[0]!.status).toBe("pending");
    expect(await appErrorOf(cancelAutopay(late.loanId, borrower(late), db(), "2026-12-16"), "servicing")).toMatchObject({ status: 409, message: AUTOPAY_MESSAGES.notOn });
  });

  it("Change replaces the authorisation and re-makes the stoppable queued debit under it; the answer goes through the loan page's action", async () => {
    const loan = await newLoan();
    await setUpAutopay(loan.loanId, terms(loan), borrower(loan), db(), SETUP_DAY);
    await queueAutopayDebits(db(), "2026-12-08", at("2026-12-08"));
    const fixed = (await paymentCents(loan.loanId)) + 10_000;
    const result = await changeAutopay(loan.loanId, terms(loan, { amountKind: "fixed", fixedAmountCents: fixed, daysBeforeDue: 2 }), borrower(loan), db(), "2026-12-09");
    const rows = await authorizations(loan.loanId);
    expect(rows.map((r) => r.status).sort()).toEqual(["active", "replaced"]);
    const active = rows.find((r) => r.status === "active")!;
    // Installment 2 is due Wednesday 2027-01-20; two days before is Monday 01-18, Martin Luther King Jr.
    // Day, so the debit is Friday 01-15 and is queued ten days before, on 01-05.
    expect(active).toMatchObject({ amountKind: "fixed", fixedAmountCents: fixed, daysBeforeDue: 2, nextQueueOn: "2027-01-05" });
    const [debit] = await autopayDebits(loan.loanId);
    // Due Sunday 12-20, two days before is Friday 12-18: a banking day.
    expect(debit).toMatchObject({ status: "pending", amountCents: fixed, autopayAuthorizationId: active.id, scheduledOn: "2026-12-18", choice: "amount" });
    expect(result.notes[0]).toContain(formatMoney(fixed));

    const form = new URLSearchParams({ intent: "cancel-autopay" });
    const request = new Request(`https://loans.example.com/dashboard/loans/${loan.loanId}`, { method: "POST", body: form, headers: { "content-type": "application/x-www-form-urlencoded" } });
    const answer = await borrowerLoanAction(request, loan.loanId, borrower(loan), db());
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ ok: true, intent: "cancel-autopay" });
  });

  it("Cancel Autopay while the job queues: exactly one outcome (queued then cancelled with notice, or never queued)", async () => {
    for (let k = 0; k < 3; k++) {
      const loan = await newLoan();
      await setUpAutopay(loan.loanId, terms(loan), borrower(loan), db(), SETUP_DAY);
      await Promise.all([queueAutopayDebits(db(), "2026-12-08", at("2026-12-08")), cancelAutopay(loan.loanId, borrower(loan), db(), "2026-12-08")]);
      const debits = await autopayDebits(loan.loanId);
      expect(debits.filter((d) => d.status === "pending")).toHaveLength(0);
      const [mail] = await mails(loan.owner.email, "autopay-cancelled");
      if (debits.length === 1) expect(mail!.textBody).toContain("is cancelled and will not be made");
      else expect(debits).toHaveLength(0);
    }
  });

  it("the reminder tells the autopay debit instead of asking for a payment", async () => {
    const loan = await newLoan();
    await setUpAutopay(loan.loanId, terms(loan), borrower(loan), db(), SETUP_DAY);
    await runServicingJobs(db(), at("2026-12-15"));
    const [reminder] = await mails(loan.owner.email, "payment-reminder");
    expect(reminder!.textBody).toContain(`Autopay will debit ${formatMoney(await paymentCents(loan.loanId))} on Dec 18, 2026 from Checking ••••6789.`);
    expect((await autopayDebits(loan.loanId))[0]?.scheduledOn).toBe("2026-12-18");
  });

  it("the loan page shows Autopay On with the next debit, and the upcoming debits by kind", async () => {
    const loan = await newLoan();
    const off = (await loadBorrowerLoan(loan.loanId, borrower(loan), db(), SETUP_DAY))!;
    expect(off.autopay).toMatchObject({ available: true, on: false, usableAccountIds: expect.arrayContaining([loan.bankAccountId]) });
    await setUpAutopay(loan.loanId, terms(loan), borrower(loan), db(), SETUP_DAY);
    const planned = (await loadBorrowerLoan(loan.loanId, borrower(loan), db(), SETUP_DAY))!;
    expect(planned.autopay.next).toEqual({ on: "2026-12-18", amountCents: await paymentCents(loan.loanId), account: "Checking ••••6789", queued: false, stillGoes: false });
    await queueAutopayDebits(db(), "2026-12-08", at("2026-12-08"));
    const late = (await loadBorrowerLoan(loan.loanId, borrower(loan), db(), "2026-12-16"))!;
    expect(late.autopay.next).toMatchObject({ queued: true, stillGoes: true });
    expect(late.upcomingDebits).toEqual([expect.objectContaining({ on: "2026-12-18", kind: "autopay", account: "Checking ••••6789" })]);
    // A queued autopay debit not yet in a file does not hold Make a Payment back: paying replaces it.
    expect(late.pendingPayment).toBe(false);
  });

  it("the ACH file carries the debit as a WEB R entry only when effective on its day", async () => {
    await clearPending();
    const loan = await newLoan();
    await setUpAutopay(loan.loanId, terms(loan), borrower(loan), db(), SETUP_DAY);
    await queueAutopayDebits(db(), "2026-12-08", at("2026-12-08"));
    const early = await createAchBatch({ actor: admin, request: info }, db(), at("2026-12-16"));
    const [waiting] = await autopayDebits(loan.loanId);
    expect(waiting!.achBatchId).toBeNull();
    if (!early.ok) expect(early.skipped.length).toBeGreaterThan(0);
    else expect(early.effectiveDate < "2026-12-18").toBe(true);

    const batch = await createAchBatch({ actor: admin, request: info }, db(), at("2026-12-17"));
    expect(batch.ok).toBe(true);
    if (!batch.ok) return;
    expect(batch.effectiveDate).toBe("2026-12-18");
    const file = await downloadAchBatch(batch.batchId, { actor: admin, request: info }, db());
    const parsed = checkNachaFile(file!.content);
    const web = parsed.batches.filter((b) => b.entryClassCode === "WEB");
    const entries = web.flatMap((b) => b.entries);
    const [sent] = await autopayDebits(loan.loanId);
    const entry = entries.find((e) => String(e.traceNumber).padStart(15, "0") === sent!.achTraceNumber);
    expect(entry).toBeDefined();
    expect(entry!.paymentTypeCode).toBe("R");
    expect(entry!.amount).toBe(sent!.amountCents);
    expect(web.every((b) => b.effectiveDate.replace(/-/g, "").endsWith("261218"))).toBe(true);
  });
});
