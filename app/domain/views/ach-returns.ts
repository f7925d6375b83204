/**
 * What /admin/ach and the staff loan page show about returns, as plain data: the return rates per
 * originator against Nacha's thresholds and the open loan flags (unauthorised returns) staff resolve.
 */

/** One rate: returns of a kind over the debit entries, against its threshold (a fraction: 0.005 is 0.5 %). */
export type ReturnRate = { returns: number; rate: number; threshold: number; above: boolean };

export type OriginatorReturnRates = {
  originatorId: string;
  /** Debit entries sent in files effective in the window. */
  debitEntries: number;
  returns: number;
  unauthorized: ReturnRate;
  administrative: ReturnRate;
  overall: ReturnRate;
};

export type ReturnRatesPanel = { windowDays: number; since: string; originators: OriginatorReturnRates[] };

/** An open flag on a loan: what staff must look at, until they resolve it with a note. */
export type OpenLoanFlag = {
  flagId: string;
  loanId: string;
  borrower: string;
  kind: string;
  returnCode: string | null;
  summary: string;
  /** ISO instant the flag was raised. */
  createdAt: string;
};

/** A bank account's live restriction as the staff loan page lists it. */
/** `clearable`: the account is one the loan uses, so Clear Restriction may lift it from the loan's page. */
export type AccountRestrictionView = { bankAccountId: string; accountMasked: string | null; kind: string; returnCode: string; since: string; clearable: boolean };

const percent = new Intl.NumberFormat("en-US", { style: "percent", minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** A rate as a percentage with two decimals ("0.50%"). */
export function formatRate(rate: number): string {
  return percent.format(rate);
}
