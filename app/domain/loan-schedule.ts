import { installmentCents } from "./loan-math";
import type { RateCap, ScheduleChange, ScheduleChangeOffer } from "./loan-modifications";
import type { Cents, RateMilli } from "./money";

/**
 * The one accrual rule of a loan and the one Payment Schedule projected by it. Pure, no I/O, safe in the
 * browser.
 *
 * Interest is simple and daily, actual/365: each day adds principal × rate ÷ 365, kept exactly as a
 * rational numerator (never rounded while it accrues). A payment pays fees (oldest first), then the
 * accrued interest rounded half-up to the cent (the sub-cent remainder stays accrued), then principal;
 * what is left past the payoff is excess. The ledger (replayLedger) replays the posted payments through
 * these functions, and the schedule (projectSchedule) posts each installment on its due date through the
 * same functions, so what the borrower signs and what servicing does cannot drift apart.
 */

export type PaymentRow = {
  number: number;
  dueDate: string;
  paymentCents: number;
  principalCents: number;
  interestCents: number;
  /** What is still owed after this payment. */
  balanceCents: number;
};

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;
/** Interest numerator units: cents × thousandths of a percent × days; ÷ this gives cents. */
export const INTEREST_DENOMINATOR = 100n * 1000n * 365n;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** A 'yyyy-MM-dd' calendar date (years 1900 to 2200); RangeError naming `name` otherwise. */
export function parseDate(value: string, name = "signedOn"): { year: number; month: number; day: number } {
  const match = typeof value === "string" ? DATE.exec(value) : null;
  const [year, month, day] = match ? [Number(match[1]), Number(match[2]), Number(match[3])] : [0, 0, 0];
  if (!match || year < 1900 || year > 2200 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    throw new RangeError(`${name} must be a calendar date written yyyy-MM-dd (got ${JSON.stringify(value)}).`);
  }
  return { year, month, day };
}

/**
 * The date `months` months after `date`, on the same day of the month, or the month's last day when it has
 * no such day. Always counted from `date` itself, not from the previous payment, so a loan signed on
 * January 31 falls due on February 28 (29), then March 31: Appendix J (b)(3)(iv) counts each as a full month.
 */
export function addMonths(date: string, months: number): string {
  if (!Number.isInteger(months) || months < 0) throw new RangeError(`months must be a whole number, 0 or more (got ${String(months)}).`);
  const { year, month, day } = parseDate(date);
  const index = month - 1 + months;
  const y = year + Math.floor(index / 12);
  const m = (((index % 12) + 12) % 12) + 1;
  const d = Math.min(day, daysInMonth(y, m));
  return `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

function dayNumber(date: string): number {
  const ms = Date.parse(`${date}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(ms)) throw new RangeError(`not a date yyyy-MM-dd: ${JSON.stringify(date)}`);
  return Math.round(ms / DAY_MS);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}

/** numerator ÷ denominator rounded half-up (away from zero on a half), exactly. */
export function roundHalfUp(numerator: bigint, denominator: bigint): bigint {
  if (numerator >= 0n) return (2n * numerator + denominator) / (2n * denominator);
  return -((2n * -numerator + denominator) / (2n * denominator));
}

/** A loan's running account: unpaid principal and the interest accrued on it, exactly, through a day. */
export type Accrual = {
  readonly noteRateMilli: RateMilli;
  /** Periods in which the rate may not exceed a cap (SCRA), days inclusive. */
  readonly rateCaps: readonly RateCap[];
  /** From this day on no interest accrues (the loan was charged off); null while it does. */
  readonly accrualStopsOn: string | null;
  principalCents: Cents;
  /** Accrued, unpaid interest in numerator units (÷ INTEREST_DENOMINATOR = cents). */
  interest: bigint;
  /** The day interest has accrued to. */
  through: string;
};

/** A fee assessed and what of it is still due; a payment pays these first, oldest first. */
export type FeeDue = { id: string; dueCents: Cents };

export type PaymentSplit = { feesCents: Cents; interestCents: Cents; principalCents: Cents; excessCents: Cents };

/** The account of a loan on its signing day: the whole amount lent, no interest yet. */
export function openAccrual(
  amountCents: Cents,
  noteRateMilli: RateMilli,
  startDate: string,
  { rateCaps = [], accrualStopsOn = null }: { rateCaps?: readonly RateCap[]; accrualStopsOn?: string | null } = {},
): Accrual {
  return { noteRateMilli, rateCaps, accrualStopsOn, principalCents: amountCents, interest: 0n, through: startDate };
}

/** The day after `date` ('yyyy-MM-dd'). */
function nextDay(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
}

/** The rate that applies on `date`: the note rate, lowered by any cap covering the day, 0 once accrual stops. */
function rateOn(account: Accrual, date: string): number {
  if (account.accrualStopsOn !== null && date >= account.accrualStopsOn) return 0;
  let rate = account.noteRateMilli;
  for (const cap of account.rateCaps) if (cap.from <= date && (cap.through === null || date <= cap.through) && cap.rateMilli < rate) rate = cap.rateMilli;
  return rate;
}

/**
 * Accrues simple daily interest (actual/365) on the principal up to `date`; a date not later does
 * nothing. Each day `through` … `date`−1 accrues at the rate that applies on it (rateOn), so a cap or the
 * charge-off day splits the period exactly where it starts or ends.
 */
export function accrueTo(account: Accrual, date: string): void {
  if (daysBetween(account.through, date) <= 0) return;
  if (account.rateCaps.length === 0 && account.accrualStopsOn === null) {
    account.interest += BigInt(account.principalCents) * BigInt(account.noteRateMilli) * BigInt(daysBetween(account.through, date));
    account.through = date;
    return;
  }
  // The days where the rate may change, inside (through, date): a cap's first day and the day after its last, the stop day.
  const breaks = new Set<string>();
  for (const cap of account.rateCaps) {
    breaks.add(cap.from);
    if (cap.through !== null) breaks.add(nextDay(cap.through));
  }
  if (account.accrualStopsOn !== null) breaks.add(account.accrualStopsOn);
  const cuts = [...breaks].filter((d) => d > account.through && d < date).sort();
  let from = account.through;
  for (const to of [...cuts, date]) {
    account.interest += BigInt(account.principalCents) * BigInt(rateOn(account, from)) * BigInt(daysBetween(from, to));
    from = to;
  }
  account.through = date;
}

/** The accrued interest as a payment would take it: rounded half-up to the cent (never below 0). */
export function interestDueCents(account: Accrual): Cents {
  return Math.max(0, Number(roundHalfUp(account.interest, INTEREST_DENOMINATOR)));
}

/**
 * Applies a payment of `amountCents` received on the day the account has accrued to: fees (oldest first,
 * reducing `fees` in place), then the accrued interest rounded half-up, then principal; the rest is
 * excess. When the principal is paid off, a remainder of interest under half a cent goes with it.
 */
export function applyPayment(account: Accrual, amountCents: Cents, fees: FeeDue[] = []): PaymentSplit {
  let left = amountCents;
  let feesCents = 0;
  for (const fee of fees) {
    const pay = Math.min(left, fee.dueCents);
    fee.dueCents -= pay;
    feesCents += pay;
    left -= pay;
  }
  const interestCents = Math.min(left, interestDueCents(account));
  account.interest -= BigInt(interestCents) * INTEREST_DENOMINATOR;
  left -= interestCents;
  const principalCents = Math.min(left, account.principalCents);
  account.principalCents -= principalCents;
  left -= principalCents;
  if (account.principalCents === 0 && account.interest > 0n && account.interest < INTEREST_DENOMINATOR / 2n) account.interest = 0n;
  return { feesCents, interestCents, principalCents, excessCents: left };
}

/** The last payment of a schedule with regular payment `paymentCents` (never refused; see projectSchedule). */
function lastPaymentWith(terms: Omit<ScheduleTerms, "paymentCents">, paymentCents: Cents): Cents {
  const account = openAccrual(terms.amountCents, terms.noteRateMilli, interestStart(terms));
  for (let number = 1; number < terms.termMonths; number++) {
    accrueTo(account, addMonths(terms.startDate, number));
    applyPayment(account, Math.min(paymentCents, account.principalCents + interestDueCents(account)));
  }
  accrueTo(account, addMonths(terms.startDate, terms.termMonths));
  return account.principalCents + interestDueCents(account);
}

/**
 * The regular payment of a loan signed on `startDate`: the smallest whole number of cents that repays it
 * in `termMonths` level payments under the ledger's own rule (interest by the day, actual/365, from the
 * signing day, each installment on its due date), so the last payment is never larger than the others.
 * The monthly annuity formula (installmentCents, the calculator's estimate at the rate ÷ 12) does not:
 * months of 31 days and the real first period charge more than a twelfth of the rate, and over long
 * terms the shortfall compounds into a balloon, or a payment below a long month's interest. The last
 * payment falls as the regular one rises, so a bisection finds it, starting from the calculator's
 * estimate (between what repays the principal alone and what repays everything at once).
 */
export function levelPaymentCents(terms: Omit<ScheduleTerms, "paymentCents">): Cents {
  const { amountCents, noteRateMilli, termMonths } = terms;
  const repays = (payment: Cents) => lastPaymentWith(terms, payment) <= payment;
  // Bracket it near the estimate (the two differ by the days a month has beyond a twelfth of a year),
  // widening the step until one side repays and the other does not, then halve the bracket.
  const estimate = installmentCents(amountCents, noteRateMilli, termMonths);
  const floor = Math.max(0, Math.ceil(amountCents / termMonths) - 1); // repays no interest: never enough (or 0)
  const ceiling = amountCents + lastPaymentWith({ ...terms, termMonths: 1 }, amountCents); // all at the first due date
  let step = Math.max(1, Math.ceil(estimate / 2000));
  let low: Cents;
  let high: Cents;
  if (repays(estimate)) {
    high = estimate;
    low = Math.max(floor, estimate - step);
    while (low > floor && repays(low)) {
      high = low;
      step *= 2;
      low = Math.max(floor, low - step);
    }
  } else {
    low = estimate;
    high = Math.min(ceiling, estimate + step);
    while (high < ceiling && !repays(high)) {
      low = high;
      step *= 2;
      high = Math.min(ceiling, high + step);
    }
  }
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (repays(mid)) high = mid;
    else low = mid;
  }
  return high;
}

/** The day interest starts: the funding day, never before the day the agreement's figures assume. */
export function interestStart(terms: Pick<ScheduleTerms, "startDate" | "interestFrom">): string {
  return terms.interestFrom && terms.interestFrom > terms.startDate ? terms.interestFrom : terms.startDate;
}

export type ScheduleTerms = {
  amountCents: Cents;
  noteRateMilli: RateMilli;
  termMonths: number;
  /** The signing day, 'yyyy-MM-dd': installment k falls due k months later; interest accrues from it unless `interestFrom` is later. */
  startDate: string;
  /**
   * The day interest starts when later than startDate: the day the proceeds settled, or the expected
   * funding day the agreement's figures assume while they have not (never earlier than that day).
   */
  interestFrom?: string | null;
  /** The regular payment: the loan's stored one, or the level payment of its signing day when not given. */
  paymentCents?: Cents;
  /** Hardship plans the borrower signed, in the order signed (./loan-modifications). */
  changes?: readonly ScheduleChange[];
  /** Periods in which interest may not exceed a cap (SCRA), days inclusive. */
  rateCaps?: readonly RateCap[];
  /** The charge-off day: from it on no interest accrues. */
  accrualStopsOn?: string | null;
};

/** One installment of a schedule being built: due `offset` months after `anchor`; the amount, or null for the last (pays what is left). */
type Slot = { anchor: string; offset: number; paymentCents: Cents | null };

const dueOf = (slot: Slot) => addMonths(slot.anchor, slot.offset);

/** The account a schedule is projected on: the loan's amount from the day interest starts, its rate caps. */
function projectionAccount(terms: ScheduleTerms): Accrual {
  return openAccrual(terms.amountCents, terms.noteRateMilli, interestStart(terms), { rateCaps: terms.rateCaps ?? [] });
}

/** Posts each slot's amount on its due date (never more than is owed; the last pays what is left). */
function runSlots(terms: ScheduleTerms, slots: readonly Slot[], refuseEarlyEnd = false): PaymentRow[] {
  const account = projectionAccount(terms);
  return slots.map((slot, index): PaymentRow => {
    const dueDate = dueOf(slot);
    accrueTo(account, dueDate);
    const owed = account.principalCents + interestDueCents(account);
    const last = slot.paymentCents === null;
    if (refuseEarlyEnd && !last && slot.paymentCents! >= owed) {
      throw new RangeError(
        `A regular payment of ${slot.paymentCents} cents would repay ${terms.amountCents} cents at ${terms.noteRateMilli / 1000} % before month ${slots.length}: ` +
          "it would end the loan early (a cent less would leave a balloon). Choose a larger amount, a lower rate or a shorter term.",
      );
    }
    const split = applyPayment(account, last ? owed : Math.min(slot.paymentCents!, owed));
    return { number: index + 1, dueDate, paymentCents: split.interestCents + split.principalCents, principalCents: split.principalCents, interestCents: split.interestCents, balanceCents: account.principalCents };
  });
}

/** A change's first installment must exist and (but for a due-date change) not be the last one alone. */
function checkChange(slots: readonly Slot[], change: Pick<ScheduleChange, "fromInstallment" | "kind"> & { months?: number }): void {
  const span = change.kind === "payment_plan" ? (change.months ?? 1) : 1;
  if (change.fromInstallment > slots.length) throw new RangeError(`installment ${change.fromInstallment} is not in a schedule of ${slots.length}`);
  if (change.kind === "payment_plan" && change.fromInstallment + span - 1 >= slots.length) {
    throw new RangeError(`a payment plan of ${span} month(s) from installment ${change.fromInstallment} must leave at least the last installment after it (the schedule has ${slots.length})`);
  }
}

/** The slots after the reduced months of a payment plan, with `later` as their amount (the last stays null). */
function withPlan(slots: readonly Slot[], from: number, months: number, reduced: Cents, later: Cents): Slot[] {
  return slots.map((slot, i) => {
    const n = i + 1;
    if (slot.paymentCents === null) return slot;
    if (n >= from && n < from + months) return { ...slot, paymentCents: reduced };
    if (n >= from + months) return { ...slot, paymentCents: later };
    return slot;
  });
}

function applyChange(slots: readonly Slot[], change: ScheduleChange): Slot[] {
  checkChange(slots, change);
  const from = change.fromInstallment;
  switch (change.kind) {
    case "deferment":
      return slots.map((slot, i) => (i + 1 >= from ? { ...slot, offset: slot.offset + change.count } : slot));
    case "due_date_change": {
      const old = dueOf(slots[from - 1]!);
      const sameMonth = `${old.slice(0, 8)}${String(change.dueDay).padStart(2, "0")}`;
      const first = sameMonth >= old ? sameMonth : addMonths(sameMonth, 1);
      return slots.map((slot, i) => (i + 1 >= from ? { ...slot, anchor: first, offset: i + 1 - from } : slot));
    }
    case "payment_plan":
      return withPlan(slots, from, change.months, change.reducedPaymentCents, change.laterPaymentCents);
  }
}

/** The slots of the loan's schedule: the signed one (monthly from the start, level payments), then each change in order. */
function scheduleSlots(terms: ScheduleTerms): Slot[] {
  const paymentCents = terms.paymentCents ?? levelPaymentCents(terms);
  let slots: Slot[] = Array.from({ length: terms.termMonths }, (_, i) => ({ anchor: terms.startDate, offset: i + 1, paymentCents: i + 1 === terms.termMonths ? null : paymentCents }));
  for (const change of terms.changes ?? []) slots = applyChange(slots, change);
  return slots;
}

/**
 * A payment plan's later payment: the smallest whole number of cents that, paid on every installment
 * after the reduced months but the last, leaves a last payment no larger than itself (the shortfall
 * spread over the rest). The last payment falls as it rises, so a bisection finds it. RangeError when
 * the plan does not fit the schedule now in force.
 */
export function planLaterPaymentCents(terms: ScheduleTerms, plan: { fromInstallment: number; months: number; reducedPaymentCents: Cents }): Cents {
  const slots = scheduleSlots(terms);
  checkChange(slots, { kind: "payment_plan", ...plan });
  const lastWith = (later: Cents) => runSlots(terms, withPlan(slots, plan.fromInstallment, plan.months, plan.reducedPaymentCents, later)).at(-1)!.paymentCents;
  let low = 0;
  let high = Math.max(1, terms.amountCents * 2);
  while (lastWith(high) > high) high *= 2;
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (lastWith(mid) <= mid) high = mid;
    else low = mid;
  }
  return lastWith(low) <= low ? low : high;
}

/** The change a plan offer becomes when signed on `signedOn`: a payment plan gets its later payment worked out on the schedule now in force. */
export function signedChange(terms: ScheduleTerms, offer: ScheduleChangeOffer, signedOn: string): ScheduleChange {
  if (offer.kind === "payment_plan") return { ...offer, signedOn, laterPaymentCents: planLaterPaymentCents(terms, offer) };
  return { ...offer, signedOn };
}

/**
 * The Payment Schedule by the ledger's own rule, assuming each installment arrives on its due date:
 * installment k is due `addMonths(startDate, k)`, interest accrues daily from the signing day (so the
 * first period is the real one, and each month has its own number of days), every installment but the
 * last is the regular payment, and the last is whatever then pays the loan off (principal plus the
 * accrued interest rounded half-up). Posting these amounts on these days to the ledger ends at exactly 0.
 * The level payment (the default) always repays the loan this way. A given payment is refused with a
 * RangeError when it would end the loan before its last month or leave a last payment larger than two
 * regular ones (a balloon, which the disclosure does not describe; a payment that never reduces the
 * principal leaves the whole amount to the end). An early installment may not cover a 31-day month's
 * interest at high rates over long terms: the rest stays accrued (never added to the principal) and
 * the next installments pay it, as the ledger would. With
 * `refuse: false` (a loan already signed, which must be serviced whatever its terms) it projects them
 * anyway: an installment never pays more than is owed, and the last one pays off what is left.
 */
export function projectSchedule(terms: ScheduleTerms, { refuse = true }: { refuse?: boolean } = {}): PaymentRow[] {
  const paymentCents = terms.paymentCents ?? levelPaymentCents(terms);
  const slots = scheduleSlots({ ...terms, paymentCents });
  // A signed hardship plan is serviced as signed; the refusals are about the terms of a new loan.
  const checking = refuse && (terms.changes ?? []).length === 0;
  const schedule = runSlots(terms, slots, checking);
  const lastPayment = schedule.at(-1)!.paymentCents;
  if (checking && lastPayment > 2 * paymentCents) {
    throw new RangeError(
      `The last payment would be ${lastPayment} cents against a regular ${paymentCents}: a balloon payment. Choose a larger amount, a lower rate or a shorter term.`,
    );
  }
  return schedule;
}
