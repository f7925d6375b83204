import { describe, expect, it } from "vitest";
import { installmentsCoveredByPlans, modificationLimitRefusal, parseRateCaps, parseScheduleChanges, type ScheduleChange } from "~/domain/loan-modifications";
import { addMonths, projectSchedule, signedChange } from "~/domain/loan-schedule";
import { replayLedger, type LoanTerms } from "~/domain/loan-servicing";

/** $10,000 at 12 % over 12 months, signed 2026-01-15: the regular payment is the level one of its signing day. */
const base: LoanTerms = { amountCents: 1_000_000, noteRateMilli: 12_000, termMonths: 12, startDate: "2026-01-15" };
const terms: LoanTerms = { ...base, paymentCents: projectSchedule(base)[0]!.paymentCents };
const total = (rows: { paymentCents: number }[]) => rows.reduce((s, r) => s + r.paymentCents, 0);

/** Simple interest, actual/365, on a principal for some days at a rate, in exact cents (half-up). */
function interest(principalCents: number, rateMilli: number, days: number): number {
  const numerator = BigInt(principalCents) * BigInt(rateMilli) * BigInt(days);
  const denominator = 100n * 1000n * 365n;
  return Number((2n * numerator + denominator) / (2n * denominator));
}

describe("hardship plans change the one schedule", () => {
  it("a deferment moves installments to the end: same number of payments, every one from the first deferred falls due later, the last absorbs the interest", () => {
    const before = projectSchedule(terms);
    const change: ScheduleChange = { kind: "deferment", signedOn: "2026-04-01", fromInstallment: 4, count: 2 };
    const after = projectSchedule({ ...terms, changes: [change] }, { refuse: false });
    expect(after).toHaveLength(12);
    expect(after.slice(0, 3)).toEqual(before.slice(0, 3));
    expect(after[3]!.dueDate).toBe("2026-07-15");
    expect(after.at(-1)!.dueDate).toBe(addMonths("2026-01-15", 14));
    for (const row of after.slice(3, 11)) expect(row.paymentCents).toBe(terms.paymentCents);
    expect(after.reduce((s, r) => s + r.principalCents, 0)).toBe(terms.amountCents);
    // Two more months of interest on the balance deferred: the total cost rises.
    expect(total(after)).toBeGreaterThan(total(before));
  });

  it("a payment plan reduces some months and spreads the shortfall: the later payment is the smallest level one with a last payment no larger", () => {
    const change = signedChange(terms, { kind: "payment_plan", fromInstallment: 3, months: 3, reducedPaymentCents: 30_000 }, "2026-03-01");
    if (change.kind !== "payment_plan") throw new Error("a payment plan signs as a payment plan");
    const later = change.laterPaymentCents;
    expect(later).toBeGreaterThan(terms.paymentCents!);
    const after = projectSchedule({ ...terms, changes: [change] }, { refuse: false });
    expect(after.slice(2, 5).map((r) => r.paymentCents)).toEqual([30_000, 30_000, 30_000]);
    for (const row of after.slice(5, 11)) expect(row.paymentCents).toBe(later);
    expect(after.at(-1)!.paymentCents).toBeLessThanOrEqual(later);
    // A cent less would leave a last payment larger than the others.
    const cheaper = projectSchedule({ ...terms, changes: [{ ...change, laterPaymentCents: later - 1 }] }, { refuse: false });
    expect(cheaper.at(-1)!.paymentCents).toBeGreaterThan(later - 1);
    expect(after.reduce((s, r) => s + r.principalCents, 0)).toBe(terms.amountCents);
  });

  it("a due-date change moves the installments to the day asked, never earlier than they were due", () => {
    const after = projectSchedule({ ...terms, changes: [{ kind: "due_date_change", signedOn: "2026-03-01", fromInstallment: 3, dueDay: 5 }] }, { refuse: false });
    expect(after.map((r) => r.dueDate).slice(0, 4)).toEqual(["2026-02-15", "2026-03-15", "2026-05-05", "2026-06-05"]);
    const later = projectSchedule({ ...terms, changes: [{ kind: "due_date_change", signedOn: "2026-03-01", fromInstallment: 3, dueDay: 28 }] }, { refuse: false });
    expect(later[2]!.dueDate).toBe("2026-04-28");
  });

  it("a plan that does not fit the schedule is refused (RangeError), never projected", () => {
    expect(() => projectSchedule({ ...terms, changes: [{ kind: "deferment", signedOn: "2026-03-01", fromInstallment: 13, count: 1 }] }, { refuse: false })).toThrow(RangeError);
    expect(() => signedChange(terms, { kind: "payment_plan", fromInstallment: 10, months: 3, reducedPaymentCents: 1 }, "2026-03-01")).toThrow(RangeError);
  });

  it("limits: two deferments and one due-date change in any 12 months", () => {
    const deferments: ScheduleChange[] = [
      { kind: "deferment", signedOn: "2026-02-01", fromInstallment: 1, count: 1 },
      { kind: "deferment", signedOn: "2026-06-01", fromInstallment: 5, count: 1 },
    ];
    expect(modificationLimitRefusal(deferments, "deferment", "2027-01-31")).toMatch(/two deferments/);
    expect(modificationLimitRefusal(deferments, "deferment", "2027-02-01")).toBeNull();
    expect(modificationLimitRefusal([{ kind: "due_date_change", signedOn: "2026-02-01", fromInstallment: 1, dueDay: 3 }], "due_date_change", "2026-12-01")).toMatch(/already changed/);
    expect(modificationLimitRefusal(deferments, "payment_plan", "2026-07-01")).toBeNull();
    expect([...installmentsCoveredByPlans([...deferments, { kind: "payment_plan", signedOn: "2026-07-01", fromInstallment: 7, months: 2, reducedPaymentCents: 0, laterPaymentCents: 1 }])].sort((a, b) => a - b)).toEqual([1, 5, 7, 8]);
  });

  it("stored changes and caps are read back strictly (a guess is never serviced)", () => {
    expect(parseScheduleChanges([])).toEqual([]);
    expect(() => parseScheduleChanges([{ kind: "deferment", signedOn: "2026-01-01", fromInstallment: 1, count: 4 }])).toThrow();
    expect(() => parseRateCaps([{ from: "2026-02-01", through: "2026-01-01", rateMilli: 6000 }])).toThrow();
  });
});

describe("rate caps, charge-off and settlement in the ledger", () => {
  it("an SCRA cap from a past day lowers the interest of those days to 6 %, to the cent", () => {
    // No payments: interest on the full principal from the start. Capped from Feb 1 through Mar 31.
    const capped = replayLedger({ ...terms, rateCaps: [{ from: "2026-02-01", through: "2026-03-31", rateMilli: 6000 }] }, [], [], "2026-05-01");
    // Jan 15 → Feb 1: 17 days at 12 %; Feb 1 → Apr 1: 59 days at 6 %; Apr 1 → May 1: 30 days at 12 %; rounded once.
    const exact = BigInt(1_000_000) * (12_000n * 17n + 6000n * 59n + 12_000n * 30n);
    const denominator = 100n * 1000n * 365n;
    expect(capped.interestAccruedCents).toBe(Number((2n * exact + denominator) / (2n * denominator)));
    const uncapped = replayLedger(terms, [], [], "2026-05-01");
    expect(uncapped.interestAccruedCents).toBe(interest(1_000_000, 12_000, 106));
  });

  it("a charge-off stops interest on its day; a recovery applies after it; a settlement forgives what is left", () => {
    const chargedOff: LoanTerms = { ...terms, chargedOffOn: "2026-06-01" };
    const first = { id: "a", receivedOn: "2026-02-15", amountCents: terms.paymentCents! };
    const state = replayLedger(chargedOff, [first], [], "2026-09-01");
    expect(state.status).toBe("charged_off");
    expect(state.nextInstallment).toBeNull();
    expect(state.chargedOff!.interestCents).toBe(replayLedger(chargedOff, [first], [], "2026-06-01").interestAccruedCents);
    expect(state.interestAccruedCents).toBe(state.chargedOff!.interestCents);
    const recovered = replayLedger(chargedOff, [first, { id: "r", receivedOn: "2026-07-01", amountCents: 10_000, recovery: true }], [], "2026-09-01");
    expect(recovered.recoveredCents).toBe(10_000);
    expect(recovered.principalCents + recovered.interestAccruedCents).toBe(state.chargedOff!.totalCents - 10_000);
    const settled = replayLedger({ ...chargedOff, settledOn: "2026-07-01" }, [first, { id: "r", receivedOn: "2026-07-01", amountCents: 500_000, recovery: true }], [], "2026-09-01");
    expect(settled.status).toBe("settled");
    expect(settled.forgivenCents).toBe(state.chargedOff!.totalCents - 500_000);
    expect(settled.principalCents + settled.interestAccruedCents + settled.feesDueCents).toBe(0);
  });
});
