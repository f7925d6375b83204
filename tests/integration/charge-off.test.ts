import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { SCRA_RATE_CAP_MILLI } from "~/domain/loan-modifications";
import { parseServicingTerms, servicingTermsFrom } from "~/domain/servicing-terms";
import { addDays } from "~/domain/dates";
import type { AuditActor } from "~/server/platform/audit/audit.server";
import {
  applicationEvents,
  approvedLoans,
  auditLog,
  autopayAuthorizations,
  chargeOffRequests,
  emailOutbox,
  loanApplications,
  loanFees,
  loanPayments,
  loanProtections,
  servicingNotices,
} from "~/server/platform/db/schema.server";
import { approveChargeOff, chargeOffAction, chargeOffLoan, rejectChargeOff, settleLoan } from "~/server/loans/charge-off.server";
import { loadLedger } from "~/server/loans/ledger.server";
import { activeProtections, endProtection, protectionAction, recordProtection } from "~/server/loans/loan-protections.server";
import { recordPayment, settlePayment } from "~/server/loans/payments.server";
import { runServicingJobs } from "~/server/loans/servicing-jobs.server";
import { exportLoanTape, loadStaffLoan } from "~/server/loans/staff-loans.server";
import { makePayment } from "~/server/loans/borrower-payments.server";
import { applicationRow } from "../helpers/application-rows";
import { appErrorOf } from "../helpers/rejection";
import { seedApplicant, seedStaff } from "../helpers/seed";
import { activeLoan, pendingDebit, servicingAdmin } from "../helpers/servicing-loans";
import { setUpTestConfig } from "../helpers/temp-config";
import { testTargets, useTestDatabase } from "../helpers/test-db";

/**
 * Charge-off, recovery, settlement and protected borrowers against PGlite and, with TEST_DATABASE_URL,
 * PostgreSQL (the races): the SCRA cap to the cent against a hand computation, ending service; a
 * bankruptcy stopping autopay, debits and notices; charge-off below and at/above the four-eyes threshold
 * (the proposer cannot approve); charge-off and a payment at once; recoveries; settlement's forgiven
 * amount, once; the loan tape's columns.
 */

const dataDir = setUpTestConfig("charge-off", { APP_SECRET: "c".repeat(48), PUBLIC_URL: "https://loans.example.com", FOUR_EYES_THRESHOLD: "10000" });

const TODAY = "2026-06-15";
const info = { ip: "203.0.113.61", userAgent: "vitest-charge-off" };

describe.each(testTargets)("charge-off and protections on %s", (target) => {
  const database = useTestDatabase({ target, global: true });
  const db = () => database().db;
  let admin: AuditActor;
  let second: AuditActor;
  let n = 0;
  const caller = (actor: AuditActor) => ({ actor, request: info });

  beforeAll(async () => {
    admin = await servicingAdmin(db(), `co-admin-${target}`);
    const other = await seedStaff(db(), { id: `co-second-${target}`, name: "Otto Other", email: `co-second-${target}@example.com`, role: "admin" });
    second = { id: other.id, name: other.name, email: `co-second-${target}@example.com` };
  });

  /** A loan of `amountCents` at `rateMilli` for 12 months from 2026-01-10 (interest from that day), no payments: 156 days on TODAY, five installments late. */
  async function newLoan({ amountCents = 1_200_000, rateMilli = 9500, paymentCents = 105_224 }: { amountCents?: number; rateMilli?: number; paymentCents?: number } = {}) {
    n += 1;
    const userId = `co-borrower-${target}-${n}-${randomUUID().slice(0, 6)}`;
    const email = `co${n}.${userId.slice(-6)}@example.com`;
    await seedApplicant(db(), { id: userId, name: "Dana Whitfield", email, profile: true });
    const [app] = await db().insert(loanApplications).values(applicationRow(userId, { email })).returning({ id: loanApplications.id });
    const [loan] = await db()
      .insert(approvedLoans)
      .values({
        userId,
        applicationId: app!.id,
        obligorName: "Dana Whitfield",
        status: "active",
        balanceCents: amountCents,
        termMonths: 12,
        amountCents,
        noteRateMilli: rateMilli,
        paymentCents,
        startDate: "2026-01-10",
        nextDueDate: "2026-02-10",
        maturityDate: "2027-01-10",
        // No late fee, so the interest below is the whole of what is owed besides principal.
        servicingTerms: servicingTermsFrom({ graceDays: 0, flatCents: 0, percentMilli: 0, capCents: 0 }),
      })
      .returning();
    return { loan: loan!, email };
  }
  const loanRow = async (id: string) => (await db().select().from(approvedLoans).where(eq(approvedLoans.id, id)))[0]!;
  const ledger = async (id: string, day = TODAY) => (await loadLedger(id, db(), day))!;
  const refused = (promise: Promise<unknown>, code = "charge_off") => appErrorOf(promise, code);

  describe("protected borrowers", () => {
    it("a servicemember's 6 % cap is applied back to the start of service, to the cent, and ending service ends it", async () => {
      const { loan } = await newLoan();
      // By hand (actual/365, thousandths of a percent, rounded half-up once): 12,000.00 from 2026-01-10 to
      // 2026-06-15 is 156 days. Without the cap: 1,200,000 × 9,500 × 156 / 36,500,000 = 48,723.29 → $487.23.
      // Service from 2026-03-01: 50 days at 9.5 % and 106 at 6 %:
      // (1,200,000 × 9,500 × 50 + 1,200,000 × 6,000 × 106) / 36,500,000 = 36,526.03 → $365.26.
      expect((await ledger(loan.id)).state.interestAccruedCents).toBe(48_723);
      const result = await recordProtection(loan.id, { kind: "servicemember", startsOn: "2026-03-01", reference: "Orders 26-0412", note: undefined, endsOn: undefined }, caller(admin), db(), TODAY);
      expect(result).toMatchObject({ capAdded: true, interestRemovedCents: 48_723 - 36_526 });
      expect((await ledger(loan.id)).state.interestAccruedCents).toBe(36_526);
      expect((await loanRow(loan.id)).rateCaps).toEqual([{ from: "2026-03-01", through: null, rateMilli: SCRA_RATE_CAP_MILLI }]);
      const active = await activeProtections([loan.id], db(), TODAY);
      expect(active.get(loan.id)?.servicemember?.reference).toBe("Orders 26-0412");
      const page = await loadStaffLoan(loan.id, caller(admin), db(), TODAY);
      expect(page).not.toBeNull();
      const [audit] = await db().select().from(auditLog).where(and(eq(auditLog.action, "loan.protection_record"), eq(auditLog.recordId, result.protectionId)));
      expect(audit!.details).toMatchObject({ loanId: loan.id, kind: "servicemember", capAdded: true, interestRemovedCents: 12_197 });

      // Service ended 2026-05-31: from 2026-06-01 the note rate again (15 days at 9.5 %).
      await endProtection(loan.id, { protectionId: result.protectionId, endsOn: "2026-05-31" }, caller(admin), db(), TODAY);
      expect((await loanRow(loan.id)).rateCaps).toEqual([{ from: "2026-03-01", through: "2026-05-31", rateMilli: SCRA_RATE_CAP_MILLI }]);
      // (1,200,000 × 9,500 × 50 + 1,200,000 × 6,000 × 92 + 1,200,000 × 9,500 × 14) / 36,500,000 = 38,137.64 → $381.38
      // (2026-03-01 … 2026-05-31 is 92 days; 2026-06-01 … 2026-06-14 is 14 days accrued to the 15th.)
      expect((await ledger(loan.id)).state.interestAccruedCents).toBe(Math.round((1_200_000 * 9_500 * 50 + 1_200_000 * 6_000 * 92 + 1_200_000 * 9_500 * 14) / 36_500_000));
      expect((await activeProtections([loan.id], db(), TODAY)).has(loan.id)).toBe(false);
      expect(await refused(endProtection(loan.id, { protectionId: result.protectionId, endsOn: "2026-06-01" }, caller(admin), db(), TODAY), "protection")).toMatchObject({ status: 409 });
    });

    it("a loan at or below 6 % gets no cap; a second active protection of a kind is refused", async () => {
      const { loan } = await newLoan({ rateMilli: 5_000 });
      const result = await recordProtection(loan.id, { kind: "servicemember", startsOn: "2026-03-01", reference: "Orders", note: undefined, endsOn: undefined }, caller(admin), db(), TODAY);
      expect(result.capAdded).toBe(false);
      expect((await loanRow(loan.id)).rateCaps).toEqual([]);
      const again = await refused(recordProtection(loan.id, { kind: "servicemember", startsOn: "2026-04-01", reference: "Orders 2", note: undefined, endsOn: undefined }, caller(admin), db(), TODAY), "protection");
      expect(again.status).toBe(409);
    });

    it("a bankruptcy filing stops autopay and unsent debits at once, and the servicing job sends no reminder or late notice", async () => {
      const loan = await activeLoan(db(), dataDir, admin, { signedAt: new Date(Date.now() - 100 * 86_400_000) });
      const debit = await pendingDebit(db(), loan, 10_000);
      const [auth] = await db()
        .insert(autopayAuthorizations)
        .values({ loanId: loan.loanId, userId: loan.owner.id, bankAccountId: loan.bankAccountId, amountKind: "installment", daysBeforeDue: 0, textVersion: "test-1" })
        .returning();
      const today = new Date().toISOString().slice(0, 10);
      const result = await recordProtection(loan.loanId, { kind: "bankruptcy", startsOn: today, reference: "Case 26-10001, Bankr. S.D.N.Y.", note: undefined, endsOn: undefined }, caller(admin), db(), today);
      expect(result).toMatchObject({ autopayStopped: true, debitsCancelled: 1 });
      expect((await db().select().from(autopayAuthorizations).where(eq(autopayAuthorizations.id, auth!.id)))[0]).toMatchObject({ status: "stopped", endedBy: admin.id });
      expect((await db().select().from(loanPayments).where(eq(loanPayments.id, debit)))[0]).toMatchObject({ status: "cancelled", cancelledBy: admin.id });
      const page = (await loadStaffLoan(loan.loanId, caller(admin), db(), today))!;
      expect(page).not.toBeNull();

      await runServicingJobs(db(), new Date());
      const notices = await db().select().from(servicingNotices).where(eq(servicingNotices.loanId, loan.loanId));
      expect(notices).toEqual([]);
      const mails = await db().select().from(emailOutbox).where(and(eq(emailOutbox.toAddress, loan.owner.email), eq(emailOutbox.template, "late-notice")));
      expect(mails).toEqual([]);

      // Dismissed: audited, and the stay is over (the next run sends the late notices).
      const [row] = await db().select().from(loanProtections).where(eq(loanProtections.loanId, loan.loanId));
      expect(await refused(endProtection(loan.loanId, { protectionId: row!.id, endsOn: today }, caller(admin), db(), today), "protection")).toMatchObject({ status: 400 });
      await endProtection(loan.loanId, { protectionId: row!.id, endsOn: today, outcome: "dismissed" }, caller(admin), db(), today);
      const [ended] = await db().select().from(auditLog).where(and(eq(auditLog.action, "loan.protection_end"), eq(auditLog.recordId, row!.id)));
      expect(ended!.details).toMatchObject({ kind: "bankruptcy", outcome: "dismissed" });
      await db().update(approvedLoans).set({ servicedOn: null }).where(eq(approvedLoans.id, loan.loanId));
      await runServicingJobs(db(), new Date());
      expect((await db().select().from(servicingNotices).where(eq(servicingNotices.loanId, loan.loanId))).length).toBeGreaterThan(0);
    });

    it("no late fee is assessed on a day a bankruptcy stay covers, during the stay or after it ended; fee days after the stay get theirs", async () => {
      const now = new Date();
      const today = now.toISOString().slice(0, 10);
      const loan = await activeLoan(db(), dataDir, admin, { signedAt: new Date(now.getTime() - 200 * 86_400_000) });
      const { terms } = await ledger(loan.loanId, today);
      const policy = parseServicingTerms((await loanRow(loan.loanId)).servicingTerms).lateFee!;
      const feeDays = (await ledger(loan.loanId, today)).state.installments
        .filter((i) => !i.paid)
        .map((i) => ({ number: i.number, on: addDays(i.dueDate, policy.graceDays + 1) }))
        .filter((f) => f.on <= today);
      // The stay: from before the first fee day to a day between the fee days, recorded before any run.
      const stayEnds = feeDays[Math.floor(feeDays.length / 2)]!.on;
      const within = feeDays.filter((f) => f.on <= stayEnds);
      const after = feeDays.filter((f) => f.on > stayEnds);
      expect(within.length).toBeGreaterThan(0);
      expect(after.length).toBeGreaterThan(0);
      await db().insert(loanProtections).values({ loanId: loan.loanId, kind: "bankruptcy", startsOn: terms.startDate, reference: "Case 26-10002, Bankr. D.N.J.", recordedBy: admin.id });
      await runServicingJobs(db(), now);
      const fees = () => db().select().from(loanFees).where(eq(loanFees.loanId, loan.loanId));
      expect(await fees()).toEqual([]);

      // Discharged on stayEnds: the fee days after it get their fee on the next run; those it covered never do.
      const [row] = await db().select().from(loanProtections).where(eq(loanProtections.loanId, loan.loanId));
      await endProtection(loan.loanId, { protectionId: row!.id, endsOn: stayEnds, outcome: "discharged" }, caller(admin), db(), today);
      await db().update(approvedLoans).set({ servicedOn: null }).where(eq(approvedLoans.id, loan.loanId));
      await runServicingJobs(db(), now);
      const assessed = await fees();
      expect(assessed.map((f) => f.installmentNumber).sort((a, b) => a! - b!)).toEqual(after.map((f) => f.number));
      expect(assessed.every((f) => f.assessedOn > stayEnds)).toBe(true);
    });

    it("a stay recorded after fees were assessed waives those its filing day covers (audited, out of the ledger, never charged again); earlier fees stay", async () => {
      const now = new Date();
      const today = now.toISOString().slice(0, 10);
      const loan = await activeLoan(db(), dataDir, admin, { signedAt: new Date(now.getTime() - 200 * 86_400_000) });
      await runServicingJobs(db(), now);
      const fees = () => db().select().from(loanFees).where(eq(loanFees.loanId, loan.loanId)).orderBy(loanFees.assessedOn);
      const assessed = await fees();
      expect(assessed.length).toBeGreaterThan(1);
      const before = (await ledger(loan.loanId, today)).state;
      // Filed the day after the first fee: that one stays owed, the later ones were never owed.
      const filedOn = addDays(assessed[0]!.assessedOn, 1);
      const covered = assessed.filter((f) => f.assessedOn >= filedOn);
      const coveredCents = covered.reduce((sum, f) => sum + f.amountCents, 0);
      const result = await recordProtection(loan.loanId, { kind: "bankruptcy", startsOn: filedOn, reference: "Case 26-10003, Bankr. E.D.N.Y.", note: undefined, endsOn: undefined }, caller(admin), db(), today);
      expect(result.feesWaivedCents).toBe(coveredCents);
      const after = await fees();
      expect(after.filter((f) => f.waivedAt !== null).map((f) => f.id)).toEqual(covered.map((f) => f.id));
      expect(after.find((f) => f.id === assessed[0]!.id)!.waivedAt).toBeNull();
      const state = (await ledger(loan.loanId, today)).state;
      expect(state.feesDueCents).toBe(before.feesDueCents - coveredCents);
      const audits = await db().select().from(auditLog).where(eq(auditLog.action, "fee.waive"));
      expect(audits.filter((a) => (a.details as { loanId?: string }).loanId === loan.loanId).map((a) => a.recordId).sort()).toEqual(covered.map((f) => f.id).sort());
      // The next run charges none of them again.
      await db().update(approvedLoans).set({ servicedOn: null }).where(eq(approvedLoans.id, loan.loanId));
      await runServicingJobs(db(), now);
      expect((await fees()).length).toBe(assessed.length);
      expect((await ledger(loan.loanId, today)).state.feesDueCents).toBe(state.feesDueCents);
    });

    it("the action answers 400 for bad input and 404 for another loan's protection", async () => {
      const { loan } = await newLoan();
      const post = (fields: Record<string, string>, id: string | null = loan.id) =>
        protectionAction(new Request("http://localhost/x", { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields) }), id, caller(admin), db(), TODAY);
      expect((await post({ intent: "record-protection", kind: "servicemember", startsOn: "2026-13-01", reference: "x" })).status).toBe(400);
      expect((await post({ intent: "record-protection", kind: "alien", startsOn: "2026-03-01", reference: "x" })).status).toBe(400);
      expect((await post({ intent: "record-protection", kind: "bankruptcy", startsOn: "2026-07-01", reference: "x" })).status).toBe(400);
      expect((await post({ intent: "toString" })).status).toBe(400);
      expect((await post({ intent: "end-protection", protectionId: randomUUID(), endsOn: "2026-06-01" })).status).toBe(404);
    });
  });

  describe("charge-off", () => {
    it("below the threshold: at once, with what the ledger owed, autopay and debits stopped, audited, on the timeline; a second is refused", async () => {
      const { loan } = await newLoan({ amountCents: 500_000, paymentCents: 43_845 });
      const owedBefore = (await ledger(loan.id)).state;
      const result = await chargeOffLoan(loan.id, "Borrower unreachable for 120 days", caller(admin), db(), TODAY);
      expect(result.status).toBe("charged_off");
      expect(result.amountCents).toBe(owedBefore.principalCents + owedBefore.interestAccruedCents + owedBefore.feesDueCents);
      const row = await loanRow(loan.id);
      expect(row).toMatchObject({ status: "charged_off", chargedOffOn: TODAY, chargedOffCents: result.amountCents, chargedOffBy: admin.id, chargeOffReason: "Borrower unreachable for 120 days", nextDueDate: null });
      // No interest after it.
      const later = (await ledger(loan.id, "2026-09-15")).state;
      expect(later.interestAccruedCents).toBe(owedBefore.interestAccruedCents);
      expect(later.status).toBe("charged_off");
      const [audit] = await db().select().from(auditLog).where(and(eq(auditLog.action, "loan.charge_off"), eq(auditLog.recordId, loan.id)));
      expect(audit!.details).toMatchObject({ amountCents: result.amountCents });
      const events = await db().select().from(applicationEvents).where(and(eq(applicationEvents.applicationId, loan.applicationId), eq(applicationEvents.kind, "loan_charged_off")));
      expect(events).toHaveLength(1);
      expect(await refused(chargeOffLoan(loan.id, "again", caller(admin), db(), TODAY))).toMatchObject({ status: 409 });
      const page = (await loadStaffLoan(loan.id, caller(admin), db(), TODAY))!;
      expect(page.loan.statusLabel).toBe("Charged Off");
      expect(page.ledger.find((l) => l.kind === "charge_off")).toMatchObject({ date: TODAY, amounts: { totalCents: result.amountCents } });
    });

    it("a current loan cannot be charged off", async () => {
      const { loan } = await newLoan({ amountCents: 500_000, paymentCents: 43_845 });
      expect(await refused(chargeOffLoan(loan.id, "too early", caller(admin), db(), "2026-02-01"))).toMatchObject({ status: 409 });
    });

    it("at or above the threshold it waits for another admin: the proposer cannot approve, one pending at a time, reject leaves the loan active", async () => {
      const { loan } = await newLoan();
      const proposed = await chargeOffLoan(loan.id, "Deceased, no estate", caller(admin), db(), TODAY);
      expect(proposed.status).toBe("awaiting_approval");
      expect((await loanRow(loan.id)).status).toBe("active");
      const [request] = await db().select().from(chargeOffRequests).where(eq(chargeOffRequests.loanId, loan.id));
      expect(request).toMatchObject({ status: "pending", requestedBy: admin.id, amountCents: proposed.amountCents });
      expect(await refused(chargeOffLoan(loan.id, "again", caller(second), db(), TODAY))).toMatchObject({ status: 409 });
      expect(await refused(approveChargeOff(loan.id, request!.id, caller(admin), db(), TODAY))).toMatchObject({ status: 403 });
      await rejectChargeOff(loan.id, request!.id, caller(second), db());
      expect((await loanRow(loan.id)).status).toBe("active");
      expect(await refused(approveChargeOff(loan.id, request!.id, caller(second), db(), TODAY))).toMatchObject({ status: 409 });

      await chargeOffLoan(loan.id, "Deceased, no estate", caller(admin), db(), TODAY);
      const [open] = await db().select().from(chargeOffRequests).where(and(eq(chargeOffRequests.loanId, loan.id), eq(chargeOffRequests.status, "pending")));
      const approved = await approveChargeOff(loan.id, open!.id, caller(second), db(), TODAY);
      expect(approved.status).toBe("charged_off");
      expect(await loanRow(loan.id)).toMatchObject({ status: "charged_off", chargedOffBy: second.id, chargeOffReason: "Deceased, no estate" });
      expect((await db().select().from(chargeOffRequests).where(eq(chargeOffRequests.id, open!.id)))[0]).toMatchObject({ status: "approved", decidedBy: second.id });
    });

    it("charge-off and a payment at once leave one consistent ledger: the payment is in the charged-off amount or a recovery", async () => {
      for (let i = 0; i < 3; i++) {
        const { loan } = await newLoan({ amountCents: 500_000, paymentCents: 43_845 });
        const before = (await ledger(loan.id)).state;
        const owed = before.principalCents + before.interestAccruedCents + before.feesDueCents;
        await Promise.all([
          chargeOffLoan(loan.id, "Race", caller(admin), db(), TODAY),
          recordPayment(loan.id, { amountCents: 20_000, receivedOn: TODAY, method: "check", reference: `RACE-${i}` }, caller(admin), db(), TODAY),
        ]);
        const row = await loanRow(loan.id);
        const [payment] = await db().select().from(loanPayments).where(and(eq(loanPayments.loanId, loan.id), eq(loanPayments.reference, `RACE-${i}`)));
        const state = (await ledger(loan.id)).state;
        expect(row.status).toBe("charged_off");
        if (payment!.recovery) {
          expect(row.chargedOffCents).toBe(owed);
          expect(state.recoveredCents).toBe(20_000);
        } else {
          expect(row.chargedOffCents).toBe(owed - 20_000);
          expect(state.recoveredCents).toBe(0);
        }
        expect(state.chargedOff!.totalCents).toBe(row.chargedOffCents);
        expect(state.principalCents + state.interestAccruedCents + state.feesDueCents).toBe(owed - 20_000);
      }
    });

    it("payments after a charge-off post as recoveries (staff and a settling debit) and show in the ledger after the Charge-off line", async () => {
      const loan = await activeLoan(db(), dataDir, admin, { signedAt: new Date(Date.now() - 100 * 86_400_000), amount: 5_000 });
      const today = new Date().toISOString().slice(0, 10);
      const debit = await pendingDebit(db(), loan, 5_000);
      await chargeOffLoan(loan.loanId, "Skip", caller(admin), db(), today);
      // The unsent debit was cancelled by the charge-off.
      expect((await db().select().from(loanPayments).where(eq(loanPayments.id, debit)))[0]!.status).toBe("cancelled");
      const posted = await recordPayment(loan.loanId, { amountCents: 7_500, receivedOn: today, method: "check", reference: "REC-1" }, caller(admin), db(), today);
      expect((await db().select().from(loanPayments).where(eq(loanPayments.id, posted.paymentId)))[0]!.recovery).toBe(true);
      const state = (await ledger(loan.loanId, today)).state;
      expect(state.recoveredCents).toBe(7_500);
      const page = (await loadStaffLoan(loan.loanId, caller(admin), db(), today))!;
      const kinds = page.ledger.map((l) => (l.kind === "payment" ? `payment:${l.allocation?.recovery ? "recovery" : l.payment.status}` : l.kind));
      expect(kinds.indexOf("charge_off")).toBeLessThan(kinds.indexOf("payment:recovery"));
      // A borrower's payment on a charged-off loan is still possible; it becomes a recovery when it settles.
      const made = await makePayment(loan.loanId, { choice: "amount", amountCents: 2_500, bankAccountId: loan.bankAccountId }, { actor: { ...loan.owner, isStaff: false }, request: info }, db(), today);
      await settlePayment(made.paymentId, today, caller(admin), db(), today);
      expect((await db().select().from(loanPayments).where(eq(loanPayments.id, made.paymentId)))[0]).toMatchObject({ status: "posted", recovery: true });
      expect((await ledger(loan.loanId, today)).state.recoveredCents).toBe(10_000);
    });
  });

  describe("settlement", () => {
    it("posts the agreed amount, forgives the rest (the ledger's amount), closes the loan as Settled, once; the loan tape reports it", async () => {
      const { loan } = await newLoan({ amountCents: 500_000, paymentCents: 43_845 });
      await chargeOffLoan(loan.id, "Unemployed", caller(admin), db(), "2026-06-01");
      const owed = (await ledger(loan.id)).state;
      const total = owed.principalCents + owed.interestAccruedCents + owed.feesDueCents;
      expect(await refused(settleLoan(loan.id, { amount: total, receivedOn: TODAY, method: "wire", reference: "SET-FULL" }, caller(admin), db(), TODAY))).toMatchObject({ status: 409 });
      const settle = () => settleLoan(loan.id, { amount: 200_000, receivedOn: TODAY, method: "wire", reference: "SET-1" }, caller(admin), db(), TODAY);
      const [a, b] = await Promise.allSettled([settle(), settle()]);
      const done = [a, b].filter((r) => r.status === "fulfilled");
      expect(done).toHaveLength(1);
      const result = (done[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof settle>>>).value;
      expect(result.forgivenCents).toBe(total - 200_000);
      const row = await loanRow(loan.id);
      expect(row).toMatchObject({ status: "settled", settledOn: TODAY, forgivenCents: total - 200_000, settledBy: admin.id });
      expect(await db().select().from(loanPayments).where(and(eq(loanPayments.loanId, loan.id), eq(loanPayments.status, "posted")))).toHaveLength(1);
      const state = (await ledger(loan.id)).state;
      expect(state).toMatchObject({ status: "settled", principalCents: 0, interestAccruedCents: 0, feesDueCents: 0, forgivenCents: total - 200_000, recoveredCents: 200_000 });
      // A settled loan takes no payment.
      expect(await refused(recordPayment(loan.id, { amountCents: 100, receivedOn: TODAY, method: "check", reference: "AFTER" }, caller(admin), db(), TODAY), "servicing")).toMatchObject({ status: 409 });
      const events = await db().select().from(applicationEvents).where(and(eq(applicationEvents.applicationId, loan.applicationId), eq(applicationEvents.kind, "loan_settled")));
      expect(events).toHaveLength(1);
      const page = (await loadStaffLoan(loan.id, caller(admin), db(), TODAY))!;
      expect(page.loan.statusLabel).toBe("Settled");
      expect(page.ledger.at(-1)).toMatchObject({ kind: "settlement", forgivenCents: total - 200_000, principalAfterCents: 0 });

      const tape = await exportLoanTape(caller(admin), db(), TODAY);
      const line = tape.csv.split("\r\n").find((l) => l.includes(loan.id))!;
      const money = (c: number) => `${Math.floor(c / 100)}.${String(c % 100).padStart(2, "0")}`;
      expect(line).toContain(`"2026-06-01","${money(row.chargedOffCents!)}","${money(200_000)}","${TODAY}","${money(total - 200_000)}"`);
      expect(line).toContain('"Settled"');
    });

    it("the action: unknown intent 400, bad amount 400 naming the field, approval of an unknown request 404", async () => {
      const { loan } = await newLoan({ amountCents: 500_000, paymentCents: 43_845 });
      const post = (fields: Record<string, string>) =>
        chargeOffAction(new Request("http://localhost/x", { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields) }), loan.id, caller(admin), db(), TODAY);
      expect((await post({ intent: "constructor" })).status).toBe(400);
      const bad = await post({ intent: "settle", amount: "abc", receivedOn: TODAY, method: "wire", reference: "X" });
      expect(bad.status).toBe(400);
      expect(bad.body.fieldErrors?.amount).toBeTruthy();
      expect((await post({ intent: "charge-off", reason: "" })).status).toBe(400);
      expect((await post({ intent: "approve-charge-off", requestId: randomUUID() })).status).toBe(404);
      expect((await post({ intent: "charge-off", reason: "Fraud confirmed" })).status).toBe(200);
    });
  });
});
