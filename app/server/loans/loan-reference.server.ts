import { loanTypeLabel } from "~/domain/labels";
import { getConfig } from "~/server/platform/config.server";
import { agreementReference } from "~/server/offers/index.server";

/**
 * A loan's one reference, on every page, letter, statement, e-mail and export: the one its signed
 * agreement prints ("LN-" and the offer id's first 8 characters), since the agreement is fixed at
 * signing and cannot be reprinted. A loan opened before loans kept their offer uses its own id's start.
 */
export function loanReference(loan: { id: string; offerId: string | null }): string {
  return agreementReference(loan.offerId ?? loan.id);
}

/** How a letter or e-mail names the loan: its type and its reference ("Personal Loan LN-1A2B3C4D"). */
export function loanName(loan: { loanType: string; loanReference: string }): string {
  return `${loanTypeLabel(loan.loanType)} ${loan.loanReference}`;
}

/** What every e-mail about a loan names: the loan (type and reference) and the link to its page. */
export type LoanMailSubject = { loanId: string; loanType: string; loanReference: string; baseUrl: string };

export function loanMailSubject(loan: { id: string; offerId: string | null }, loanType: string): LoanMailSubject {
  return { loanId: loan.id, loanType, loanReference: loanReference(loan), baseUrl: getConfig().publicUrl };
}
