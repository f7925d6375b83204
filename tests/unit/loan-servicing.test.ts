import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  daysBetween,
  installmentsDueALateFee,
  lateFeeCents,
  ledgerLines,
  payoffQuote,
  perDiem,
  projectedSchedule,
  replayLedger,
  simpleInterestCents,
  type AssessedFee,
  type LoanTerms,
  type PostedPayment,
} from "~/domain/loan-servicing";
import { installmentCents } from "~/domain/loan-math";
import { projectSchedule } from "~/domain/loan-schedule";
import { addMonths, disclosure } from "~/domain/truth-in-lending";

/**
 * An independent projection by the ledger's rule, written without the module: due dates from Date.UTC
 * (day clamped to the month's last); each period's interest accrued exactly in BigInt units of
 * 1/36,500,000 of a cent (balance × rate in millionths of a percent × days), taken rounded half-up by each
 * payment (never more than is owed) with the remainder carried, then principal; the last payment pays it
 * off. Without a payment it uses the level payment: from the textbook closed form (the calculator's
 * estimate), one cent at a time up to the first payment whose last payment is not larger, then down while
 * one cent less would still do.
 */
function referenceSchedule(amountCents: number, ratePercent: string, months: number, startDate: string, regular?: number) {
  const [whole, frac = ""] = ratePercent.split(".");
  const rateMillionths = BigInt(whole!) * 1_000_000n + BigInt((frac + "000000").slice(0, 6));
  const [y, m, d] = startDate.split("-").map(Number) as [number, number, number];
  const due = (k: number) => Date.UTC(y, m - 1 + k, Math.min(d, new Date(Date.UTC(y, m + k, 0)).getUTCDate()));
  const unit = 100n * 1_000_000n * 365n; // cents × millionths of a percent × days per cent of interest
  const project = (payment: number) => {
    const rows: { payment: number; interest: number; principal: number; balance: number }[] = [];
    let balance = BigInt(amountCents);
    let carried = 0n;
    for (let k = 1; k <= months; k++) {
      const days = BigInt(Math.round((due(k) - due(k - 1)) / 86_400_000));
      carried += balance * rateMillionths * days;
      const interestDue = (carried * 2n + unit) / (2n * unit);
      const owed = balance + interestDue;
      const paid = k === months || BigInt(payment) > owed ? owed : BigInt(payment);
      const interest = paid < interestDue ? paid : interestDue;
      carried -= interest * unit;
      const principal = paid - interest;
      balance -= principal;
      if (balance === 0n && carried * 2n < unit) carried = 0n;
      rows.push({ payment: Number(paid), interest: Number(interest), principal: Number(principal), balance: Number(balance) });
    }
    return rows;
  };
  const repays = (payment: number) => project(payment).at(-1)!.payment <= payment;
  const monthly = Number(rateMillionths) / 1e8 / 12;
  const estimate = Math.round((amountCents * monthly) / (1 - (1 + monthly) ** -months));
  let payment = regular ?? estimate;
  if (regular === undefined) {
    while (!repays(payment)) payment++;
    while (repays(payment - 1)) payment--;
  }
  return { estimate, payment, rows: project(payment) };
}

const loan = (over: Partial<LoanTerms> = {}): LoanTerms => ({ amountCents: 2_500_000, noteRateMilli: 9750, termMonths: 36, startDate: "2026-01-15", ...over });

describe("the projected Payment Schedule", () => {
  it("pays the level payment, a little above the published amortisation payment, the smallest that leaves no larger last payment", () => {
    // The published figures ($100,000 at 6 % for 30 years is $599.55; $200,000 at 4.5 % is $1,013.37) are
    // the monthly annuity: the calculator's estimate. Under daily interest from a January 15 signing, they
    // would leave a larger last payment; the level payments (the independent script's) are $599.74 and
    // $1,013.64, with last payments of $591.12 and $1,007.20; one cent less would leave $601.16 and $1,014.79.
    expect(installmentCents(10_000_000, 6000, 360)).toBe(59_955);
    expect(installmentCents(20_000_000, 4500, 360)).toBe(101_337);
    for (const [amountCents, noteRateMilli, level, last, lastWithACentLess] of [
      [10_000_000, 6000, 59_974, 59_112, 60_116],
      [20_000_000, 4500, 101_364, 100_720, 101_479],
    ] as const) {
      const terms = loan({ amountCents, noteRateMilli, termMonths: 360 });
      const schedule = projectedSchedule(terms);
      expect(schedule.slice(0, -1).every((row) => row.paymentCents === level)).toBe(true);
      expect(schedule.at(-1)!.paymentCents).toBe(last);
      expect(projectedSchedule({ ...terms, paymentCents: level - 1 }).at(-1)!.paymentCents).toBe(lastWithACentLess);
    }
  });

  it("matches an independent computation row by row, to the cent", () => {
    // The level payments also agree with the independent Python script's.
    for (const [amount, rate, months, startDate, level] of [
      [2_500_000, "9.75", 36, "2026-01-15", 80_364],
      [10_000_000, "6", 360, "2026-01-15", 59_974],
      [1_500_000, "7.99", 24, "2024-01-31", 67_829],
      [8_000_000, "8.25", 120, "2028-02-29", 98_127],
    ] as const) {
      const ours = projectedSchedule(loan({ amountCents: amount, noteRateMilli: Math.round(Number(rate) * 1000), termMonths: months, startDate }));
      const ref = referenceSchedule(amount, rate, months, startDate);
      expect(ref.payment).toBe(level);
      // Near the estimate but not always above it (the 3-year loan's is $0.11 below), and the last
      // payment is not above it.
      expect(Math.abs(ref.payment - ref.estimate)).toBeLessThan(100);
      expect(ref.rows.at(-1)!.payment).toBeLessThanOrEqual(ref.payment);
      expect(ours.map((r) => [r.paymentCents, r.interestCents, r.principalCents, r.balanceCents])).toEqual(ref.rows.map((r) => [r.payment, r.interest, r.principal, r.balance]));
    }
  });

  it("projects a signed loan by its stored payment even when the disclosure would now refuse it, and paying it on the due dates pays it off", () => {
    // $5,000 at 30 % for 124 months signed for the calculator's $131.14 (the earlier rule): under daily
    // interest the last payment would be $273.46 (the independent script's), over twice the regular one, a
    // balloon the disclosure refuses; today's disclosure of these terms has the level payment, $131.32.
    // A loan signed on such terms is still serviced by what it was signed for.
    const terms = loan({ amountCents: 500_000, noteRateMilli: 30_000, termMonths: 124, startDate: "2026-03-15", paymentCents: 13_114 });
    expect(() => projectSchedule(terms)).toThrow(/balloon/);
    expect(disclosure({ amountCents: 500_000, noteRateMilli: 30_000, termMonths: 124, originationFeeMilli: 0, signedOn: "2026-03-15" }).paymentCents).toBe(13_132);
    const schedule = projectedSchedule(terms);
    expect(schedule).toHaveLength(124);
    expect(schedule.slice(0, -1).every((row) => row.paymentCents === 13_114)).toBe(true);
    expect(schedule.at(-1)!.paymentCents).toBe(27_346);
    expect(schedule.at(-1)!.balanceCents).toBe(0);
    expect(schedule.map((r) => [r.paymentCents, r.interestCents, r.principalCents, r.balanceCents])).toEqual(
      referenceSchedule(500_000, "30", 124, "2026-03-15", 13_114).rows.map((r) => [r.payment, r.interest, r.principal, r.balance]),
    );
    const payments = schedule.map((row) => ({ id: `p${row.number}`, receivedOn: row.dueDate, amountCents: row.paymentCents }));
    expect(replayLedger(terms, payments, [], schedule.at(-1)!.dueDate).status).toBe("paid_in_full");
  });

  it("its principal sums to the amount, and installment k falls due k months after signing", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100_000, max: 50_000_000 }),
        fc.integer({ min: 0, max: 20_000 }),
        fc.constantFrom(12, 24, 36, 60, 120),
        (amountCents, noteRateMilli, termMonths) => {
          const terms = loan({ amountCents, noteRateMilli, termMonths });
          const schedule = projectedSchedule(terms);
          expect(schedule.reduce((s, r) => s + r.principalCents, 0)).toBe(amountCents);
          expect(schedule.at(-1)!.balanceCents).toBe(0);
          schedule.forEach((r, i) => expect(r.dueDate).toBe(addMonths(terms.startDate, i + 1)));
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe("daily interest, actual/365", () => {
  it("charges principal × rate × days / 365, rounded half-up once", () => {
    // $25,000 at 9.75 % for 31 days: 2,500,000 × 0.0975 × 31 / 365 = 20,702.05… cents
    expect(simpleInterestCents(2_500_000, 9750, 31)).toBe(20_702);
    expect(simpleInterestCents(2_500_000, 9750, 0)).toBe(0);
    expect(perDiem(2_500_000, 9750)).toEqual({ cents: 668, text: "6.6781" });
    expect(daysBetween("2026-01-15", "2026-02-15")).toBe(31);
    expect(daysBetween("2028-02-28", "2028-03-01")).toBe(2);
  });
});

/** Random payments on a loan: dates after the start, amounts from a few dollars to more than the loan. */
const paymentsArb = (terms: LoanTerms) =>
  fc.array(
    fc.record({ day: fc.integer({ min: 1, max: 800 }), amountCents: fc.integer({ min: 1, max: Math.ceil(terms.amountCents / 3) }) }),
    { maxLength: 12 },
  ).map((list) => list.map((p, i): PostedPayment => ({ id: `p${String(i).padStart(3, "0")}`, receivedOn: dayAfter(terms.startDate, p.day), amountCents: p.amountCents })));

function dayAfter(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

const termsArb = fc.record({
  amountCents: fc.integer({ min: 100_000, max: 10_000_000 }),
  noteRateMilli: fc.integer({ min: 0, max: 24_000 }),
  termMonths: fc.constantFrom(12, 24, 36),
  startDate: fc.constantFrom("2026-01-31", "2026-03-15", "2027-02-28"),
});

describe("the ledger (property tests)", () => {
  it("allocations add up to each payment and the balance never goes below zero", () => {
    fc.assert(
      fc.property(termsArb.chain((t) => fc.tuple(fc.constant(t), paymentsArb(t))), ([terms, payments]) => {
        const state = replayLedger(terms, payments, [], dayAfter(terms.startDate, 900));
        for (const a of state.allocations) {
          expect(a.feesCents + a.interestCents + a.principalCents + a.excessCents).toBe(a.amountCents);
          expect(a.principalAfterCents).toBeGreaterThanOrEqual(0);
          expect(Math.min(a.feesCents, a.interestCents, a.principalCents, a.excessCents)).toBeGreaterThanOrEqual(0);
        }
        expect(state.principalCents).toBeGreaterThanOrEqual(0);
        expect(state.principalCents).toBe(terms.amountCents - state.allocations.reduce((s, a) => s + a.principalCents, 0));
      }),
      { numRuns: 300 },
    );
  });

  it("posting a payment then reversing it leaves the ledger as it was", () => {
    fc.assert(
      fc.property(
        termsArb.chain((t) => fc.tuple(fc.constant(t), paymentsArb(t), fc.integer({ min: 1, max: 700 }), fc.integer({ min: 1, max: 500_000 }))),
        ([terms, payments, day, amountCents]) => {
          const asOf = dayAfter(terms.startDate, 900);
          const before = replayLedger(terms, payments, [], asOf);
          const extra: PostedPayment = { id: "zz-reversed", receivedOn: dayAfter(terms.startDate, day), amountCents };
          replayLedger(terms, [...payments, extra], [], asOf);
          // A reversal removes the payment from what is replayed.
          const after = replayLedger(terms, [...payments, extra].filter((p) => p.id !== extra.id), [], asOf);
          expect(after).toEqual(before);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("a payoff quote is the principal plus interest accrued to its date plus unpaid fees, and paying it closes the loan", () => {
    fc.assert(
      fc.property(
        termsArb.chain((t) => fc.tuple(fc.constant(t), paymentsArb(t), fc.integer({ min: 1, max: 900 }))),
        ([terms, payments, quoteDay]) => {
          const fees: AssessedFee[] = [{ id: "f1", assessedOn: dayAfter(terms.startDate, 50), amountCents: 2500, installmentNumber: 1 }];
          const goodThrough = dayAfter(terms.startDate, quoteDay);
          const earlier = payments.filter((p) => p.receivedOn <= goodThrough);
          const quote = payoffQuote(terms, earlier, fees, goodThrough);
          const state = replayLedger(terms, earlier, fees, goodThrough);
          expect(quote.totalCents).toBe(state.principalCents + state.interestAccruedCents + state.feesDueCents);
          const closed = replayLedger(terms, [...earlier, { id: "zzz-payoff", receivedOn: goodThrough, amountCents: quote.totalCents }], fees, goodThrough);
          if (quote.totalCents > 0) {
            expect(closed.status).toBe("paid_in_full");
            expect(closed.allocations.at(-1)!.excessCents).toBe(0);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("the staff ledger's rows (ledgerLines)", () => {
  it("read top to bottom: dates never go back, the balance starts at the amount lent and never rises after it", () => {
    fc.assert(
      fc.property(
        termsArb.chain((t) =>
          fc.tuple(
            fc.constant(t),
            paymentsArb(t),
            // Same-day payments posted in any id order, and rows that are not posted (reversed, pending).
            fc.array(fc.record({ day: fc.integer({ min: 1, max: 800 }), status: fc.constantFrom("reversed", "pending", "returned") }), { maxLength: 4 }),
            fc.array(fc.integer({ min: 1, max: 800 }), { maxLength: 3 }),
          ),
        ),
        ([terms, posted, others, feeDays]) => {
          const payments = [
            // Listed newest first and with ids against their dates: the rows must not follow the input order.
            ...[...posted].reverse().map((p, i) => ({ ...p, id: `z${String(99 - i).padStart(3, "0")}`, status: "posted" })),
            ...others.map((o, i) => ({ id: `o${i}`, receivedOn: dayAfter(terms.startDate, o.day), amountCents: 5_000, status: o.status })),
          ];
          const fees: AssessedFee[] = feeDays.map((d, i) => ({ id: `f${i}`, assessedOn: dayAfter(terms.startDate, d), amountCents: 2_500, installmentNumber: i + 1 }));
          const asOf = dayAfter(terms.startDate, 900);
          const state = replayLedger(terms, payments.filter((p) => p.status === "posted"), fees, asOf);
          const lines = ledgerLines(terms, state, fees, payments, (p) => p.receivedOn);
          expect(lines[0]).toEqual({ kind: "disbursement", date: terms.startDate, amountCents: terms.amountCents, principalAfterCents: terms.amountCents });
          expect(lines).toHaveLength(1 + payments.length + fees.length);
          for (let i = 1; i < lines.length; i++) {
            expect(lines[i]!.date >= lines[i - 1]!.date).toBe(true);
            expect(lines[i]!.principalAfterCents).toBeLessThanOrEqual(lines[i - 1]!.principalAfterCents);
            const line = lines[i]!;
            if (line.kind === "payment" && line.allocation) expect(line.principalAfterCents).toBe(line.allocation.principalAfterCents);
            else expect(line.principalAfterCents).toBe(lines[i - 1]!.principalAfterCents);
          }
          // Posted payments in the order the ledger applied them; the last balance is the ledger's.
          const postedOrder = lines.flatMap((l) => (l.kind === "payment" && l.allocation ? [l.payment.id] : []));
          expect(postedOrder).toEqual(state.allocations.map((a) => a.paymentId));
          expect(lines.at(-1)!.principalAfterCents).toBe(state.principalCents);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("on one day: the fee first, then the payments in the order they were posted (never by id)", () => {
    const terms = loan();
    // Posted in this order; the ids sort the other way round.
    const payments = [
      { id: "b", receivedOn: "2026-02-15", amountCents: 50_000, status: "posted" },
      { id: "a", receivedOn: "2026-02-15", amountCents: 100_000, status: "posted" },
    ];
    const fees: AssessedFee[] = [{ id: "f", assessedOn: "2026-02-15", amountCents: 2_500, installmentNumber: 1 }];
    const state = replayLedger(terms, payments, fees, "2026-03-01");
    const lines = ledgerLines(terms, state, fees, payments, (p) => p.receivedOn);
    expect(state.allocations.map((a) => a.paymentId)).toEqual(["b", "a"]);
    expect(state.allocations[0]!.feesCents).toBe(2_500);
    expect(lines.map((l) => (l.kind === "payment" ? l.payment.id : l.kind))).toEqual(["disbursement", "fee", "b", "a"]);
    expect(lines.map((l) => l.principalAfterCents)).toEqual([2_500_000, 2_500_000, state.allocations[0]!.principalAfterCents, state.allocations[1]!.principalAfterCents]);
    expect(lines[3]!.principalAfterCents).toBeLessThan(lines[2]!.principalAfterCents);
  });
});

describe("installments, lateness and late fees", () => {
  const terms = loan();
  const schedule = projectedSchedule(terms);
  const policy = { graceDays: 15, flatCents: 2500, percentMilli: 5000, capCents: 10_000 };

  it("paying each installment on its due date keeps the loan current and marks them paid", () => {
    const payments = schedule.slice(0, 2).map((r, i): PostedPayment => ({ id: `p${i}`, receivedOn: r.dueDate, amountCents: r.paymentCents }));
    const state = replayLedger(terms, payments, [], schedule[1]!.dueDate);
    expect(state.installments.slice(0, 2).every((r) => r.paid)).toBe(true);
    expect(state.nextInstallment).toMatchObject({ number: 3, dueDate: schedule[2]!.dueDate, amountDueCents: schedule[2]!.paymentCents });
    expect(state.status).toBe("current");
  });

  it("an unpaid installment past its due date is Late; after the grace period it owes one late fee", () => {
    const asOf = dayAfter(schedule[0]!.dueDate, 16);
    const state = replayLedger(terms, [], [], asOf);
    expect(state).toMatchObject({ status: "late", daysPastDue: 16 });
    expect(installmentsDueALateFee(state, policy, asOf, new Set()).map((r) => r.number)).toEqual([1]);
    expect(installmentsDueALateFee(state, policy, asOf, new Set([1]))).toEqual([]);
    expect(installmentsDueALateFee(replayLedger(terms, [], [], dayAfter(schedule[0]!.dueDate, 15)), policy, dayAfter(schedule[0]!.dueDate, 15), new Set())).toEqual([]);
  });

  it("a late fee is the larger of the flat fee and the percent, capped", () => {
    expect(lateFeeCents(80_372, policy)).toBe(4019); // 5 % of $803.72, above the $25 flat fee
    expect(lateFeeCents(30_000, policy)).toBe(2500); // the flat fee is larger
    expect(lateFeeCents(1_000_000, policy)).toBe(10_000); // capped
  });

  it("a fee is paid before interest and principal", () => {
    const fees: AssessedFee[] = [{ id: "f1", assessedOn: dayAfter(schedule[0]!.dueDate, 16), amountCents: 4019, installmentNumber: 1 }];
    const state = replayLedger(terms, [{ id: "p1", receivedOn: dayAfter(schedule[0]!.dueDate, 20), amountCents: 10_000 }], fees, dayAfter(schedule[0]!.dueDate, 20));
    expect(state.allocations[0]).toMatchObject({ feesCents: 4019, interestCents: 5981, principalCents: 0 });
    expect(state.feesDueCents).toBe(0);
  });

  it("the amount due includes the fees a payment pays first, and paying exactly it brings the loan current", () => {
    const lateOn = dayAfter(schedule[0]!.dueDate, 16);
    const fees: AssessedFee[] = [{ id: "f1", assessedOn: lateOn, amountCents: 4019, installmentNumber: 1 }];
    const late = replayLedger(terms, [], fees, lateOn);
    expect(late.nextInstallment).toEqual({
      number: 1,
      dueDate: schedule[0]!.dueDate,
      installmentCents: schedule[0]!.paymentCents,
      feesCents: 4019,
      amountDueCents: schedule[0]!.paymentCents + 4019,
    });
    // The installment alone leaves it short: the fee takes its share first.
    const short = replayLedger(terms, [{ id: "p1", receivedOn: lateOn, amountCents: schedule[0]!.paymentCents }], fees, lateOn);
    expect(short.installments[0]!.paid).toBe(false);
    expect(short.status).toBe("late");
    const current = replayLedger(terms, [{ id: "p1", receivedOn: lateOn, amountCents: late.nextInstallment!.amountDueCents }], fees, lateOn);
    expect(current.installments[0]!.paid).toBe(true);
    expect(current).toMatchObject({ status: "current", daysPastDue: 0, feesDueCents: 0 });
    expect(current.nextInstallment).toMatchObject({ number: 2, feesCents: 0 });
  });
});
