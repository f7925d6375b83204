import type { ReturnReactionKind } from "./ach-returns";
import { formatDay } from "./formats";

/**
 * What happens after the bank returned a borrower's debit, in the borrower's words: one sentence for
 * the loan page's Returned Payments and the same one in the e-mail, so both say the same thing. Pure.
 */

export type ReturnedDebitFacts = {
  kind: ReturnReactionKind;
  /** The next presentation of this debit (its retry), when one was queued. */
  retry: { status: string; scheduledOn: string | null; receivedOn: string | null; cancelReason?: string | null } | null;
  /** Whether the debit was an autopay debit or the retry of one (autopay stopped with the return). */
  fromAutopay: boolean;
  /** Whether a bankruptcy stay is in force: nothing is presented again, and nothing is asked for, while it lasts. */
  stayed?: boolean;
};

export const RETURNED_DEBIT_NEXT_STEPS = {
  retry: (day: string) => `We will try again on ${formatDay(day)}.`,
  retried: (day: string) => `We tried again and collected it on ${formatDay(day)}.`,
  retriedReturned: (day: string) => `We tried again on ${formatDay(day)}; that debit was returned too.`,
  retryCancelled: (reason: string) => `We did not try again: ${reason.replace(/\.$/, "")}.`,
  noRetry: "We will not try again: make a payment from this page.",
  noRetryStayed: "We will not try again while your bankruptcy case is open.",
  unusableAutopay: "Autopay is off: add another bank account.",
  unusable: "This bank account cannot be used again: add another bank account.",
  blockedAutopay: "Autopay is off and this account is blocked: contact us.",
  blocked: "This account is blocked for debits: contact us.",
} as const;

/** The sentence for one returned debit. */
export function returnedDebitNextStep(facts: ReturnedDebitFacts): string {
  const s = RETURNED_DEBIT_NEXT_STEPS;
  if (facts.kind === "account_unusable") return facts.fromAutopay ? s.unusableAutopay : s.unusable;
  if (facts.kind === "unauthorized") return facts.fromAutopay ? s.blockedAutopay : s.blocked;
  const retry = facts.retry;
  if (retry?.status === "pending" && retry.scheduledOn) return s.retry(retry.scheduledOn);
  if (retry?.status === "posted" && retry.receivedOn) return s.retried(retry.receivedOn);
  if (retry?.status === "returned" && retry.scheduledOn) return s.retriedReturned(retry.scheduledOn);
  if (retry?.status === "cancelled" && retry.cancelReason) return s.retryCancelled(retry.cancelReason);
  return facts.stayed ? s.noRetryStayed : s.noRetry;
}

/** One returned debit on the borrower's loan page (Returned Payments); no account numbers. */
export type ReturnedDebitView = {
  paymentId: string;
  reference: string;
  amountCents: number;
  returnedOn: string;
  returnCode: string;
  /** The code's label ("Insufficient Funds"), or "" for a code outside the common list. */
  returnLabel: string;
  /** Whether this debit was itself a retry of a returned one. */
  isRetry: boolean;
  nextStep: string;
};

/** What a return did, in one line for staff (the Mark Returned toast, the import's line). */
export function returnOutcomeForStaff(r: {
  kind: string;
  retry: { scheduledOn: string; retryNumber: number } | null;
  feeCents: number | null;
  autopayStopped: boolean;
  flagId: string | null;
  cancelledPaymentIds: readonly string[];
  reopened: boolean;
  refundsDueHeld?: number;
}): string {
  const parts: string[] = [];
  if (r.reopened) parts.push("The loan is no longer paid in full.");
  if (r.refundsDueHeld) parts.push(`It has ${r.refundsDueHeld === 1 ? "a debit" : `${r.refundsDueHeld} debits`} marked Refund Due: decide whether to refund or apply ${r.refundsDueHeld === 1 ? "it" : "them"}.`);
  if (r.retry) parts.push(`Retry ${r.retry.retryNumber} queued for ${formatDay(r.retry.scheduledOn)}.`);
  else if (r.kind === "retry" || r.kind === "no_retry") parts.push("Not retried.");
  if (r.feeCents !== null) parts.push("A returned-payment fee was assessed.");
  if (r.kind === "account_unusable") parts.push("The account is marked unusable.");
  if (r.kind === "unauthorized") parts.push("The account is blocked for debits.");
  if (r.autopayStopped) parts.push("Autopay stopped.");
  if (r.cancelledPaymentIds.length > 0) parts.push(`${r.cancelledPaymentIds.length} unsent ${r.cancelledPaymentIds.length === 1 ? "debit" : "debits"} cancelled.`);
  if (r.flagId) parts.push("Flagged for review.");
  return parts.join(" ");
}
