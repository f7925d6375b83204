import {
  accrueTo,
  addMonths,
  applyPayment,
  daysBetween,
  INTEREST_DENOMINATOR,
  interestDueCents,
  interestStart,
  openAccrual,
  projectSchedule,
  roundHalfUp,
  type FeeDue,
  type PaymentRow,
  type ScheduleTerms,
} from "./loan-schedule";

export { daysBetween };

/**
 * Servicing an active loan, as pure arithmetic in integer cents: the projected Payment
 * Schedule, the ledger replayed from the posted payments and assessed fees, payoff quotes and late fees.
 * No I/O; the server loads the rows and asks this module what they add up to.
 *
 * One rule, two views (./loan-schedule keeps the rule): the **ledger** charges simple daily interest,
 * actual/365, on the principal balance and allocates each payment to fees, then the interest accrued to
 * its date, then principal; the **Payment Schedule** (the Truth in Lending schedule the borrower signed)
 * is that same ledger with each installment arriving on its due date. Payments that arrive early or late
 * split differently from the projection, and the final payment absorbs it (SCHEDULE_NOTE says so).
 *
 * The ledger is a replay: the state after any set of posted payments and fees is computed from the
 * loan's terms and those rows, in date order. A reversal removes a payment from the set, so every later
 * payment is re-allocated and the ledger is exactly what it would have been without it.
 */

export const SCHEDULE_NOTE =
  "The Payment Schedule assumes each payment arrives on its due date: interest accrues each day on the unpaid principal (actual/365) and each payment is applied to fees, then interest, then principal. A payment made early or late splits differently, and the final payment absorbs the difference.";

/**
 * A loan's terms as servicing reads them: the schedule's own terms (amount, rate, term, start, payment,
 * the hardship plans signed and the rate caps), and how it ended when it did not pay off: the charge-off
 * day (no interest or fee from it on; later payments are recoveries) and the settlement day (what is
 * left after that day's payments is forgiven).
 */
export type LoanTerms = Omit<ScheduleTerms, "accrualStopsOn"> & { chargedOffOn?: string | null; settledOn?: string | null };

/** `recovery`: received after the loan was charged off (applied after the charge-off, whatever its day). */
export type PostedPayment = { id: string; receivedOn: string; amountCents: number; recovery?: boolean };
export type AssessedFee = { id: string; assessedOn: string; amountCents: number; installmentNumber: number | null };

export type Allocation = {
  paymentId: string;
  receivedOn: string;
  amountCents: number;
  feesCents: number;
  interestCents: number;
  principalCents: number;
  /** What was paid beyond the payoff (returned to the borrower; the balance never goes below zero). */
  excessCents: number;
  principalAfterCents: number;
  /** A payment on a charged-off loan. */
  recovery: boolean;
};

export type InstallmentStatus = PaymentRow & { paid: boolean };

/**
 * What the borrower must pay to be current through the first unpaid installment. A payment pays fees
 * first, so the amount due is what is left of the installments through this one plus every fee due:
 * a borrower who pays exactly `amountDueCents` is current, and the pages say what each part is.
 */
export type NextInstallment = {
  number: number;
  dueDate: string;
  /** What is left unpaid of the scheduled installments through this one. */
  installmentCents: number;
  /** Fees assessed and not yet paid (late, returned payment), which a payment pays first. */
  feesCents: number;
  /** installmentCents + feesCents. */
  amountDueCents: number;
};

export type ServicingStatus = "current" | "late" | "paid_in_full" | "charged_off" | "settled";

export const SERVICING_STATUS_LABELS: Record<ServicingStatus, string> = {
  current: "Current",
  late: "Late",
  paid_in_full: "Paid in Full",
  charged_off: "Charged Off",
  settled: "Settled",
};

/** What the loan owed when it was charged off: principal, the interest accrued to that day, fees. */
export type ChargeOffAmounts = { on: string; principalCents: number; interestCents: number; feesCents: number; totalCents: number };

export type LedgerState = {
  principalCents: number;
  /** Interest accrued and not yet paid, to `asOf`, rounded half-up to the cent. */
  interestAccruedCents: number;
  feesDueCents: number;
  allocations: Allocation[];
  installments: InstallmentStatus[];
  /** The first unpaid installment, or null when every one is paid. */
  nextInstallment: NextInstallment | null;
  /** Days since the first unpaid installment fell due (0 when none is past due). */
  daysPastDue: number;
  status: ServicingStatus;
  /** The balance moved to charged off, when the loan was charged off on or before `asOf`. */
  chargedOff: ChargeOffAmounts | null;
  /** What recoveries (payments after the charge-off) have paid. */
  recoveredCents: number;
  /** What the settlement forgave (principal, interest and fees left after the settlement day's payments): the 1099-C amount. */
  forgivenCents: number;
};

/** Simple interest on `principalCents` for `days` days at the note rate, actual/365, exactly rounded half-up once. */
export function simpleInterestCents(principalCents: number, noteRateMilli: number, days: number): number {
  if (days <= 0 || principalCents <= 0) return 0;
  return Number(roundHalfUp(BigInt(principalCents) * BigInt(noteRateMilli) * BigInt(days), INTEREST_DENOMINATOR));
}

/** The per-diem interest on a principal: cents a day, as exact decimal text with four places ("4.1096"). */
export function perDiem(principalCents: number, noteRateMilli: number): { cents: number; text: string } {
  const scaled = roundHalfUp(BigInt(principalCents) * BigInt(noteRateMilli) * 10_000n, INTEREST_DENOMINATOR * 100n); // hundredths of a cent → dollars with 4 decimals
  const text = `${scaled / 10_000n}.${String(scaled % 10_000n).padStart(4, "0")}`;
  return { cents: simpleInterestCents(principalCents, noteRateMilli, 1), text };
}

/**
 * The projected Payment Schedule: the loan's one schedule (the Truth in Lending schedule the borrower
 * signed). A signed loan is serviced whatever its terms, so terms the disclosure would now refuse (a
 * loan signed under an earlier rule) are projected too, never an error on the loan's pages.
 */
export function projectedSchedule(terms: LoanTerms): PaymentRow[] {
  return projectSchedule(terms, { refuse: false });
}

/** The due date of installment `n` (1-based). */
export function installmentDueDate(terms: LoanTerms, n: number): string {
  return addMonths(terms.startDate, n);
}

type Event =
  | { kind: "fee"; date: string; fee: AssessedFee }
  | { kind: "payment"; date: string; payment: PostedPayment }
  | { kind: "charge_off"; date: string }
  | { kind: "settlement"; date: string };

/** The day a payment applies: its received day, but a recovery never before the charge-off day. */
function recoveryDay(payment: PostedPayment, terms: LoanTerms): string {
  return payment.recovery && terms.chargedOffOn && payment.receivedOn < terms.chargedOffOn ? terms.chargedOffOn : payment.receivedOn;
}

/** On one day: fees, payments, the charge-off, recoveries, the settlement. */
function rank(event: Event): number {
  if (event.kind === "fee") return 0;
  if (event.kind === "payment") return event.payment.recovery ? 3 : 1;
  return event.kind === "charge_off" ? 2 : 4;
}

/**
 * Replays the ledger to `asOf` ('yyyy-MM-dd'), leaving out what is dated later. Events in date order; on one day fees come before
 * payments, and payments keep the order given (posting order). Interest accrues exactly (a rational numerator) from the
 * start date on the principal balance, at the note rate or a lower cap on the days one covers, and not from
 * the charge-off day on; a payment pays fees (oldest first), then the accrued interest
 * rounded half-up to the cent, then principal; anything past the payoff is excess. A recovery (a payment
 * after the charge-off) is applied the same way, after it. On the settlement day, after that day's
 * payments, what is left is forgiven and the balance is zero.
 */
export function replayLedger(terms: LoanTerms, payments: readonly PostedPayment[], fees: readonly AssessedFee[], asOf: string): LedgerState {
  // What happens after asOf is not part of the state on asOf.
  const events: Event[] = [
    ...fees.map((fee): Event => ({ kind: "fee", date: fee.assessedOn, fee })),
    // A recovery applies after the charge-off whatever its received day (a debit sent before the charge-off
    // and settled after it): it is never part of the balance that was charged off.
    ...payments.map((payment): Event => ({ kind: "payment", date: recoveryDay(payment, terms), payment })),
    ...(terms.chargedOffOn ? [{ kind: "charge_off", date: terms.chargedOffOn } as const] : []),
    ...(terms.settledOn ? [{ kind: "settlement", date: terms.settledOn } as const] : []),
  ]
    .filter((event) => event.date <= asOf)
    // On one day by rank, then in the order given: callers pass payments in posting order, so two
    // payments received the same day apply in the order they were recorded (a stable sort).
    .sort((a, b) => (a.date !== b.date ? (a.date < b.date ? -1 : 1) : rank(a) - rank(b)));

  const account = openAccrual(terms.amountCents, terms.noteRateMilli, interestStart(terms), { rateCaps: terms.rateCaps ?? [], accrualStopsOn: terms.chargedOffOn ?? null });
  const feeQueue: FeeDue[] = [];
  const allocations: Allocation[] = [];
  let paidTowardSchedule = 0;
  let chargedOff: ChargeOffAmounts | null = null;
  let recoveredCents = 0;
  let forgivenCents = 0;
  let settled = false;
  const feesOwed = () => feeQueue.reduce((sum, fee) => sum + fee.dueCents, 0);

  for (const event of events) {
    accrueTo(account, event.date);
    if (event.kind === "fee") {
      feeQueue.push({ id: event.fee.id, dueCents: event.fee.amountCents });
      continue;
    }
    if (event.kind === "charge_off") {
      const interestCents = interestDueCents(account);
      const feesCents = feesOwed();
      chargedOff = { on: event.date, principalCents: account.principalCents, interestCents, feesCents, totalCents: account.principalCents + interestCents + feesCents };
      continue;
    }
    if (event.kind === "settlement") {
      forgivenCents = account.principalCents + interestDueCents(account) + feesOwed();
      account.principalCents = 0;
      account.interest = 0n;
      for (const fee of feeQueue) fee.dueCents = 0;
      settled = true;
      continue;
    }
    const { payment } = event;
    const split = applyPayment(account, payment.amountCents, feeQueue);
    const recovery = payment.recovery === true;
    if (recovery) recoveredCents += split.feesCents + split.interestCents + split.principalCents;
    else paidTowardSchedule += split.interestCents + split.principalCents;
    allocations.push({
      paymentId: payment.id,
      receivedOn: payment.receivedOn,
      amountCents: payment.amountCents,
      ...split,
      principalAfterCents: account.principalCents,
      recovery,
    });
  }
  accrueTo(account, asOf);

  const principal = account.principalCents;
  const interestAccruedCents = interestDueCents(account);
  const feesDueCents = feesOwed();
  const paidInFull = principal === 0 && interestAccruedCents === 0 && feesDueCents === 0;

  const schedule = projectedSchedule(terms);
  let cumulative = 0;
  const installments = schedule.map((row): InstallmentStatus => {
    cumulative += row.paymentCents;
    return { ...row, paid: paidInFull || paidTowardSchedule >= cumulative };
  });
  const firstUnpaid = installments.find((row) => !row.paid) ?? null;
  // A charged-off or settled loan has no installment due: the schedule no longer applies.
  const closedOut = chargedOff !== null || settled;
  let nextInstallment: LedgerState["nextInstallment"] = null;
  if (firstUnpaid && !closedOut) {
    const dueThrough = installments.slice(0, firstUnpaid.number).reduce((sum, row) => sum + row.paymentCents, 0);
    const installmentCents = Math.max(0, dueThrough - paidTowardSchedule);
    nextInstallment = { number: firstUnpaid.number, dueDate: firstUnpaid.dueDate, installmentCents, feesCents: feesDueCents, amountDueCents: installmentCents + feesDueCents };
  }
  const daysPastDue = firstUnpaid && !settled ? Math.max(0, daysBetween(firstUnpaid.dueDate, asOf)) : 0;
  return {
    principalCents: principal,
    interestAccruedCents,
    feesDueCents,
    allocations,
    installments,
    nextInstallment,
    daysPastDue,
    status: settled ? "settled" : chargedOff ? "charged_off" : paidInFull ? "paid_in_full" : daysPastDue > 0 ? "late" : "current",
    chargedOff,
    recoveredCents,
    forgivenCents,
  };
}

/** A ledger row as staff read it: the loan's disbursement, a fee assessed, or a payment (any status). */
export type LedgerLine<P> =
  | { kind: "disbursement"; date: string; amountCents: number; principalAfterCents: number }
  | { kind: "fee"; date: string; fee: AssessedFee; principalAfterCents: number }
  | { kind: "payment"; date: string; payment: P; allocation: Allocation | null; principalAfterCents: number }
  /** The balance moved to charged off (what was owed that day); the principal stays on the ledger for recoveries. */
  | { kind: "charge_off"; date: string; amounts: ChargeOffAmounts; principalAfterCents: number }
  /** The settlement: what was left after that day's payments, forgiven (the 1099-C amount); the balance is zero. */
  | { kind: "settlement"; date: string; forgivenCents: number; principalAfterCents: number };

/**
 * The ledger's rows in posting order, with the principal balance after each, so it reads top to
 * bottom like a statement: the disbursement first (the balance is the amount lent), then fees and
 * payments in exactly the order replayLedger applied them (by date; on one day fees first, then the
 * posted payments in replay order), and payments that are not posted (pending, reversed, returned,
 * cancelled, refunds) at their date, carrying the balance unchanged. Only a posted payment lowers the
 * balance, so after the disbursement it never rises. A charged-off loan has its Charge-off line (the
 * amounts owed that day) with the recoveries after it; a settled loan its Settlement line (the amount
 * forgiven), after which the balance is zero. `dateOf` gives a payment's day (its received
 * day, or the day a pending debit was requested).
 */
export function ledgerLines<P extends { id: string; status: string }>(
  terms: LoanTerms,
  state: Pick<LedgerState, "allocations"> & Partial<Pick<LedgerState, "chargedOff" | "forgivenCents" | "status">>,
  fees: readonly AssessedFee[],
  payments: readonly P[],
  dateOf: (payment: P) => string,
): LedgerLine<P>[] {
  const chargedOff = state.chargedOff ?? null;
  const replayOrder = new Map(state.allocations.map((a, i) => [a.paymentId, i]));
  const allocationOf = new Map(state.allocations.map((a) => [a.paymentId, a]));
  type Keyed = { date: string; rank: number; seq: number; toLine: (balance: number) => LedgerLine<P>; allocation: Allocation | null };
  const keyed: Keyed[] = [
    ...fees.map((fee, i): Keyed => ({ date: fee.assessedOn, rank: 0, seq: i, allocation: null, toLine: (balance) => ({ kind: "fee", date: fee.assessedOn, fee, principalAfterCents: balance }) })),
    ...payments.map((payment, i): Keyed => {
      const allocation = payment.status === "posted" ? (allocationOf.get(payment.id) ?? null) : null;
      const date = dateOf(payment);
      // A recovery is applied after the charge-off (on its day at the earliest), so it is listed there.
      const recovery = allocation?.recovery === true && chargedOff !== null;
      return {
        date: recovery && date < chargedOff.on ? chargedOff.on : date,
        rank: recovery ? 3 : 1,
        seq: allocation ? replayOrder.get(payment.id)! : payments.length + i,
        allocation,
        toLine: (balance) => ({ kind: "payment", date, payment, allocation, principalAfterCents: balance }),
      };
    }),
    ...(chargedOff
      ? [{ date: chargedOff.on, rank: 2, seq: 0, allocation: null, toLine: (balance: number): LedgerLine<P> => ({ kind: "charge_off", date: chargedOff.on, amounts: chargedOff, principalAfterCents: balance }) }]
      : []),
    ...(terms.settledOn && state.status === "settled"
      ? [{ date: terms.settledOn, rank: 4, seq: 0, allocation: null, toLine: (): LedgerLine<P> => ({ kind: "settlement", date: terms.settledOn!, forgivenCents: state.forgivenCents ?? 0, principalAfterCents: 0 }) }]
      : []),
  ];
  keyed.sort((a, b) => (a.date !== b.date ? (a.date < b.date ? -1 : 1) : a.rank !== b.rank ? a.rank - b.rank : a.seq - b.seq));
  let balance = terms.amountCents;
  // The ledger opens on the signing day (the loan's start); interest runs from the funding day (interestStart).
  const lines: LedgerLine<P>[] = [{ kind: "disbursement", date: terms.startDate, amountCents: terms.amountCents, principalAfterCents: balance }];
  for (const entry of keyed) {
    if (entry.allocation) balance = entry.allocation.principalAfterCents;
    const line = entry.toLine(balance);
    if (line.kind === "settlement") balance = 0;
    lines.push(line);
  }
  return lines;
}

export type PayoffQuote = {
  goodThrough: string;
  principalCents: number;
  interestCents: number;
  feesCents: number;
  totalCents: number;
  perDiemCents: number;
  /** The per-diem amount in dollars with four decimals, as a payoff letter prints it. */
  perDiemText: string;
};

/** What pays the loan off on `goodThrough`: principal, interest accrued to that day, unpaid fees. */
export function payoffQuote(terms: LoanTerms, payments: readonly PostedPayment[], fees: readonly AssessedFee[], goodThrough: string): PayoffQuote {
  const state = replayLedger(terms, payments, fees, goodThrough);
  const day = perDiem(state.principalCents, terms.noteRateMilli);
  return {
    goodThrough,
    principalCents: state.principalCents,
    interestCents: state.interestAccruedCents,
    feesCents: state.feesDueCents,
    totalCents: state.principalCents + state.interestAccruedCents + state.feesDueCents,
    perDiemCents: day.cents,
    perDiemText: day.text,
  };
}

export type LateFeePolicy = {
  /** Days after the due date before a fee is assessed. */
  graceDays: number;
  /** A flat fee in cents, or a percent of the installment (thousandths of a percent); the larger applies when both are set. */
  flatCents: number;
  percentMilli: number;
  /** The most one late fee can be. */
  capCents: number;
};

/** The late fee for one installment: the larger of the flat amount and the percent of it, capped. */
export function lateFeeCents(installmentCents: number, policy: LateFeePolicy): number {
  const percent = Number(roundHalfUp(BigInt(installmentCents) * BigInt(policy.percentMilli), 100_000n));
  return Math.min(policy.capCents, Math.max(policy.flatCents, percent));
}

/**
 * Installments a late fee is due for on `asOf`: unpaid, their due date plus the grace period passed,
 * and not charged yet (the caller passes the installment numbers already charged; the database's
 * unique key makes "once per installment" hold across instances).
 */
export function installmentsDueALateFee(state: LedgerState, policy: LateFeePolicy, asOf: string, charged: ReadonlySet<number>): InstallmentStatus[] {
  if (state.status === "paid_in_full") return [];
  return state.installments.filter((row) => !row.paid && !charged.has(row.number) && daysBetween(row.dueDate, asOf) > policy.graceDays);
}
