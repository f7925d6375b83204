import type { DelinquencyBucket } from "~/domain/delinquency";

/**
 * What the reports page's Delinquency and Roll Rates sections show (app/server/loans/delinquency-report.server.ts):
 * read from the totals and rolls the delinquency job writes, never from the loans themselves.
 */

export type DelinquencyBucketFigure = { bucket: DelinquencyBucket; label: string; loans: number; principalCents: number };

export type RollRate = {
  from: DelinquencyBucket;
  fromLabel: string;
  to: DelinquencyBucket;
  toLabel: string;
  /** Loans (and their principal) in `from` at the month end before. */
  baseLoans: number;
  basePrincipalCents: number;
  /** Of those, the loans (and principal) in `to` at this month end. */
  rolledLoans: number;
  rolledPrincipalCents: number;
};

export type RollMonth = {
  /** The month end the loans rolled to ('yyyy-MM-dd'). */
  asOf: string;
  /** The month end they rolled from. */
  priorAsOf: string;
  rates: RollRate[];
  /** Loans delinquent at the month end before that were Current at this one, and all delinquent then. */
  cured: { loans: number; baseLoans: number };
  /** Loans of the month end before paid off by this one, of all loans then. */
  paidOff: { loans: number; baseLoans: number };
};

export type DelinquencyReport = {
  /** The day the figures close ('yyyy-MM-dd'); null before the job has written any. */
  asOf: string | null;
  buckets: DelinquencyBucketFigure[];
  totalLoans: number;
  totalPrincipalCents: number;
  /** Newest month first; only month ends with a snapshot before them. */
  rolls: RollMonth[];
};
