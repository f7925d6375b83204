import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addDays } from "~/domain/dates";
import type { RateCap, ScheduleChange, ScheduleChangeOffer } from "~/domain/loan-modifications";
import { projectSchedule, signedChange } from "~/domain/loan-schedule";
import { ledgerLines, replayLedger, type AssessedFee, type LoanTerms, type PostedPayment } from "~/domain/loan-servicing";

/**
 * The ledger under any history a late loan can have: hardship plans signed one after another (each
 * built on the schedule then in force), rate caps (SCRA), fees, payments, reversals (a payment left out of
 * the replay), a charge-off followed by recoveries, and a settlement. Whatever the sequence:
 * - every payment is split exactly (fees + interest + principal + excess = the amount), nothing negative;
 * - the principal is the amount lent less the principal paid (or zero once settled), the fees assessed are
 *   the fees paid plus the fees due (plus what a settlement forgave), and the ledger's lines read down to
 *   the same balance without ever rising after the disbursement;
 * - the projected schedule repays exactly the amount lent, on strictly later due dates;
 * - installments are paid in order; no interest accrues after the charge-off;
 * - leaving a payment out (a reversal) never leaves less owed.
 */

const day0 = "2026-01-01";

const termsArb = fc.record({
  amountCents: fc.integer({ min: 50_000, max: 5_000_000 }),
  noteRateMilli: fc.integer({ min: 0, max: 36_000 }),
  termMonths: fc.integer({ min: 3, max: 48 }),
  startOffset: fc.integer({ min: 0, max: 60 }),
  fundingLag: fc.integer({ min: 0, max: 5 }),
});

const offerArb: fc.Arbitrary<ScheduleChangeOffer & { signedAfterDays: number }> = fc.oneof(
  fc.record({ kind: fc.constant("deferment" as const), fromInstallment: fc.integer({ min: 1, max: 20 }), count: fc.integer({ min: 1, max: 3 }), signedAfterDays: fc.integer({ min: 0, max: 400 }) }),
  fc.record({
    kind: fc.constant("payment_plan" as const),
    fromInstallment: fc.integer({ min: 1, max: 20 }),
    months: fc.integer({ min: 1, max: 6 }),
    reducedPaymentCents: fc.integer({ min: 0, max: 60_000 }),
    signedAfterDays: fc.integer({ min: 0, max: 400 }),
  }),
  fc.record({ kind: fc.constant("due_date_change" as const), fromInstallment: fc.integer({ min: 1, max: 20 }), dueDay: fc.integer({ min: 1, max: 28 }), signedAfterDays: fc.integer({ min: 0, max: 400 }) }),
);

const historyArb = fc.record({
  terms: termsArb,
  offers: fc.array(offerArb, { maxLength: 3 }),
  cap: fc.option(fc.record({ fromDay: fc.integer({ min: 0, max: 500 }), length: fc.option(fc.integer({ min: 0, max: 400 }), { nil: null }) }), { nil: null }),
  payments: fc.array(fc.record({ day: fc.integer({ min: 0, max: 1500 }), amountCents: fc.integer({ min: 1, max: 800_000 }), reversed: fc.boolean() }), { maxLength: 25 }),
  fees: fc.array(fc.record({ day: fc.integer({ min: 0, max: 1500 }), amountCents: fc.integer({ min: 1, max: 5_000 }) }), { maxLength: 5 }),
  chargeOff: fc.option(fc.record({ day: fc.integer({ min: 30, max: 900 }), recoveries: fc.array(fc.record({ after: fc.integer({ min: 0, max: 400 }), amountCents: fc.integer({ min: 1, max: 300_000 }) }), { maxLength: 4 }), settleAfter: fc.option(fc.integer({ min: 0, max: 500 }), { nil: null }) }), { nil: null }),
  asOfDay: fc.integer({ min: 0, max: 2000 }),
});

type Built = { terms: LoanTerms; payments: PostedPayment[]; reversed: PostedPayment[]; fees: AssessedFee[]; asOf: string };

/** A history as the servicer would have recorded it: each plan signed on the schedule then in force (one that does not fit is never offered). */
type History = typeof historyArb extends fc.Arbitrary<infer T> ? T : never;

function build(h: History): Built {
  const startDate = addDays(day0, h.terms.startOffset);
  let terms: LoanTerms = { amountCents: h.terms.amountCents, noteRateMilli: h.terms.noteRateMilli, termMonths: h.terms.termMonths, startDate, interestFrom: addDays(startDate, h.terms.fundingLag) };
  terms = { ...terms, paymentCents: projectSchedule(terms, { refuse: false })[0]!.paymentCents };
  const changes: ScheduleChange[] = [];
  const offers = [...h.offers].sort((a, b) => a.signedAfterDays - b.signedAfterDays);
  for (const { signedAfterDays, ...offer } of offers) {
    try {
      const change = signedChange({ ...terms, changes }, offer, addDays(startDate, signedAfterDays));
      projectSchedule({ ...terms, changes: [...changes, change] }, { refuse: false });
      changes.push(change);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
    }
  }
  const rateCaps: RateCap[] = h.cap ? [{ from: addDays(startDate, h.cap.fromDay), through: h.cap.length === null ? null : addDays(startDate, h.cap.fromDay + h.cap.length), rateMilli: 6000 }] : [];
  const chargedOffOn = h.chargeOff ? addDays(startDate, h.chargeOff.day) : null;
  const settledOn = h.chargeOff && h.chargeOff.settleAfter !== null ? addDays(chargedOffOn!, h.chargeOff.settleAfter) : null;
  const all: (PostedPayment & { reversed: boolean })[] = h.payments
    .map((p, i) => ({ id: `p${i}`, receivedOn: addDays(startDate, p.day), amountCents: p.amountCents, reversed: p.reversed }))
    // A payment posted after the charge-off is a recovery (posting marks it so).
    .map((p) => ({ ...p, recovery: chargedOffOn !== null && p.receivedOn > chargedOffOn }));
  for (const [i, r] of (h.chargeOff?.recoveries ?? []).entries()) all.push({ id: `r${i}`, receivedOn: addDays(chargedOffOn!, r.after), amountCents: r.amountCents, reversed: false, recovery: true });
  all.sort((a, b) => (a.receivedOn < b.receivedOn ? -1 : a.receivedOn > b.receivedOn ? 1 : 0));
  const strip = ({ reversed: _r, ...p }: PostedPayment & { reversed: boolean }): PostedPayment => p;
  // Fees are assessed only while the loan is active (the servicing job serves nothing else).
  const fees = h.fees
    .map((f, i): AssessedFee => ({ id: `f${i}`, assessedOn: addDays(startDate, f.day), amountCents: f.amountCents, installmentNumber: null }))
    .filter((f) => chargedOffOn === null || f.assessedOn < chargedOffOn);
  return {
    terms: { ...terms, changes, rateCaps, chargedOffOn, settledOn },
    payments: all.filter((p) => !p.reversed).map(strip),
    reversed: all.filter((p) => p.reversed).map(strip),
    fees,
    asOf: addDays(startDate, h.asOfDay),
  };
}

describe("the ledger's invariants (property)", () => {
  it("any sequence of plans, caps, fees, payments, reversals, charge-off, recoveries and settlement keeps the ledger exact and never negative", () => {
    fc.assert(
      fc.property(historyArb, (history) => {
        const { terms, payments, reversed, fees, asOf } = build(history);
        const state = replayLedger(terms, payments, fees, asOf);

        // Each payment split exactly, nothing negative.
        for (const a of state.allocations) {
          expect(a.feesCents + a.interestCents + a.principalCents + a.excessCents).toBe(a.amountCents);
          for (const part of [a.feesCents, a.interestCents, a.principalCents, a.excessCents, a.principalAfterCents]) expect(part).toBeGreaterThanOrEqual(0);
        }
        expect(state.principalCents).toBeGreaterThanOrEqual(0);
        expect(state.interestAccruedCents).toBeGreaterThanOrEqual(0);
        expect(state.feesDueCents).toBeGreaterThanOrEqual(0);
        expect(state.forgivenCents).toBeGreaterThanOrEqual(0);

        // Totals equal the sum of the rows.
        const paidPrincipal = state.allocations.reduce((s, a) => s + a.principalCents, 0);
        const paidFees = state.allocations.reduce((s, a) => s + a.feesCents, 0);
        const feesAssessed = fees.filter((f) => f.assessedOn <= asOf).reduce((s, f) => s + f.amountCents, 0);
        if (state.status === "settled") {
          expect(state.principalCents).toBe(0);
          expect(state.feesDueCents).toBe(0);
          expect(paidFees).toBeLessThanOrEqual(feesAssessed);
        } else {
          expect(state.principalCents).toBe(terms.amountCents - paidPrincipal);
          expect(paidFees + state.feesDueCents).toBe(feesAssessed);
        }
        const recovered = state.allocations.filter((a) => a.recovery).reduce((s, a) => s + a.feesCents + a.interestCents + a.principalCents, 0);
        expect(state.recoveredCents).toBe(recovered);
        if (state.chargedOff) expect(state.chargedOff.totalCents).toBe(state.chargedOff.principalCents + state.chargedOff.interestCents + state.chargedOff.feesCents);

        // The ledger's lines read down to the same balance and never rise after the disbursement.
        const lines = ledgerLines(terms, state, fees.filter((f) => f.assessedOn <= asOf), payments.filter((p) => p.receivedOn <= asOf).map((p) => ({ ...p, status: "posted" })), (p) => p.receivedOn);
        for (let i = 1; i < lines.length; i++) expect(lines[i]!.principalAfterCents).toBeLessThanOrEqual(lines[i - 1]!.principalAfterCents);
        if (state.status !== "settled") expect(lines.at(-1)!.principalAfterCents).toBe(state.principalCents);

        // The schedule repays exactly what was lent, on strictly later days, nothing negative.
        const schedule = projectSchedule(terms, { refuse: false });
        expect(schedule.reduce((s, r) => s + r.principalCents, 0)).toBe(terms.amountCents);
        for (let i = 0; i < schedule.length; i++) {
          expect(schedule[i]!.paymentCents).toBeGreaterThanOrEqual(0);
          if (i > 0) expect(schedule[i]!.dueDate > schedule[i - 1]!.dueDate).toBe(true);
        }
        // Installments are paid in order.
        for (let i = 1; i < state.installments.length; i++) if (state.installments[i]!.paid) expect(state.installments[i - 1]!.paid).toBe(true);

        // No interest accrues after the charge-off: a later day with nothing posted owes the same.
        if (terms.chargedOffOn && terms.chargedOffOn <= asOf && state.status === "charged_off") {
          const later = replayLedger(terms, payments, fees, addDays(asOf, 90));
          const postedLater = payments.some((p) => p.receivedOn > asOf) || fees.some((f) => f.assessedOn > asOf) || (terms.settledOn ?? "") > asOf;
          if (!postedLater) expect(later.interestAccruedCents).toBe(state.interestAccruedCents);
        }

        // A reversal never leaves less owed than keeping the payment.
        if (reversed.length > 0 && state.status !== "settled") {
          const withAll = replayLedger(terms, [...payments, ...reversed].sort((a, b) => (a.receivedOn < b.receivedOn ? -1 : a.receivedOn > b.receivedOn ? 1 : 0)), fees, asOf);
          if (withAll.status !== "settled") {
            expect(state.principalCents + state.interestAccruedCents + state.feesDueCents).toBeGreaterThanOrEqual(withAll.principalCents + withAll.interestAccruedCents + withAll.feesDueCents);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it("a rate cap never raises the interest, and caps nothing when the note rate is already below it", () => {
    fc.assert(
      fc.property(historyArb, (history) => {
        const built = build({ ...history, chargeOff: null });
        if (built.terms.rateCaps!.length === 0) return;
        const uncapped = replayLedger({ ...built.terms, rateCaps: [] }, built.payments, built.fees, built.asOf);
        const capped = replayLedger(built.terms, built.payments, built.fees, built.asOf);
        const owed = (s: typeof capped) => s.principalCents + s.interestAccruedCents + s.feesDueCents;
        const interestPaid = (s: typeof capped) => s.allocations.reduce((sum, a) => sum + a.interestCents, 0);
        expect(interestPaid(capped) + capped.interestAccruedCents).toBeLessThanOrEqual(interestPaid(uncapped) + uncapped.interestAccruedCents + 1 * capped.allocations.length);
        expect(owed(capped)).toBeLessThanOrEqual(owed(uncapped));
        if (built.terms.noteRateMilli <= 6000) expect(capped).toEqual(uncapped);
      }),
      { numRuns: 200 },
    );
  });
});
