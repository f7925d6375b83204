import { describe, expect, it } from "vitest";
import { ledgerLines, replayLedger, type LoanTerms, type PostedPayment } from "~/domain/loan-servicing";

/**
 * The ledger of a charged-off and settled loan: no interest from the charge-off day; a recovery applies
 * after the charge-off even when its received day is earlier (a debit sent before it, settled after), so
 * the charged-off amount never changes; the staff ledger lists the Charge-off line, the recoveries after
 * it, and the Settlement line (the balance zero after it).
 */

const terms: LoanTerms = { amountCents: 1_200_000, noteRateMilli: 9_500, termMonths: 12, startDate: "2026-01-10", interestFrom: null, paymentCents: 105_224 };
const pay = (id: string, receivedOn: string, amountCents: number, recovery = false): PostedPayment & { status: string } => ({ id, receivedOn, amountCents, recovery, status: "posted" });

describe("charge-off in the ledger", () => {
  it("a recovery dated before the charge-off day is applied after it: the charged-off amount is unchanged", () => {
    const chargedOff = { ...terms, chargedOffOn: "2026-06-15" };
    const without = replayLedger(chargedOff, [], [], "2026-07-01");
    const withEarlyRecovery = replayLedger(chargedOff, [pay("r1", "2026-06-10", 50_000, true)], [], "2026-07-01");
    expect(withEarlyRecovery.chargedOff).toEqual(without.chargedOff);
    expect(withEarlyRecovery.recoveredCents).toBe(50_000);
    expect(withEarlyRecovery.principalCents + withEarlyRecovery.interestAccruedCents).toBe(without.chargedOff!.totalCents - 50_000);
    // No interest after the charge-off day.
    expect(replayLedger(chargedOff, [], [], "2026-12-31").interestAccruedCents).toBe(without.chargedOff!.interestCents);
  });

  it("ledgerLines: disbursement, payments, the Charge-off line, recoveries, the Settlement line with the balance zero after it", () => {
    const closed = { ...terms, chargedOffOn: "2026-06-15", settledOn: "2026-08-01" };
    const payments = [pay("p1", "2026-02-10", 105_224), pay("r1", "2026-06-12", 20_000, true), pay("r2", "2026-08-01", 300_000, true)];
    const state = replayLedger(closed, payments, [], "2026-09-01");
    expect(state.status).toBe("settled");
    const lines = ledgerLines(closed, state, [], payments, (p) => p.receivedOn);
    expect(lines.map((l) => (l.kind === "payment" ? l.payment.id : l.kind))).toEqual(["disbursement", "p1", "charge_off", "r1", "r2", "settlement"]);
    const settlement = lines.at(-1)!;
    expect(settlement).toMatchObject({ kind: "settlement", forgivenCents: state.forgivenCents, principalAfterCents: 0 });
    expect(state.forgivenCents).toBe(state.chargedOff!.totalCents - 320_000);
    const chargeOff = lines.find((l) => l.kind === "charge_off")!;
    expect(chargeOff).toMatchObject({ date: "2026-06-15", amounts: state.chargedOff });
  });
});
