import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { payoffQuote, replayLedger } from "~/domain/loan-servicing";
import { recordPaymentSchema } from "~/domain/validation/loan-payments";
import type { AuditActor } from "~/server/platform/audit/audit.server";
import { approvedLoans, auditLog, emailOutbox, loanApplications, loanFees, loanPayments } from "~/server/platform/db/schema.server";
import { ledgerRows, loadLedger, termsOf } from "~/server/loans/ledger.server";
import { recordPayment, reversePayment, SERVICING_MESSAGES } from "~/server/loans/payments.server";
import { csvCell, exportLoanTape, listLoans, loadStaffLoan, loanPageAction, parseLoansUrl } from "~/server/loans/staff-loans.server";
import { loanReference } from "~/server/loans/loan-reference.server";
import { applicationRow } from "../helpers/application-rows";
import { setUpTestConfig } from "../helpers/temp-config";
import { useTestDatabase } from "../helpers/test-db";
import { appErrorOf } from "../helpers/rejection";
import { isAppError } from "~/server/platform/http/app-error.server";
import { seedApplicant, seedStaff } from "../helpers/seed";

/**
 * The staff side of servicing (issue 21) against PGlite: the loan list's filters and search, Record
 * Payment's allocation (as the pure ledger replays it), a reference posted once (also two at once),
 * Reverse Payment re-allocating to exactly the state without it, paid in full closing the loan (and a
 * reversal reopening it), the loan tape CSV (content, formula-safe cells) and the audit rows.
 */

setUpTestConfig("staff-loans", { APP_SECRET: "s".repeat(48), PUBLIC_URL: "https://loans.example.com" });

const TODAY = "2026-06-15";
const admin: AuditActor = { id: "loans-admin", name: "Ada Admin", email: "loans-admin@example.com" };
const info = { ip: "203.0.113.21", userAgent: "vitest-staff-loans" };

describe("staff loans on pglite", () => {
  const database = useTestDatabase({ global: true });
  const db = () => database().db;
  let n = 0;

  beforeAll(async () => {
    await seedStaff(db(), { id: admin.id, name: admin.name, email: admin.email, role: "admin" });
  });

  /** A loan of 12,000.00 at 9.5 % for 12 months from `startDate` (no offer: an older loan's shape). */
  async function newLoan({
    name = "Dana Whitfield",
    obligor = name,
    startDate = "2026-01-10",
    nextDueDate = "2026-07-10",
    status = "active",
  }: { name?: string; obligor?: string; startDate?: string; nextDueDate?: string; status?: "active" | "paid_off" } = {}) {
    n += 1;
    const userId = `loans-borrower-${n}-${randomUUID().slice(0, 6)}`;
    const email = `borrower${n}.${userId.slice(-6)}@example.com`;
    await seedApplicant(db(), { id: userId, name, email, profile: true });
    const [app] = await db().insert(loanApplications).values(applicationRow(userId, { email })).returning({ id: loanApplications.id });
    const [loan] = await db()
      .insert(approvedLoans)
      .values({
        userId,
        applicationId: app!.id,
        obligorName: obligor,
        status,
        balanceCents: status === "paid_off" ? 0 : 1_200_000,
        termMonths: 12,
        amountCents: 1_200_000,
        noteRateMilli: 9500,
        paymentCents: 105_224,
        startDate,
        nextDueDate: status === "paid_off" ? null : nextDueDate,
        maturityDate: "2027-01-10",
      })
      .returning();
    return { loan: loan!, userId, email, name };
  }

  function post(loanId: string, fields: Record<string, string>) {
    return loanPageAction(
      new Request(`http://localhost/admin/loans/${loanId}`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields) }),
      loanId,
      { actor: admin, request: info },
      db(),
      TODAY,
    );
  }

  const refused = (promise: Promise<unknown>) => appErrorOf(promise, "servicing");

  describe("the list", () => {
    it("filters Current, Late and Paid in Full in SQL, searches name, e-mail and reference, and audits loans.list", async () => {
      const current = await newLoan({ name: "Quentin Current", nextDueDate: "2026-07-10" });
      const late = await newLoan({ name: "Laura Late", nextDueDate: "2026-06-01" });
      const paid = await newLoan({ name: "Paula Paid", status: "paid_off" });
      const ids = (list: { loans: { id: string }[] }) => list.loans.map((l) => l.id);

      const all = await listLoans({ filter: "all", q: "", page: 1 }, { actor: admin, request: info }, db(), TODAY);
      expect(ids(all)).toEqual(expect.arrayContaining([current.loan.id, late.loan.id, paid.loan.id]));
      const lateList = await listLoans({ filter: "late", q: "", page: 1 }, { actor: admin, request: info }, db(), TODAY);
      expect(ids(lateList)).toContain(late.loan.id);
      expect(ids(lateList)).not.toContain(current.loan.id);
      expect(ids(lateList)).not.toContain(paid.loan.id);
      const lateRow = lateList.loans.find((l) => l.id === late.loan.id)!;
      expect(lateRow).toMatchObject({ status: "late", statusLabel: "Late", daysPastDue: 14, balanceCents: 1_200_000, amountCents: 1_200_000, borrowerName: "Laura Late" });
      const currentList = await listLoans({ filter: "current", q: "", page: 1 }, { actor: admin, request: info }, db(), TODAY);
      expect(ids(currentList)).toContain(current.loan.id);
      expect(ids(currentList)).not.toContain(late.loan.id);
      expect(currentList.loans.find((l) => l.id === current.loan.id)).toMatchObject({ statusLabel: "Current", daysPastDue: 0 });
      const paidList = await listLoans({ filter: "paid_in_full", q: "", page: 1 }, { actor: admin, request: info }, db(), TODAY);
      expect(ids(paidList)).toEqual([paid.loan.id]);
      expect(paidList.loans[0]).toMatchObject({ statusLabel: "Paid in Full", nextDueDate: null });

      expect(ids(await listLoans({ filter: "all", q: "laura", page: 1 }, { actor: admin, request: info }, db(), TODAY))).toEqual([late.loan.id]);
      expect(ids(await listLoans({ filter: "all", q: current.email.toUpperCase(), page: 1 }, { actor: admin, request: info }, db(), TODAY))).toEqual([current.loan.id]);
      const reference = loanReference(paid.loan);
      expect(ids(await listLoans({ filter: "all", q: reference.toLowerCase(), page: 1 }, { actor: admin, request: info }, db(), TODAY))).toEqual([paid.loan.id]);
      expect(ids(await listLoans({ filter: "late", q: "quentin", page: 1 }, { actor: admin, request: info }, db(), TODAY))).toEqual([]);
      // LIKE wildcards match literally.
      expect((await listLoans({ filter: "all", q: "%", page: 1 }, { actor: admin, request: info }, db(), TODAY)).total).toBe(0);

      expect(parseLoansUrl(new URL("http://x/admin/loans?status=late&q=%00ab&page=2"))).toEqual({ filter: "late", q: "ab", page: 2 });
      expect(parseLoansUrl(new URL("http://x/admin/loans?status=bogus&page=-1"))).toEqual({ filter: "all", q: "", page: 1 });

      const audits = await db().select().from(auditLog).where(eq(auditLog.action, "loans.list"));
      expect(audits.length).toBeGreaterThanOrEqual(8);
      expect(audits.at(-1)).toMatchObject({ actorId: admin.id, ipAddress: info.ip });
    });
  });

  describe("Record Payment", () => {
    it("posts through the form, allocated as the ledger replays it, with the audit row; the page shows it", async () => {
      const { loan } = await newLoan();
      const answer = await post(loan.id, { intent: "record-payment", amount: "1,052.24", receivedOn: "2026-02-10", method: "check", reference: "CHK-1001" });
      expect(answer.status).toBe(200);
      expect(answer.body.ok).toBe(true);
      const [payment] = await db().select().from(loanPayments).where(eq(loanPayments.loanId, loan.id));
      expect(payment).toMatchObject({ amountCents: 105_224, status: "posted", method: "check", source: "staff", reference: "CHK-1001", receivedOn: "2026-02-10", postedBy: admin.id });

      const rows = await ledgerRows(loan.id, db());
      const expected = replayLedger(termsOf(loan), rows.payments, rows.fees, TODAY);
      const ledger = (await loadLedger(loan.id, db(), TODAY))!;
      expect(ledger.state).toEqual(expected);
      const allocation = expected.allocations[0]!;
      // 31 days of 9.5 % on 12,000.00: 12,000 × 0.095 × 31 / 365 = 96.82.
      expect(allocation).toMatchObject({ feesCents: 0, interestCents: 9682, principalCents: 105_224 - 9682, principalAfterCents: 1_200_000 - (105_224 - 9682) });
      expect(allocation.feesCents + allocation.interestCents + allocation.principalCents + allocation.excessCents).toBe(105_224);

      const [stored] = await db().select().from(approvedLoans).where(eq(approvedLoans.id, loan.id));
      expect(stored!.balanceCents).toBe(allocation.principalAfterCents);
      expect(stored!.nextDueDate).toBe("2026-03-10");

      const [audit] = await db().select().from(auditLog).where(and(eq(auditLog.action, "payment.post"), eq(auditLog.recordId, payment!.id)));
      expect(audit!.details).toMatchObject({ loanId: loan.id, amountCents: 105_224, reference: "CHK-1001", allocation: { interestCents: 9682 } });

      const page = (await loadStaffLoan(loan.id, { actor: admin, request: info }, db(), TODAY))!;
      expect(page.payments).toHaveLength(1);
      expect(page.payments[0]).toMatchObject({ statusLabel: "Posted", methodLabel: "Check", allocation: { interestCents: 9682, principalAfterCents: allocation.principalAfterCents } });
      expect(page.installments[0]!.paid).toBe(true);
      expect(page.installments[1]!.paid).toBe(false);
      const [view] = await db().select().from(auditLog).where(and(eq(auditLog.action, "loan.view"), eq(auditLog.recordId, loan.id)));
      expect(view).toMatchObject({ actorId: admin.id });
    });

    it("refuses bad input with 400 naming the field, never a 500", async () => {
      const { loan } = await newLoan();
      const base = { intent: "record-payment", amount: "100.00", receivedOn: "2026-02-10", method: "wire", reference: "W-1" };
      const cases: [Record<string, string>, string][] = [
        [{ ...base, amount: "abc" }, "amount"],
        [{ ...base, amount: "0" }, "amount"],
        [{ ...base, amount: "1.234" }, "amount"],
        [{ ...base, amount: "99999999999" }, "amount"],
        [{ ...base, receivedOn: "2026-06-16" }, "receivedOn"],
        [{ ...base, receivedOn: "2026-02-30" }, "receivedOn"],
        [{ ...base, method: "cash" }, "method"],
        [{ ...base, reference: "" }, "reference"],
        [{ ...base, reference: "x".repeat(81) }, "reference"],
        [{ ...base, reference: "A\u0000B" }, "reference"],
      ];
      for (const [fields, field] of cases) {
        const answer = await post(loan.id, fields);
        expect(answer.status, JSON.stringify(fields)).toBe(400);
        expect(answer.body.fieldErrors?.[field], field).toBeTruthy();
      }
      expect((await post(loan.id, { ...base, intent: "bogus" })).status).toBe(400);
      expect((await post(randomUUID(), base)).status).toBe(404);
      expect((await post("not-a-uuid", base)).status).toBe(404);
      // Before the loan started: the service's refusal, as a 400 toast.
      const early = await post(loan.id, { ...base, receivedOn: "2025-12-31" });
      expect(early.status).toBe(400);
      expect(early.body.toast?.description).toBe(SERVICING_MESSAGES.receivedBeforeStart);
      expect(await db().select().from(loanPayments).where(eq(loanPayments.loanId, loan.id))).toHaveLength(0);
      // An oversized form is a 413 before anything is parsed; an unreadable body is bad input.
      const big = await loanPageAction(
        new Request(`http://localhost/admin/loans/${loan.id}`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ ...base, reference: "x".repeat(20_000) }) }),
        loan.id,
        { actor: admin, request: info },
        db(),
        TODAY,
      );
      expect(big.status).toBe(413);
      const junk = await loanPageAction(new Request(`http://localhost/admin/loans/${loan.id}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" }), loan.id, { actor: admin, request: info }, db(), TODAY);
      expect(junk.status).toBe(400);
      const reason = await post(loan.id, { intent: "reverse-payment", paymentId: randomUUID(), reason: "NSF\u0007" });
      expect(reason.status).toBe(400);
      // Dollars to cents exactly.
      const parsed = recordPaymentSchema(TODAY).parse({ ...base, amount: "$1,234,567.89" });
      expect(parsed.amount).toBe(123_456_789);
      expect(recordPaymentSchema(TODAY).parse({ ...base, amount: "0.29" }).amount).toBe(29);
    });

    it("posts a reference once: again is 409, and of two at once exactly one wins", async () => {
      const { loan } = await newLoan();
      const input = { amountCents: 50_000, receivedOn: "2026-02-01", method: "ach" as const, reference: "ACH-77" };
      await recordPayment(loan.id, input, { actor: admin, request: info }, db(), TODAY);
      const again = await refused(recordPayment(loan.id, input, { actor: admin, request: info }, db(), TODAY));
      expect(again.status).toBe(409);
      expect(again.message).toBe(SERVICING_MESSAGES.duplicateReference);
      const viaForm = await post(loan.id, { intent: "record-payment", amount: "500", receivedOn: "2026-02-01", method: "ach", reference: "ACH-77" });
      expect(viaForm.status).toBe(409);

      const both = await Promise.allSettled([
        recordPayment(loan.id, { ...input, reference: "ACH-78" }, { actor: admin, request: info }, db(), TODAY),
        recordPayment(loan.id, { ...input, reference: "ACH-78" }, { actor: admin, request: info }, db(), TODAY),
      ]);
      expect(both.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const rejected = both.find((r) => r.status === "rejected") as PromiseRejectedResult;
      expect(rejected.reason).toSatisfy((e) => isAppError(e, "servicing"));
      expect(await db().select().from(loanPayments).where(and(eq(loanPayments.loanId, loan.id), eq(loanPayments.reference, "ACH-78")))).toHaveLength(1);
      // The same reference on another loan is another payment.
      const other = await newLoan();
      await recordPayment(other.loan.id, input, { actor: admin, request: info }, db(), TODAY);
    });
  });

  describe("Record Payment posted twice (the form's idempotency key)", () => {
    it("two identical posts at once: one payment, both answered with the success toast", async () => {
      const { loan } = await newLoan();
      const form = { intent: "record-payment", amount: "1,052.24", receivedOn: "2026-02-10", method: "ach", reference: "ACH-DOUBLE", idempotencyKey: randomUUID() };
      const answers = await Promise.all([post(loan.id, form), post(loan.id, form)]);
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        expect(answer.body).toMatchObject({ ok: true, intent: "record-payment", toast: { type: "success", title: "Payment recorded" } });
      }
      const rows = await db().select().from(loanPayments).where(eq(loanPayments.loanId, loan.id));
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ reference: "ACH-DOUBLE", amountCents: 105_224, status: "posted", idempotencyKey: form.idempotencyKey });
      // One post, one audit row: the repeat wrote nothing.
      const audits = await db().select().from(auditLog).where(and(eq(auditLog.action, "payment.post"), eq(auditLog.recordId, rows[0]!.id)));
      expect(audits).toHaveLength(1);
      // A third post later, the same: answered as the first, still one payment.
      const later = await post(loan.id, form);
      expect(later.body).toMatchObject({ ok: true, toast: { title: "Payment recorded" } });
      expect(await db().select().from(loanPayments).where(eq(loanPayments.loanId, loan.id))).toHaveLength(1);
    });

    it("answers a repeated payoff as Paid in Full, refuses the key with other values (409), and a new key is a new payment", async () => {
      const { loan } = await newLoan();
      const rows = await ledgerRows(loan.id, db());
      const quote = payoffQuote(termsOf(loan), rows.payments, rows.fees, "2026-03-01");
      const payoff = { intent: "record-payment", amount: (quote.totalCents / 100).toFixed(2), receivedOn: "2026-03-01", method: "wire", reference: "PAYOFF-TWICE", idempotencyKey: randomUUID() };
      const [first, second] = await Promise.all([post(loan.id, payoff), post(loan.id, payoff)]);
      expect(first!.body.toast?.title).toBe("Payment recorded: Paid in Full");
      expect(second!.body.toast?.title).toBe("Payment recorded: Paid in Full");
      expect(await db().select().from(emailOutbox).where(eq(emailOutbox.template, "loan-paid-in-full"))).toSatisfy((mail: unknown[]) => mail.length >= 1);

      const { loan: other } = await newLoan();
      const key = randomUUID();
      const base = { intent: "record-payment", amount: "100.00", receivedOn: "2026-02-10", method: "check", reference: "CHK-KEY", idempotencyKey: key };
      expect((await post(other.id, base)).status).toBe(200);
      const changed = await post(other.id, { ...base, amount: "200.00", reference: "CHK-KEY-2" });
      expect(changed.status).toBe(409);
      expect(changed.body.toast?.description).toBe(SERVICING_MESSAGES.idempotencyKeyReused);
      const fresh = await post(other.id, { ...base, reference: "CHK-KEY-2", idempotencyKey: randomUUID() });
      expect(fresh.status).toBe(200);
      expect(await db().select().from(loanPayments).where(eq(loanPayments.loanId, other.id))).toHaveLength(2);
      // Not a uuid: refused with a 400 naming the field, never a 500.
      const bad = await post(other.id, { ...base, reference: "CHK-KEY-3", idempotencyKey: "not-a-key" });
      expect(bad.status).toBe(400);
      expect(bad.body.fieldErrors?.idempotencyKey).toBeDefined();
    });
  });

  describe("Reverse Payment", () => {
    it("re-allocates: the ledger after reversing equals the ledger that never had the payment", async () => {
      const { loan } = await newLoan();
      await recordPayment(loan.id, { amountCents: 105_224, receivedOn: "2026-02-10", method: "check", reference: "P1" }, { actor: admin, request: info }, db(), TODAY);
      const before = (await loadLedger(loan.id, db(), TODAY))!.state;
      const p2 = await recordPayment(loan.id, { amountCents: 80_000, receivedOn: "2026-03-05", method: "wire", reference: "P2" }, { actor: admin, request: info }, db(), TODAY);
      await db().insert(loanFees).values({ loanId: loan.id, kind: "late_fee", installmentNumber: 2, amountCents: 5000, assessedOn: "2026-03-26" });
      const p3 = await recordPayment(loan.id, { amountCents: 120_000, receivedOn: "2026-04-10", method: "ach", reference: "P3" }, { actor: admin, request: info }, db(), TODAY);
      const withP2 = (await loadLedger(loan.id, db(), TODAY))!.state;
      expect(withP2.allocations.find((a) => a.paymentId === p3.paymentId)!.feesCents).toBe(5000);

      // Through the form: a reason is required, another loan's payment is unknown here.
      expect((await post(loan.id, { intent: "reverse-payment", paymentId: p2.paymentId, reason: "  " })).status).toBe(400);
      const other = await newLoan();
      expect((await post(other.loan.id, { intent: "reverse-payment", paymentId: p2.paymentId, reason: "Returned / NSF" })).status).toBe(404);
      expect((await post(loan.id, { intent: "reverse-payment", paymentId: "nope", reason: "Returned / NSF" })).status).toBe(404);
      const answer = await post(loan.id, { intent: "reverse-payment", paymentId: p2.paymentId, reason: "Returned / NSF" });
      expect(answer.status).toBe(200);
      expect((await post(loan.id, { intent: "reverse-payment", paymentId: p2.paymentId, reason: "Returned / NSF" })).status).toBe(409);

      const after = (await loadLedger(loan.id, db(), TODAY))!;
      const rows = await ledgerRows(loan.id, db());
      expect(rows.payments.map((p) => p.id)).not.toContain(p2.paymentId);
      const terms = termsOf(loan);
      const without = replayLedger(terms, rows.payments, rows.fees, TODAY);
      expect(after.state).toEqual(without);
      // P3 now pays the fee, then more interest (accrued on a larger principal), then principal.
      const p3After = after.state.allocations.find((a) => a.paymentId === p3.paymentId)!;
      expect(p3After.interestCents).toBeGreaterThan(withP2.allocations.find((a) => a.paymentId === p3.paymentId)!.interestCents);
      // Reversing P3 too leaves P1 only, with the fee still due: the state before P2 was posted, plus the fee.
      await reversePayment(p3.paymentId, "Returned / NSF", { actor: admin, request: info }, db(), TODAY);
      const onlyP1 = (await loadLedger(loan.id, db(), TODAY))!.state;
      expect(onlyP1.allocations).toEqual(before.allocations);
      expect(onlyP1.principalCents).toBe(before.principalCents);
      expect(onlyP1.feesDueCents).toBe(5000);
      const [row] = await db().select().from(loanPayments).where(eq(loanPayments.id, p2.paymentId));
      expect(row).toMatchObject({ status: "reversed", reversalReason: "Returned / NSF", reversedBy: admin.id });
      const audits = await db().select().from(auditLog).where(eq(auditLog.action, "payment.reverse"));
      expect(audits.filter((a) => (a.details as { loanId?: string }).loanId === loan.id)).toHaveLength(2);
    });
  });

  describe("paid in full", () => {
    it("a payment of the payoff closes the loan and queues the e-mail; no more payments; reversing it reopens the loan", async () => {
      const { loan, email } = await newLoan();
      await recordPayment(loan.id, { amountCents: 105_224, receivedOn: "2026-02-10", method: "check", reference: "F1" }, { actor: admin, request: info }, db(), TODAY);
      const rows = await ledgerRows(loan.id, db());
      const quote = payoffQuote(termsOf(loan), rows.payments, rows.fees, "2026-03-01");
      const answer = await post(loan.id, { intent: "record-payment", amount: (quote.totalCents / 100).toFixed(2), receivedOn: "2026-03-01", method: "wire", reference: "PAYOFF-1" });
      expect(answer.status).toBe(200);
      expect(answer.body.toast?.title).toMatch(/Paid in Full/);
      const [closed] = await db().select().from(approvedLoans).where(eq(approvedLoans.id, loan.id));
      expect(closed).toMatchObject({ status: "paid_off", balanceCents: 0, nextDueDate: null });
      expect(closed!.paidOffAt).not.toBeNull();
      const mail = await db().select().from(emailOutbox).where(and(eq(emailOutbox.toAddress, email), eq(emailOutbox.template, "loan-paid-in-full")));
      expect(mail).toHaveLength(1);
      const page = (await loadStaffLoan(loan.id, { actor: admin, request: info }, db(), TODAY))!;
      expect(page.loan.statusLabel).toBe("Paid in Full");
      expect(page.installments.every((i) => i.paid)).toBe(true);

      const more = await post(loan.id, { intent: "record-payment", amount: "10", receivedOn: "2026-03-02", method: "check", reference: "LATE-EXTRA" });
      expect(more.status).toBe(409);

      const final = (await db().select().from(loanPayments).where(and(eq(loanPayments.loanId, loan.id), eq(loanPayments.reference, "PAYOFF-1"))))[0]!;
      await reversePayment(final.id, "Returned / NSF", { actor: admin, request: info }, db(), TODAY);
      const [reopened] = await db().select().from(approvedLoans).where(eq(approvedLoans.id, loan.id));
      expect(reopened).toMatchObject({ status: "active", paidOffAt: null, nextDueDate: "2026-03-10" });
      expect((await loadStaffLoan(loan.id, { actor: admin, request: info }, db(), TODAY))!.loan.statusLabel).toBe("Late");
    });
  });

  describe("Export Loan Tape", () => {
    it("one row per loan, replayed from its ledger, formula-safe and properly quoted, the obligor as on the note and today's contact name, audited with the row count", async () => {
      // The note named the obligor at signing; the profile's name changed since.
      const { loan } = await newLoan({ obligor: '=HYPERLINK("http://evil.example","x"), Jr', name: "Dana Whitfield-Moreno" });
      await recordPayment(loan.id, { amountCents: 105_224, receivedOn: "2026-02-10", method: "check", reference: "T1" }, { actor: admin, request: info }, db(), TODAY);
      const tape = await exportLoanTape({ actor: admin, request: info }, db(), TODAY);
      const lines = tape.csv.split("\r\n").filter(Boolean);
      const total = (await db().select({ id: approvedLoans.id }).from(approvedLoans)).length;
      expect(tape.rows).toBe(total);
      expect(lines).toHaveLength(total + 1);
      expect(lines[0]).toBe(
        '"Reference","Loan ID","Borrower","Contact Name","Loan Type","Amount","Note Rate (%)","Term (Months)","Start Date","Maturity Date","Payment","Principal Balance","Status","Next Due","Days Past Due","Charged Off On","Amount Charged Off","Recoveries","Settled On","Amount Forgiven"',
      );
      const line = lines.find((l) => l.includes(loan.id))!;
      const state = (await loadLedger(loan.id, db(), TODAY))!.state;
      const principal = `${Math.floor(state.principalCents / 100)}.${String(state.principalCents % 100).padStart(2, "0")}`;
      expect(line).toBe(
        `"${loanReference(loan)}","${loan.id}","'=HYPERLINK(""http://evil.example"",""x""), Jr","Dana Whitfield-Moreno","Personal Loan","12000.00","9.50","12","2026-01-10","2027-01-10","1052.24","${principal}","Late","2026-03-10","97","","","","",""`,
      );
      expect(tape.fileName).toBe(`loan-tape-${TODAY}.csv`);
      for (const dangerous of ["=1+1", "+1", "-1", "@SUM(A1)", "\tx"]) expect(csvCell(dangerous).startsWith(`"'`)).toBe(true);
      expect(csvCell('a "b"')).toBe('"a ""b"""');
      expect(csvCell("line\nbreak")).toBe('"line\nbreak"');
      const [audit] = await db().select().from(auditLog).where(eq(auditLog.action, "loan_tape.export"));
      expect(audit).toMatchObject({ actorId: admin.id, ipAddress: info.ip });
      expect(audit!.details).toMatchObject({ rows: total });
    });
  });
});
