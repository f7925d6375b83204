import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { autopayDebitDay, autopayQueueDay, canStopAutopayDebit, firstQueueDay, nextAutopayInstallment, queueDayAfter } from "~/domain/autopay";
import { isBankingDay } from "~/domain/banking-days";
import { addDays } from "~/domain/dates";
import { addMonths } from "~/domain/truth-in-lending";

/**
 * The autopay planner over random calendars: loans signed on any day (month ends 28–31 included) of
 * 2026–2031 (their holidays), any day choice 0–5, hand payments on random days and a cancellation on a
 * random day. The job is simulated day by day with the pure rules the servicing job uses. Each
 * installment gets at most one autopay debit, none is queued after cancellation, every debit day is a
 * banking day on or before its due date and after the day it was queued, and no installment is both
 * paid by hand and debited.
 */

type Debit = { debitDay: string; queuedOn: string; status: "pending" | "posted" | "cancelled" };

const signing = fc
  .record({ year: fc.integer({ min: 2026, max: 2031 }), month: fc.integer({ min: 1, max: 12 }), day: fc.oneof(fc.integer({ min: 1, max: 31 }), fc.integer({ min: 28, max: 31 })) })
  .map(({ year, month, day }) => {
    const first = `${year}-${String(month).padStart(2, "0")}-01`;
    const last = Number(addDays(addMonths(first, 1), -1).slice(8));
    return `${first.slice(0, 8)}${String(Math.min(day, last)).padStart(2, "0")}`;
  });

describe("autopay schedule (property)", () => {
  it("one debit per installment at most, none after cancellation, every debit day a banking day on or before its due date", () => {
    fc.assert(
      fc.property(
        signing,
        fc.integer({ min: 3, max: 14 }),
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 0, max: 40 }),
        fc.uniqueArray(fc.integer({ min: 0, max: 450 }), { maxLength: 6 }),
        fc.option(fc.integer({ min: 0, max: 450 }), { nil: null }),
        (start, term, daysBeforeDue, setupAfter, handDays, cancelAfter) => {
          const installments = Array.from({ length: term }, (_, k) => ({ number: k + 1, dueDate: addMonths(start, k + 1), paid: false }));
          const setupDay = addDays(start, setupAfter);
          const cancelDay = cancelAfter === null ? null : addDays(setupDay, cancelAfter);
          const hand = new Set(handDays.map((d) => addDays(setupDay, d)));
          const debits = new Map<number, Debit>();
          const paidByHand = new Set<number>();
          let active = true;
          let nextQueueOn = firstQueueDay(installments, daysBeforeDue, setupDay);
          const end = addDays(installments.at(-1)!.dueDate, 10);
          for (let today = setupDay; today <= end; today = addDays(today, 1)) {
            // A debit goes in the file made the banking day before its day; it settles on its day.
            for (const [number, debit] of debits) {
              if (debit.status === "pending" && debit.debitDay <= today) {
                debit.status = "posted";
                installments[number - 1]!.paid = true;
              }
            }
            const inFile = (d: Debit) => today >= addDays(d.debitDay, -1);
            if (active && cancelDay !== null && today === cancelDay) {
              active = false;
              for (const debit of debits.values()) if (debit.status === "pending" && canStopAutopayDebit(debit.debitDay, today, inFile(debit))) debit.status = "cancelled";
            }
            if (hand.has(today)) {
              const unpaid = installments.find((row) => !row.paid);
              const queued = unpaid ? debits.get(unpaid.number) : undefined;
              // Make a Payment cancels an unsent autopay debit; one already in a file refuses the hand payment.
              if (unpaid && !(queued?.status === "pending" && inFile(queued))) {
                if (queued?.status === "pending") queued.status = "cancelled";
                unpaid.paid = true;
                paidByHand.add(unpaid.number);
              }
            }
            if (active && nextQueueOn !== null && nextQueueOn <= today) {
              const taken = new Set(debits.keys());
              const target = nextAutopayInstallment(installments, daysBeforeDue, today, taken);
              if (!target) nextQueueOn = null;
              else {
                const debitDay = autopayDebitDay(target.dueDate, daysBeforeDue);
                if (autopayQueueDay(debitDay) > today) nextQueueOn = autopayQueueDay(debitDay);
                else {
                  expect(debits.has(target.number)).toBe(false);
                  debits.set(target.number, { debitDay, queuedOn: today, status: "pending" });
                  const after = queueDayAfter(installments, target.number, daysBeforeDue);
                  nextQueueOn = after === null ? null : after <= today ? addDays(today, 1) : after;
                }
              }
            }
          }
          for (const [number, debit] of debits) {
            const due = installments[number - 1]!.dueDate;
            expect(isBankingDay(debit.debitDay)).toBe(true);
            expect(debit.debitDay <= due).toBe(true);
            expect(debit.debitDay > debit.queuedOn).toBe(true);
            if (cancelDay !== null) expect(debit.queuedOn < cancelDay).toBe(true);
            if (debit.status === "posted") expect(paidByHand.has(number)).toBe(false);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
