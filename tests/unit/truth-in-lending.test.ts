import { newtonAprPercent } from "../helpers/appendix-j";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { monthlyPayment } from "~/domain/loan-math";
import { projectSchedule } from "~/domain/loan-schedule";
import {
  actuarialAprPercent,
  addMonths,
  APR_TOLERANCE_PERCENT,
  aprWithinTolerance,
  disclosure,
  type DisclosureInput,
} from "~/domain/truth-in-lending";

/** Fixed seeds: a failure names its loan and replays the same way on every machine. */
const SEED = 20_261_124;

const loan = (overrides: Partial<DisclosureInput> = {}): DisclosureInput => ({
  amountCents: 5_000_000,
  noteRateMilli: 8500,
  termMonths: 60,
  originationFeeMilli: 0,
  signedOn: "2026-03-15",
  ...overrides,
});

/**
 * The last payment a regular payment of `paymentCents` leaves, by the ledger's rule written here apart
 * from the module: each day accrues balance × rate ÷ 365 exactly (BigInt numerators over 36,500,000 per
 * cent), each installment (never more than is owed) takes the accrued interest rounded half-up, then
 * principal; the last pays principal plus the accrued interest rounded half-up.
 */
function lastPaymentWith(input: DisclosureInput, paymentCents: number): number {
  const unit = 100n * 1000n * 365n;
  const due = (k: number) => addMonths(input.signedOn, k);
  const dayOf = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;
  let balance = BigInt(input.amountCents);
  let accrued = 0n;
  const half = (n: bigint) => (2n * n + unit) / (2n * unit);
  for (let k = 1; k <= input.termMonths; k++) {
    accrued += balance * BigInt(input.noteRateMilli) * BigInt(dayOf(due(k)) - dayOf(due(k - 1)));
    const interest = half(accrued);
    if (k === input.termMonths) return Number(balance + interest);
    const pay = BigInt(Math.min(paymentCents, Number(balance + interest)));
    const toInterest = pay < interest ? pay : interest;
    accrued -= toInterest * unit;
    balance -= pay - toInterest;
    if (balance === 0n && accrued < unit / 2n) accrued = 0n;
  }
  return 0;
}

const repeat = (count: number, cents: number) => Array.from({ length: count }, () => cents);

describe("APR by the actuarial method: Regulation Z Appendix J's own examples", () => {
  // 12 CFR 1026 Appendix J (c)(1)(i), (c)(2)(i), (c)(3)(i), (c)(4)(i): a $5,000 advance on January 10,
  // monthly payments from February 10 (a regular first period, t = 1, no fractional period).
  const examples: [string, number[], number][] = [
    ["(c)(1)(i) 24 payments of $230", repeat(24, 23_000), 9.69],
    ["(c)(2)(i) $250, then 23 of $230", [25_000, ...repeat(23, 23_000)], 10.08],
    ["(c)(3)(i) 23 of $230, then $280", [...repeat(23, 23_000), 28_000], 10.5],
    ["(c)(4)(i) $250, 22 of $230, then $280", [25_000, ...repeat(22, 23_000), 28_000], 10.9],
  ];
  it.each(examples)("gives Appendix J %s", (_name, payments, published) => {
    const apr = actuarialAprPercent(500_000, payments);
    expect(Math.round(apr * 100) / 100).toBe(published);
    expect(Math.abs(apr - newtonAprPercent(500_000, payments))).toBeLessThan(1e-9);
  });

  it("is 0 when the payments only repay the amount financed, and refuses payments worth less", () => {
    expect(actuarialAprPercent(120_000, repeat(12, 10_000))).toBe(0);
    expect(() => actuarialAprPercent(120_001, repeat(12, 10_000))).toThrow(/less than the amount financed/);
    expect(() => actuarialAprPercent(0, [1])).toThrow(RangeError);
    expect(() => actuarialAprPercent(100, [])).toThrow(RangeError);
    expect(() => actuarialAprPercent(100, [50, 50.5])).toThrow(RangeError);
    expect(() => actuarialAprPercent(100, [-1, 200])).toThrow(RangeError);
  });
});

/*
 * The figures below were recomputed independently of the module, by a short script in another language
 * (Python, exact fractions, the calendar from its datetime library): interest accrues each day on the
 * unpaid principal at rate ÷ 365, each payment takes the accrued interest rounded half-up to the cent
 * (the remainder carried), the rest repays principal, the last payment is principal plus accrued
 * interest; the regular payment is the smallest whole number of cents whose last payment is not larger
 * (found by bisection, then checked against one cent less); the APR by Newton's method on Appendix J's
 * general equation. Row 1 by hand: March 15 to April 15 is 31 days, $50,000 × 8.5 % × 31 / 365 =
 * $360.9589… → $360.96 of interest.
 */
describe("the disclosure of the spec's loan: $50,000 at 8.5 % for 60 months, signed March 15, 2026", () => {
  it("has the level payment of the signing day, a little above the calculator's estimate, and a last payment no larger", () => {
    const d = disclosure(loan());
    // The calculator's monthly annuity ($1,025.83) would leave a last payment of $1,053.78 under daily
    // interest; the level payment is $1,026.21, and one cent less ($1,026.20) would leave $1,026.61.
    expect(monthlyPayment(5_000_000, 8500, 60)).toBe(102_583);
    expect(d.paymentCents).toBe(102_621);
    expect(d.schedule).toHaveLength(60);
    expect(d.schedule.slice(0, 59).every((row) => row.paymentCents === 102_621)).toBe(true);
    expect(d.schedule[0]).toEqual({ number: 1, dueDate: "2026-04-15", paymentCents: 102_621, principalCents: 66_525, interestCents: 36_096, balanceCents: 4_933_475 });
    expect(d.schedule.at(-1)).toEqual({ number: 60, dueDate: "2031-03-15", paymentCents: 102_588, principalCents: 101_923, interestCents: 665, balanceCents: 0 });
    expect(d.totalOfPaymentsCents).toBe(6_157_227);
    expect(d.originationFeeCents).toBe(0);
    expect(d.amountFinancedCents).toBe(5_000_000);
    expect(d.financeChargeCents).toBe(1_157_227);
    // One leap day (2028-02-29) and the months' lengths lift the yield a little above the note rate.
    expect(d.aprPercent).toBe(8.52);
    // Signed on January 15 instead: the periods differ, so the level payment and the last payment do too.
    const january = disclosure(loan({ signedOn: "2026-01-15" }));
    expect(january.paymentCents).toBe(102_577);
    expect(january.schedule.at(-1)!.paymentCents).toBe(102_524);
    expect(january.financeChargeCents).toBe(1_154_567);
    expect(january.aprPercent).toBe(8.5);
  });

  it("with a 2 % origination fee: the fee is a prepaid finance charge and lifts the APR above the note rate", () => {
    const d = disclosure(loan({ originationFeeMilli: 2000 }));
    expect(d.originationFeeCents).toBe(100_000);
    expect(d.amountFinancedCents).toBe(4_900_000);
    expect(d.totalOfPaymentsCents).toBe(6_157_227); // the borrower repays the whole $50,000 and its interest
    expect(d.financeChargeCents).toBe(1_257_227); // interest $11,572.27 + fee $1,000
    expect(d.aprPercent).toBe(9.38);
    expect(d.aprPercentUnrounded).toBeCloseTo(newtonAprPercent(4_900_000, d.schedule.map((row) => row.paymentCents)), 9);
  });

  it("rounds the fee to the cent, half-up", () => {
    expect(disclosure(loan({ amountCents: 1_000_050, originationFeeMilli: 1000 })).originationFeeCents).toBe(10_001); // 10,000.5
    expect(disclosure(loan({ amountCents: 1_000_049, originationFeeMilli: 1000 })).originationFeeCents).toBe(10_000); // 10,000.49
    expect(disclosure(loan({ amountCents: 1_000_000, originationFeeMilli: 1125 })).originationFeeCents).toBe(11_250);
  });

  it("works at a 0 % note rate: no interest, and a fee still gives an APR above 0", () => {
    const free = disclosure(loan({ amountCents: 1_000_000, noteRateMilli: 0, termMonths: 36 }));
    expect(free.paymentCents).toBe(27_778);
    // $10,000 − 35 × $277.78 = $277.70; one cent less, $277.77, would leave $10,000 − 35 × $277.77 = $278.05.
    expect(free.schedule.at(-1)!.paymentCents).toBe(27_770);
    expect(free.schedule.every((row) => row.interestCents === 0)).toBe(true);
    expect(free.financeChargeCents).toBe(0);
    expect(free.aprPercent).toBe(0);
    const withFee = disclosure(loan({ amountCents: 1_000_000, noteRateMilli: 0, termMonths: 36, originationFeeMilli: 3000 }));
    expect(withFee.financeChargeCents).toBe(30_000);
    expect(withFee.aprPercent).toBe(1.99);
    expect(withFee.aprPercentUnrounded).toBeCloseTo(newtonAprPercent(970_000, withFee.schedule.map((row) => row.paymentCents)), 9);
  });
});

describe("invariants over random loans", () => {
  const loans = fc.record({
    amountCents: fc.oneof(fc.integer({ min: 100_000, max: 10_000_000 }), fc.integer({ min: 100_000, max: 5_000_000_000 })),
    noteRateMilli: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 36_000 })),
    termMonths: fc.oneof(fc.constantFrom(6, 12, 36, 60, 120, 360), fc.integer({ min: 1, max: 480 })),
    originationFeeMilli: fc.oneof(fc.constant(0), fc.integer({ min: 250, max: 10_000 })),
    signedOn: fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2099-12-31T00:00:00Z"), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  });
  const DAY_MS = 86_400_000;
  const days = (from: string, to: string) => (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS;

  it("holds for hundreds of loans: rows add up, interest is the daily interest, the balance ends at 0, the APR is right", () => {
    let disclosed = 0;
    fc.assert(
      fc.property(loans, (input) => {
        let d;
        try {
          d = disclosure(input);
        } catch (error) {
          // The level payment never leaves a balloon; it is refused only when it would end the loan early
          // (one cent more or less moves the last payment by more than a payment: long terms at high rates,
          // or tiny loans whose payment in cents is smaller than the number of months).
          expect(error).toBeInstanceOf(RangeError);
          expect((error as Error).message).toMatch(/end the loan early/);
          return;
        }
        disclosed++;
        const rows = d.schedule;
        const money = [d.amountCents, d.originationFeeCents, d.amountFinancedCents, d.paymentCents, d.totalOfPaymentsCents, d.financeChargeCents];
        for (const row of rows) money.push(row.paymentCents, row.principalCents, row.interestCents, row.balanceCents);
        expect(money.every(Number.isSafeInteger)).toBe(true);
        expect(rows).toHaveLength(input.termMonths);
        expect(rows.map((row) => row.number)).toEqual(rows.map((_, index) => index + 1));

        // Interest accrues daily on the balance (actual/365); each payment takes what has accrued rounded to
        // the cent and carries the rest, so once a payment reaches the principal the interest charged so far
        // is within half a cent of the exact. A payment short of a long month's interest is all interest and
        // leaves the rest accrued (never added to the principal) for the next ones to pay.
        let balance = input.amountCents;
        let previous = input.signedOn;
        let exactSoFar = 0;
        let chargedSoFar = 0;
        for (const row of rows) {
          exactSoFar += (balance * (input.noteRateMilli / 100_000) * days(previous, row.dueDate)) / 365;
          chargedSoFar += row.interestCents;
          if (row.principalCents > 0) expect(Math.abs(chargedSoFar - exactSoFar)).toBeLessThanOrEqual(0.5 + 1e-3);
          else expect(chargedSoFar).toBeLessThanOrEqual(exactSoFar + 0.5 + 1e-3);
          expect(row.paymentCents).toBe(row.principalCents + row.interestCents);
          expect(row.principalCents).toBeGreaterThanOrEqual(0);
          balance -= row.principalCents;
          previous = row.dueDate;
          expect(row.balanceCents).toBe(balance);
          if (row.number < rows.length) expect(row.paymentCents).toBe(d.paymentCents);
        }
        expect(balance).toBe(0);
        expect(rows.at(-1)!.balanceCents).toBe(0);
        expect(rows.slice(0, -1).every((row) => row.balanceCents > 0)).toBe(true);
        // The level payment: the last payment is no larger than the others, and one cent less would leave
        // a last payment larger than it (replayed here by the independent loop below).
        expect(rows.at(-1)!.paymentCents).toBeLessThanOrEqual(d.paymentCents);
        expect(lastPaymentWith(input, d.paymentCents)).toBe(rows.at(-1)!.paymentCents);
        expect(lastPaymentWith(input, d.paymentCents - 1)).toBeGreaterThan(d.paymentCents - 1);

        expect(d.totalOfPaymentsCents).toBe(rows.reduce((sum, row) => sum + row.paymentCents, 0));
        expect(d.amountFinancedCents).toBe(d.amountCents - d.originationFeeCents);
        expect(d.financeChargeCents).toBe(d.totalOfPaymentsCents - d.amountFinancedCents);
        expect(d.financeChargeCents).toBe(rows.reduce((sum, row) => sum + row.interestCents, 0) + d.originationFeeCents);
        expect(Math.abs(d.originationFeeCents - (input.amountCents * input.originationFeeMilli) / 100_000)).toBeLessThanOrEqual(0.5 + 1e-6);

        const independent = newtonAprPercent(d.amountFinancedCents, rows.map((row) => row.paymentCents));
        expect(Math.abs(d.aprPercentUnrounded - independent)).toBeLessThan(1e-6);
        expect(aprWithinTolerance(d.aprPercent, independent)).toBe(true);
        expect(Math.abs(d.aprPercent - d.aprPercentUnrounded)).toBeLessThanOrEqual(0.005 + 1e-9);
        if (d.originationFeeCents > 0 && input.noteRateMilli === 0) expect(d.aprPercentUnrounded).toBeGreaterThan(0);
      }),
      { seed: SEED, numRuns: 600 },
    );
    // Most random loans are disclosed, so the invariants above were really exercised.
    expect(disclosed).toBeGreaterThan(300);
  });

  it("puts payment k on the k-th month after signing, the same day or the month's last", () => {
    fc.assert(
      fc.property(loans, fc.integer({ min: 1, max: 480 }), (input, k) => {
        const due = addMonths(input.signedOn, k);
        const [y, m, day] = input.signedOn.split("-").map(Number) as [number, number, number];
        const [dy, dm, dd] = due.split("-").map(Number) as [number, number, number];
        expect((dy - y) * 12 + (dm - m)).toBe(k);
        const lastDay = new Date(Date.UTC(dy, dm, 0)).getUTCDate(); // day 0 of the next month
        expect(dd).toBe(Math.min(day, lastDay));
      }),
      { seed: SEED, numRuns: 400 },
    );
  });
});

describe("due dates", () => {
  // At 0 % (the due dates do not depend on the rate).
  const dueDates = (signedOn: string, termMonths: number) => disclosure(loan({ signedOn, termMonths, noteRateMilli: 0 })).schedule.map((row) => row.dueDate);

  it("falls one month after signing, then monthly, clamped to short months and back again", () => {
    expect(dueDates("2026-03-15", 3)).toEqual(["2026-04-15", "2026-05-15", "2026-06-15"]);
    expect(dueDates("2026-01-31", 4)).toEqual(["2026-02-28", "2026-03-31", "2026-04-30", "2026-05-31"]);
    expect(dueDates("2024-01-31", 2)).toEqual(["2024-02-29", "2024-03-31"]);
    expect(dueDates("2026-01-30", 2)).toEqual(["2026-02-28", "2026-03-30"]);
    expect(dueDates("2026-12-05", 2)).toEqual(["2027-01-05", "2027-02-05"]);
  });

  it("knows the leap years, 2000 and 2100 included", () => {
    expect(addMonths("2024-02-29", 12)).toBe("2025-02-28");
    expect(addMonths("2024-02-29", 48)).toBe("2028-02-29");
    expect(addMonths("2000-01-31", 1)).toBe("2000-02-29");
    expect(addMonths("2100-01-31", 1)).toBe("2100-02-28");
    expect(addMonths("2026-08-31", 480)).toBe("2066-08-31");
    expect(dueDates("2026-08-31", 480).at(-1)).toBe("2066-08-31");
    expect(addMonths("2026-08-31", 0)).toBe("2026-08-31");
    expect(() => addMonths("2026-08-31", 1.5)).toThrow(RangeError);
    expect(() => addMonths("2026-08-31", -1)).toThrow(RangeError);
  });

  it("refuses a date that is not a calendar date in yyyy-MM-dd", () => {
    for (const signedOn of ["2025-02-29", "2026-13-01", "2026-04-31", "2026-1-5", "2026-01-05T00:00:00Z", "", "05/01/2026"]) {
      expect(() => disclosure(loan({ signedOn })), signedOn).toThrow(/signedOn must be a calendar date/);
    }
  });
});

describe("refusals", () => {
  it.each([
    [{ amountCents: 0 }, /amountCents/],
    [{ amountCents: -100 }, /amountCents/],
    [{ amountCents: 100.5 }, /amountCents/],
    [{ amountCents: Number.NaN }, /amountCents/],
    [{ amountCents: 100_000_000_001 }, /amountCents/],
    [{ amountCents: "5000000" as unknown as number }, /amountCents/],
    [{ termMonths: 0 }, /termMonths/],
    [{ termMonths: 481 }, /termMonths/],
    [{ termMonths: 12.5 }, /termMonths/],
    [{ noteRateMilli: -1 }, /noteRateMilli/],
    [{ noteRateMilli: 100_001 }, /noteRateMilli/],
    [{ noteRateMilli: Number.POSITIVE_INFINITY }, /noteRateMilli/],
    [{ noteRateMilli: 8123.4 }, /noteRateMilli must be a whole number/],
    [{ noteRateMilli: "8500" as unknown as number }, /noteRateMilli/],
    [{ originationFeeMilli: -1000 }, /originationFeeMilli/],
    [{ originationFeeMilli: 25_001 }, /originationFeeMilli/],
    [{ originationFeeMilli: 1000.5 }, /originationFeeMilli must be a whole number/],
  ] as [Partial<DisclosureInput>, RegExp][])("refuses %o", (overrides, message) => {
    expect(() => disclosure(loan(overrides))).toThrow(RangeError);
    expect(() => disclosure(loan(overrides))).toThrow(message);
  });

  it("refuses terms whose level payment would end the loan early, and never leaves a balloon", () => {
    // Figures from the independent script. $5,000 at 35.99 % over 30 years: $150.05 a month would leave a
    // last payment of $1,459.06, and $150.06 repays the loan in month 346: no level payment fits 360 months.
    expect(() => disclosure(loan({ amountCents: 500_000, noteRateMilli: 35_990, termMonths: 360 }))).toThrow(/end the loan early/);
    // $5,000 at 12 % over 40 years: $50.47 leaves a last payment of $91.75, $50.48 repays it in month 479.
    expect(() => disclosure(loan({ amountCents: 500_000, noteRateMilli: 12_000, termMonths: 480 }))).toThrow(/end the loan early/);
    // One cent cannot be spread over a year.
    expect(() => disclosure(loan({ amountCents: 1, noteRateMilli: 0, termMonths: 12 }))).toThrow(/end the loan early/);
    // $5,000 at 30 % over 124 months: the calculator's $131.14 would leave a balloon of $273.46 under daily
    // interest (refused when it is the payment given); the level payment, $131.32, leaves $126.81.
    expect(() => projectSchedule({ amountCents: 500_000, noteRateMilli: 30_000, termMonths: 124, startDate: "2026-03-15", paymentCents: 13_114 })).toThrow(/balloon/);
    expect(monthlyPayment(500_000, 30_000, 124)).toBe(13_114);
    const long = disclosure(loan({ amountCents: 500_000, noteRateMilli: 30_000, termMonths: 124 }));
    expect([long.paymentCents, long.schedule.at(-1)!.paymentCents]).toEqual([13_132, 12_681]);
    const shorter = disclosure(loan({ amountCents: 500_000, noteRateMilli: 30_000, termMonths: 120 }));
    expect([shorter.paymentCents, shorter.schedule.at(-1)!.paymentCents]).toEqual([13_199, 12_925]);
  });

  it("accepts the edges of the ranges", () => {
    expect(disclosure(loan({ amountCents: 1, termMonths: 1 })).schedule).toEqual([
      { number: 1, dueDate: "2026-04-15", paymentCents: 1, principalCents: 1, interestCents: 0, balanceCents: 0 },
    ]);
    expect(disclosure(loan({ termMonths: 480, noteRateMilli: 0 })).schedule).toHaveLength(480);
    // $1,000,000,000 at 100 % for a year with a 25 % fee: a level payment of $135,317,126.86 and an APR of
    // 173.79 % (the independent script's).
    const largest = disclosure(loan({ amountCents: 100_000_000_000, noteRateMilli: 100_000, termMonths: 12, originationFeeMilli: 25_000 }));
    expect(largest.paymentCents).toBe(13_531_712_686);
    expect(largest.aprPercent).toBe(173.79);
  });
});

describe("the 1/8-point tolerance of 12 CFR 1026.22(a)(2)", () => {
  it("accepts a disclosed APR up to 1/8 of a point either side of the actual one, and no further", () => {
    expect(APR_TOLERANCE_PERCENT).toBe(0.125);
    expect(aprWithinTolerance(9.69, 9.685708)).toBe(true);
    expect(aprWithinTolerance(9.815, 9.69)).toBe(true);
    expect(aprWithinTolerance(9.565, 9.69)).toBe(true);
    expect(aprWithinTolerance(9.816, 9.69)).toBe(false);
    expect(aprWithinTolerance(9.564, 9.69)).toBe(false);
    expect(aprWithinTolerance(10, 9.69)).toBe(false);
  });

  it("refuses what is not a number", () => {
    expect(() => aprWithinTolerance(Number.NaN, 9.69)).toThrow(RangeError);
    expect(() => aprWithinTolerance(9.69, Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});
