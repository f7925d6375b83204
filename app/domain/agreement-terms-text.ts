import { formatDay } from "./formats";
import { formatMoney, formatRate, type Cents, type RateMilli } from "./money";
import type { ServicingTerms } from "./servicing-terms";
import type { LateFeePolicy } from "./loan-servicing";

/**
 * The words of the servicing terms a borrower signs, written from the stored `ServicingTerms` and the
 * offer's figures, so the note and the disclosure box say what the ledger does: simple interest
 * accrued daily at actual/365 (replayLedger), payments to fees, then interest, then principal, the late
 * fee exactly as `lateFeeCents` charges it after the grace days (or none), the returned-payment fee (or
 * none), no prepayment penalty and an origination fee that is not refunded.
 *
 * The box lines follow Regulation Z's model form H-2 (12 CFR 1026 Appendix H): Late Charge (1026.18(l)),
 * Prepayment (18(k)) and the reference to the contract documents (18(p)). Pure, no I/O, safe in the
 * browser: the offer card, the Review and Sign page and the signed PDF print the same strings.
 */

/** One paragraph of the note: its heading ("LATE CHARGE") and its text, numbered where the note is assembled. */
export type NoteParagraph = { title: string; text: string };

/** One line of the disclosure box under the four figures: "Late Charge: …", or a line without a label (18(p)). */
export type DisclosureLine = { label: string | null; text: string };

/** What the note's terms need besides the servicing terms: the offer's figures and its schedule's dates. */
export type NoteFigures = {
  noteRateMilli: RateMilli;
  originationFeeCents: Cents;
  paymentCents: Cents;
  finalPaymentCents: Cents;
  paymentCount: number;
  /** 'yyyy-MM-dd'. */
  firstDueDate: string;
  /** 'yyyy-MM-dd'. */
  lastDueDate: string;
  /** 'yyyy-MM-dd': the day the proceeds are expected to reach the borrower, which the figures assume. */
  expectedFundingDate: string;
};

/**
 * A percent as exact text with the sign: "5%", "2.5%", "2.125%". The short style drops trailing zeros
 * but rounds to two decimals, so a rate with a third decimal keeps all three.
 */
function percent(rate: RateMilli): string {
  return `${formatRate(rate, { style: rate % 10 === 0 ? "short" : "fixed" })}%`;
}

function days(count: number): string {
  return `${count} ${count === 1 ? "day" : "days"}`;
}

/**
 * What a late fee amounts to, in the terms `lateFeeCents` computes it: min(cap, max(flat, percent of the
 * installment)). A fee that can never be more than zero is none; a cap at or under the flat amount (or
 * no percent) makes it a flat fee of the smaller of the two.
 */
type LateFeeShape = { kind: "none" } | { kind: "flat"; cents: Cents } | { kind: "percent"; rate: RateMilli; capCents: Cents } | { kind: "greater"; flatCents: Cents; rate: RateMilli; capCents: Cents };

function lateFeeShape(fee: LateFeePolicy | null): LateFeeShape {
  if (!fee || fee.capCents <= 0 || (fee.flatCents <= 0 && fee.percentMilli <= 0)) return { kind: "none" };
  if (fee.percentMilli <= 0 || fee.capCents <= fee.flatCents) return { kind: "flat", cents: Math.min(fee.flatCents, fee.capCents) };
  if (fee.flatCents <= 0) return { kind: "percent", rate: fee.percentMilli, capCents: fee.capCents };
  return { kind: "greater", flatCents: fee.flatCents, rate: fee.percentMilli, capCents: fee.capCents };
}

/** The fee's amount in words, `of` naming what the percent is of ("the scheduled payment", "the payment"). */
function lateFeeAmount(shape: Exclude<LateFeeShape, { kind: "none" }>, of: string, cap: string): string {
  switch (shape.kind) {
    case "flat":
      return formatMoney(shape.cents);
    case "percent":
      return `${percent(shape.rate)} of ${of}, ${cap} ${formatMoney(shape.capCents)}`;
    case "greater":
      return `the greater of ${formatMoney(shape.flatCents)} or ${percent(shape.rate)} of ${of}, ${cap} ${formatMoney(shape.capCents)}`;
  }
}

function lateChargeParagraph(terms: ServicingTerms): NoteParagraph {
  const shape = lateFeeShape(terms.lateFee);
  if (shape.kind === "none") return { title: "LATE CHARGE", text: "This agreement charges no late charge." };
  const grace = terms.lateFee!.graceDays;
  // The ledger charges the fee once the installment is still unpaid more than the grace days after its due date.
  const when = grace === 0 ? "by its due date" : `within ${days(grace)} after its due date`;
  return {
    title: "LATE CHARGE",
    text: `If any payment is not received in full ${when}, I will pay a late charge of ${lateFeeAmount(shape, "the scheduled payment", "but no more than")}, once for that payment. The late charge does not bear interest.`,
  };
}

function returnedPaymentParagraph(terms: ServicingTerms): NoteParagraph {
  const fee = terms.returnedPaymentFeeCents;
  return {
    title: "RETURNED PAYMENT",
    text:
      fee === null
        ? "This agreement charges no fee for a payment returned unpaid by my bank. A returned payment does not count as paid."
        : `If a payment I make is returned unpaid by my bank, I will pay a returned payment fee of ${formatMoney(fee)}. A returned payment does not count as paid.`,
  };
}

/**
 * The note's servicing paragraphs, in order: INTEREST, PAYMENTS, LATE CHARGE, RETURNED PAYMENT,
 * PREPAYMENT and DEFAULT. The promise to pay, the governing law and the electronic signature are the
 * note's own and stay where it assembles them.
 */
export function noteServicingParagraphs(terms: ServicingTerms, figures: NoteFigures): NoteParagraph[] {
  const rate = `${formatRate(figures.noteRateMilli)}%`;
  const regular = formatMoney(figures.paymentCents);
  const count = figures.paymentCount;
  const payments =
    figures.finalPaymentCents === figures.paymentCents
      ? `I will pay ${count} monthly payments of ${regular} each.`
      : `I will pay ${count - 1} monthly payments of ${regular} and a final payment of ${formatMoney(figures.finalPaymentCents)}.`;
  const fee = figures.originationFeeCents;
  return [
    {
      title: "INTEREST",
      text: `Interest is charged on the unpaid principal from the day the loan's proceeds are credited to my account until the principal is paid in full, at a yearly rate of ${rate}. The proceeds are expected to be credited on ${formatDay(figures.expectedFundingDate)}, and the disclosures and the payment amounts assume that day; if they are credited later, interest starts later and my final payment is smaller. It is simple interest accrued daily: each day's interest is the unpaid principal times the yearly rate divided by 365 (a year of 365 days, leap years included). Interest is not charged on unpaid interest or on fees.`,
    },
    {
      title: "PAYMENTS",
      text: `${payments} The first payment is due on ${formatDay(figures.firstDueDate)} and the others on the same day of each following month (or that month's last day when it has no such day); the last is due on ${formatDay(figures.lastDueDate)}. These amounts assume each payment is received on its due date. Each payment is applied first to any fees then due, oldest first, then to the interest accrued to the date the payment is received, and then to principal. A payment received early pays less interest and more principal than the schedule shows, and one received late pays more interest and less principal, so the final payment is adjusted to the amount I then owe.`,
    },
    lateChargeParagraph(terms),
    returnedPaymentParagraph(terms),
    {
      title: "PREPAYMENT",
      text: [
        "I may pay all or part of the principal at any time without a prepayment penalty, and interest stops on the principal I repay from the day the payment is received.",
        "A partial prepayment does not change the due dates or the amounts of my monthly payments unless the Lender agrees in writing.",
        ...(fee > 0 ? [`The Origination Fee of ${formatMoney(fee)} is a prepaid finance charge, earned when the loan is made, and is not refunded if I pay early.`] : []),
      ].join(" "),
    },
    {
      title: "DEFAULT",
      text: "I will be in default if I do not pay the full amount of any payment when it is due. If I am in default, the Lender may, after giving me any notice and any time to cure the default that the law requires, require me to pay at once the unpaid principal, the interest accrued on it and any fees I owe under this agreement.",
    },
  ];
}

/** The note's paragraph as printed: "4. LATE CHARGE. If any payment …". */
export function numberedParagraph(number: number, paragraph: NoteParagraph): string {
  return `${number}. ${paragraph.title}. ${paragraph.text}`;
}

/** The (p) line of the box, as model form H-2 words it. */
export const CONTRACT_REFERENCE_LINE =
  "See your contract documents for any additional information about nonpayment, default, any required repayment in full before the scheduled date, and prepayment refunds and penalties.";

/**
 * The disclosure box's lines under the four figures, in model form H-2's words: Late Charge, Prepayment
 * and the reference to the contract documents. With an origination fee the prepayment line says that
 * part of the finance charge is not refunded (1026.18(k)(2)): the fee is earned at signing, while
 * interest, accrued daily, is charged only for the days the principal is unpaid.
 */
export function disclosureBoxLines(terms: ServicingTerms, figures: Pick<NoteFigures, "originationFeeCents">): DisclosureLine[] {
  const shape = lateFeeShape(terms.lateFee);
  const late =
    shape.kind === "none"
      ? "This loan has no late charge."
      : `If a payment is ${terms.lateFee!.graceDays === 0 ? "late" : `more than ${days(terms.lateFee!.graceDays)} late`}, you will be charged ${lateFeeAmount(shape, "the payment", "up to")}.`;
  const fee = figures.originationFeeCents;
  const prepayment =
    fee > 0
      ? `If you pay off early, you will not have to pay a penalty, and you will not be entitled to a refund of part of the finance charge: the ${formatMoney(fee)} origination fee is not refunded. Interest is charged only for the days the principal is unpaid.`
      : "If you pay off early, you will not have to pay a penalty. Interest is charged only for the days the principal is unpaid.";
  return [
    { label: "Late Charge", text: late },
    { label: "Prepayment", text: prepayment },
    { label: null, text: CONTRACT_REFERENCE_LINE },
  ];
}

/** A box line as one string: "Late Charge: If a payment is …". */
export function disclosureLineText(line: DisclosureLine): string {
  return line.label ? `${line.label}: ${line.text}` : line.text;
}
