import { newtonAprPercent } from "../helpers/appendix-j";
import { generator } from "../helpers/seeded-random";
import { describe, expect, it } from "vitest";
import { addDays } from "~/domain/dates";
import { expectedFundingDate } from "~/domain/funding";
import { installmentCents } from "~/domain/loan-math";
import { levelPaymentCents, projectSchedule } from "~/domain/loan-schedule";
import { replayLedger, type PostedPayment } from "~/domain/loan-servicing";
import { APR_TOLERANCE_PERCENT, disclosure, type DisclosureInput } from "~/domain/truth-in-lending";

/**
 * The disclosure a borrower signs and the ledger that services the loan are one rule: paying every
 * installment on its due date for exactly the disclosed amount ends the loan at zero on the disclosed
 * final payment, the interest charged plus the prepaid fee is the disclosed finance charge to the cent,
 * and the disclosed APR is within the 1/8 point of 12 CFR 1026.22(a)(2) of an Appendix J computation
 * written here, apart from the module.
 */

const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const lastDayOf = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();
const iso = (year: number, month: number, day: number) => `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;

/** A signing day from 2000 to 2099, biased to the days where month arithmetic goes wrong: month ends and 29 February. */
function signingDay(random: ReturnType<typeof generator>): string {
  const pick = random.next();
  if (pick < 0.15) {
    let year = random.int(2000, 2099);
    while (!isLeap(year)) year = random.int(2000, 2099);
    return iso(year, 2, 29);
  }
  const year = random.int(2000, 2099);
  const month = random.int(1, 12);
  if (pick < 0.5) return iso(year, month, lastDayOf(year, month));
  return iso(year, month, random.int(1, lastDayOf(year, month)));
}

const dayBefore = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

describe("the disclosed schedule is what the ledger does", () => {
  // A thousand disclosures, each searching its level payment, and two ledger replays each: seconds alone,
  // longer on a loaded machine.
  it("for 1,000 random loans: paid on the due dates, the ledger ends at zero on the final payment and charges the disclosed finance charge; funded later, it costs less", { timeout: 120_000 }, () => {
    const random = generator(37_2026);
    const wanted = 1000;
    let accepted = 0;
    const refused: DisclosureInput[] = [];
    let monthEnds = 0;
    let leapDays = 0;
    while (accepted < wanted) {
      const input: DisclosureInput = {
        amountCents: random.int(1_000, 2_000_000) * 100,
        noteRateMilli: random.int(0, 36_000),
        termMonths: random.int(6, 360),
        originationFeeMilli: random.int(0, 10_000),
        signedOn: "",
      };
      input.signedOn = signingDay(random);
      // Most loans are disclosed with interest from the expected funding day, as signing does; some from signing.
      if (random.next() < 0.7) input.fundedOn = expectedFundingDate(input.signedOn);
      let d;
      try {
        d = disclosure(input);
      } catch (error) {
        // Terms no level payment repays in exactly their term: one cent more or less of payment moves the
        // last payment by more than a payment, so the smallest that repays them ends the loan early.
        expect(error, JSON.stringify(input)).toBeInstanceOf(RangeError);
        expect((error as Error).message, JSON.stringify(input)).toMatch(/end the loan early/);
        refused.push(input);
        continue;
      }
      accepted++;
      const [year, month, day] = input.signedOn.split("-").map(Number) as [number, number, number];
      if (day === lastDayOf(year, month)) monthEnds++;
      if (month === 2 && day === 29) leapDays++;

      const terms = { amountCents: input.amountCents, noteRateMilli: input.noteRateMilli, termMonths: input.termMonths, startDate: input.signedOn, interestFrom: input.fundedOn ?? null };
      const payments: PostedPayment[] = d.schedule.map((row) => ({ id: `p${row.number}`, receivedOn: row.dueDate, amountCents: row.paymentCents }));
      const finalDay = d.schedule.at(-1)!.dueDate;
      const end = replayLedger(terms, payments, [], finalDay);
      const label = JSON.stringify(input);

      // Every payment is applied whole to interest and principal: nothing short, nothing in excess.
      expect(end.allocations, label).toHaveLength(input.termMonths);
      for (const a of end.allocations) {
        expect(a.feesCents + a.excessCents, label).toBe(0);
        expect(a.interestCents + a.principalCents, label).toBe(a.amountCents);
      }
      // The balance reaches zero exactly on the final payment, and not before it.
      expect(end.allocations.slice(0, -1).every((a) => a.principalAfterCents > 0), label).toBe(true);
      expect(end.principalCents, label).toBe(0);
      expect(end.interestAccruedCents, label).toBe(0);
      expect(end.status, label).toBe("paid_in_full");
      expect(end.installments.every((row) => row.paid), label).toBe(true);
      const before = replayLedger(terms, payments, [], dayBefore(finalDay));
      expect(before.status, label).not.toBe("paid_in_full");
      expect(before.nextInstallment?.number, label).toBe(input.termMonths);

      // The ledger's split of each payment is the disclosed schedule's, so the finance charge is to the cent.
      expect(end.allocations.map((a) => [a.interestCents, a.principalCents]), label).toEqual(d.schedule.map((row) => [row.interestCents, row.principalCents]));
      const interestCharged = end.allocations.reduce((sum, a) => sum + a.interestCents, 0);
      expect(interestCharged + d.originationFeeCents, label).toBe(d.financeChargeCents);
      expect(d.totalOfPaymentsCents, label).toBe(payments.reduce((sum, p) => sum + p.amountCents, 0));

      // Funded later than the figures assume (interest from the settlement): the same payments on the same
      // days still pay the loan off by the final due date, and never cost more than disclosed.
      if (input.fundedOn) {
        const late = replayLedger({ ...terms, interestFrom: addDays(input.fundedOn, random.int(1, 20)) }, payments, [], finalDay);
        expect(late.status, label).toBe("paid_in_full");
        expect(late.allocations.reduce((sum, a) => sum + a.interestCents, 0), label).toBeLessThanOrEqual(interestCharged);
      }

      const independent = newtonAprPercent(d.amountFinancedCents, d.schedule.map((row) => row.paymentCents));
      expect(Math.abs(d.aprPercent - independent), label).toBeLessThanOrEqual(APR_TOLERANCE_PERCENT);
    }
    // The refusals are few, and only in the extreme corner of high rates over long terms.
    expect(refused.length / (accepted + refused.length)).toBeLessThan(0.05);
    for (const input of refused) expect(input.noteRateMilli > 20_000 && input.termMonths > 180, JSON.stringify(input)).toBe(true);
    // The generator really hit the awkward signing days.
    expect(monthEnds).toBeGreaterThan(300);
    expect(leapDays).toBeGreaterThan(100);
  });
});

/*
 * The level payment of each loan below, its last payment and the last payment one cent less would leave
 * were computed by an independent script (Python, exact fractions, the calendar from its datetime
 * library; the rule in the module comment, the smallest payment found by bisection and checked against
 * one cent less); the calculator's estimate by the closed-form annuity at rate ÷ 12.
 */
describe("the level payment", () => {
  const cases: { name: string; amountCents: number; noteRateMilli: number; termMonths: number; startDate: string; level: number; last: number; lastWithACentLess: number; estimate: number }[] = [
    { name: "$10,000 at 0 % for 36 months", amountCents: 1_000_000, noteRateMilli: 0, termMonths: 36, startDate: "2026-03-15", level: 27_778, last: 27_770, lastWithACentLess: 27_805, estimate: 27_778 },
    { name: "$12,000 at 9 % for 6 months", amountCents: 1_200_000, noteRateMilli: 9000, termMonths: 6, startDate: "2026-03-15", level: 205_318, last: 205_318, lastWithACentLess: 205_324, estimate: 205_283 },
    { name: "$200,000 at 6.75 % for 360 months", amountCents: 20_000_000, noteRateMilli: 6750, termMonths: 360, startDate: "2026-03-15", level: 129_806, last: 129_212, lastWithACentLess: 130_373, estimate: 129_720 },
    { name: "$25,000 at 10 % for 60 months signed on January 31", amountCents: 2_500_000, noteRateMilli: 10_000, termMonths: 60, startDate: "2026-01-31", level: 53_106, last: 53_048, lastWithACentLess: 53_124, estimate: 53_118 },
    { name: "$80,000 at 8.25 % for 120 months signed on February 29", amountCents: 8_000_000, noteRateMilli: 8250, termMonths: 120, startDate: "2028-02-29", level: 98_127, last: 97_963, lastWithACentLess: 98_148, estimate: 98_122 },
  ];

  it.each(cases)("is the smallest payment whose last payment is not larger: $name", ({ amountCents, noteRateMilli, termMonths, startDate, level, last, lastWithACentLess, estimate }) => {
    const terms = { amountCents, noteRateMilli, termMonths, startDate };
    const payment = levelPaymentCents(terms);
    expect(payment).toBe(level);
    const schedule = projectSchedule({ ...terms, paymentCents: payment });
    expect(schedule.slice(0, -1).every((row) => row.paymentCents === payment)).toBe(true);
    expect(schedule.at(-1)!.paymentCents).toBe(last);
    expect(last).toBeLessThanOrEqual(payment);
    // One cent less leaves a last payment larger than the regular one.
    const short = projectSchedule({ ...terms, paymentCents: payment - 1 }, { refuse: false });
    expect(short.at(-1)!.paymentCents).toBe(lastWithACentLess);
    expect(lastWithACentLess).toBeGreaterThan(payment - 1);
    // Without a payment the schedule uses the level one.
    expect(projectSchedule(terms)).toEqual(schedule);
    expect(installmentCents(amountCents, noteRateMilli, termMonths)).toBe(estimate);
  });

  it("is near the calculator's estimate, on either side of it", () => {
    // Daily interest from the real first period and the months' own lengths: above the estimate for the
    // 30-year mortgage-sized loan and the 6-month one, below it for the January 31 signing, equal at 0 %.
    const [free, sixMonths, thirtyYears, january31] = cases.map((c) => levelPaymentCents(c) - installmentCents(c.amountCents, c.noteRateMilli, c.termMonths));
    expect(free).toBe(0);
    expect(sixMonths).toBeGreaterThan(0);
    expect(thirtyYears).toBeGreaterThan(0);
    expect(january31).toBeLessThan(0);
    for (const c of cases) expect(Math.abs(levelPaymentCents(c) - c.estimate)).toBeLessThan(100);
  });

  it("ends the loan early when no level payment fits the term: $5,000 at 35.99 % for 360 months", () => {
    // $150.05 leaves a last payment of $1,459.06; $150.06 repays the loan before month 360.
    const terms = { amountCents: 500_000, noteRateMilli: 35_990, termMonths: 360, startDate: "2026-03-15" };
    expect(levelPaymentCents(terms)).toBe(15_006);
    expect(projectSchedule({ ...terms, paymentCents: 15_005 }, { refuse: false }).at(-1)!.paymentCents).toBe(145_906);
    expect(() => projectSchedule(terms)).toThrow(/end the loan early/);
  });
});
