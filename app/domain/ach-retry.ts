/**
 * When a debit returned for insufficient or uncollected funds (R01/R09) is presented again
 * (docs/decisions/0092-ach-retry-policy.md). Pure, no I/O: the reaction engine and the tests read it.
 *
 * Nacha lets an originator reinitiate such an entry at most twice, within 180 days of the original
 * entry's settlement (effective) date. We wait a few banking days after the return, so funds may
 * arrive and a retry is never presented the day the return came back.
 */

import { addBankingDays } from "./banking-days";
import { addDays } from "./dates";
import { ACH_RETRY_LIMIT, ACH_RETRY_WAIT_BANKING_DAYS, ACH_RETRY_WINDOW_DAYS } from "./ach-returns";

/** Why no retry is queued (null in RetryPlan.reason when one is). */
export type NoRetryReason = "limit" | "window";

export type RetryPlan = { day: string; retryNumber: number } | { day: null; reason: NoRetryReason };

/**
 * The retry of a returned debit: the banking day it is to settle and which retry it is (1 or 2), or
 * why there is none. `returnedOn`: the day the bank returned it; `originalEffectiveOn`: the effective
 * date of the file that carried the ORIGINAL debit (a returned retry counts toward the same original);
 * `retriesSoFar`: the retries of that original already queued.
 */
export function retryPlan(returnedOn: string, originalEffectiveOn: string, retriesSoFar: number): RetryPlan {
  if (retriesSoFar >= ACH_RETRY_LIMIT) return { day: null, reason: "limit" };
  const day = addBankingDays(returnedOn, ACH_RETRY_WAIT_BANKING_DAYS);
  if (day > retryDeadline(originalEffectiveOn)) return { day: null, reason: "window" };
  return { day, retryNumber: retriesSoFar + 1 };
}

/** The last day a retry of an entry effective on `originalEffectiveOn` may settle. */
export function retryDeadline(originalEffectiveOn: string): string {
  return addDays(originalEffectiveOn, ACH_RETRY_WINDOW_DAYS);
}

/** The retry's reference: the original's with "-R1" or "-R2". */
export function retryReference(originalReference: string, retryNumber: number): string {
  return `${originalReference}-R${retryNumber}`;
}
