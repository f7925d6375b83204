/**
 * What the product does when the bank returns a borrower's debit, by its NACHA return code
 * (docs/decisions/0093-ach-return-code-reactions.md), and the limits on trying a debit again
 * (docs/decisions/0092-ach-retry-policy.md). Pure, no I/O: the reaction engine, the pages and the tests
 * read the same table.
 */

import type { AccountRestrictionKind } from "./servicing-enums";

/**
 * retry: insufficient or uncollected funds (R01/R09): the entry may be presented again, at most
 * ACH_RETRY_LIMIT times within ACH_RETRY_WINDOW_DAYS of the original's effective date.
 * account_unusable: the account is closed, missing or invalid (R02/R03/R04): autopay stops, the
 * account is unusable, the borrower is asked for another.
 * unauthorized: the borrower says the debit was not authorised or revoked it (R05/R07/R10/R11/R29):
 * autopay stops, the account is blocked for debits, staff review the case, never a retry.
 * no_retry: anything else (stopped payment, frozen or non-transaction account): told, not retried.
 */
export type ReturnReactionKind = "retry" | "account_unusable" | "unauthorized" | "no_retry";

export type ReturnReaction = {
  kind: ReturnReactionKind;
  /** Whether autopay stops. */
  stopsAutopay: boolean;
  /** What becomes of the account (null: it stays usable). */
  restriction: AccountRestrictionKind | null;
  /** Whether staff must look at the case (loan_flags). */
  flagsStaff: boolean;
};

const REACTIONS: Record<ReturnReactionKind, ReturnReaction> = {
  retry: { kind: "retry", stopsAutopay: false, restriction: null, flagsStaff: false },
  account_unusable: { kind: "account_unusable", stopsAutopay: true, restriction: "unusable", flagsStaff: false },
  unauthorized: { kind: "unauthorized", stopsAutopay: true, restriction: "blocked", flagsStaff: true },
  no_retry: { kind: "no_retry", stopsAutopay: false, restriction: null, flagsStaff: false },
};

export const RETRYABLE_RETURN_CODES = ["R01", "R09"] as const;
export const ACCOUNT_UNUSABLE_RETURN_CODES = ["R02", "R03", "R04"] as const;
/** The codes Nacha counts in the unauthorised return rate (watched above 0.5 %). */
export const UNAUTHORIZED_RETURN_CODES = ["R05", "R07", "R10", "R11", "R29"] as const;

/** The reaction to a return code (any R code the bank may send; unknown ones are not retried). */
export function returnReaction(code: string): ReturnReaction {
  if ((RETRYABLE_RETURN_CODES as readonly string[]).includes(code)) return REACTIONS.retry;
  if ((ACCOUNT_UNUSABLE_RETURN_CODES as readonly string[]).includes(code)) return REACTIONS.account_unusable;
  if ((UNAUTHORIZED_RETURN_CODES as readonly string[]).includes(code)) return REACTIONS.unauthorized;
  return REACTIONS.no_retry;
}

/** Nacha's reinitiation limit: an entry returned for funds may be presented again at most twice. */
export const ACH_RETRY_LIMIT = 2;
/** …and only within 180 days of the original entry's settlement (effective) date. */
export const ACH_RETRY_WINDOW_DAYS = 180;
/** A retry waits this many banking days after the return (never the same day; time for funds to arrive). */
export const ACH_RETRY_WAIT_BANKING_DAYS = 5;
/** Nacha requires a reinitiated entry's Company Entry Description to read exactly this. */
export const RETRY_ENTRY_DESCRIPTION = "RETRY PYMT";

/** Nacha's return-rate thresholds: unauthorised 0.5 %, administrative (R02/R03/R04) 3 %, overall 15 %. */
export const RETURN_RATE_THRESHOLDS = { unauthorized: 0.005, administrative: 0.03, overall: 0.15 } as const;
/** The window the return rates are computed over (Nacha looks at 60 days). */
export const RETURN_RATE_WINDOW_DAYS = 60;
