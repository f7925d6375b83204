import type { ServicingTerms } from "~/domain/servicing-terms";
import type { DbOrTx } from "~/server/platform/db/client.server";
import { approvedLoans } from "~/server/platform/db/schema.server";
import { applicationBankAccount, applicationTypeAndStatus } from "~/server/applications/index.server";
import { requestAccountValidation } from "./account-validations.server";

/** The signed terms a loan is opened with: the offer's cents and rate, interest from the signing day. */
export type SignedLoanTerms = {
  userId: string;
  applicationId: string;
  offerId: string;
  /** The obligor as the note names them. */
  obligorName: string;
  amountCents: number;
  noteRateMilli: number;
  paymentCents: number;
  termMonths: number;
  /** The signed offer's servicing terms: the loan is serviced by these. */
  servicingTerms: ServicingTerms;
  approvalDate: Date;
  /** 'yyyy-MM-dd': the signing day; installment k falls due k months later. */
  startDate: string;
  /** 'yyyy-MM-dd': the day the agreement's figures assume the proceeds settle; interest never starts earlier. */
  expectedFundingDate: string;
  firstPaymentDue: string;
  maturityDate: string;
};

/**
 * Opens the loan of a signed agreement, inside the signing's transaction (so an agreement never stands
 * without its loan): awaiting funding (it becomes active when the proceeds' credit settles), the whole amount owed, the first installment next due.
 */
export async function openLoan(tx: DbOrTx, terms: SignedLoanTerms): Promise<{ id: string }> {
  const [loan] = await tx
    .insert(approvedLoans)
    .values({ ...terms, status: "awaiting_funding", balanceCents: terms.amountCents, nextDueDate: terms.firstPaymentDue })
    .returning({ id: approvedLoans.id });
  await requestProceedsPrenote(tx, terms);
  return loan!;
}

/**
 * The account the proceeds will be credited to is validated before funding: a credit prenote in the
 * next ACH file for the application's bank account (PPD for a consumer's, CCD for a business loan's),
 * unless the account already has a live validation.
 */
async function requestProceedsPrenote(tx: DbOrTx, terms: SignedLoanTerms): Promise<void> {
  const account = await applicationBankAccount(terms.applicationId, terms.userId, tx);
  if (!account) return;
  const app = await applicationTypeAndStatus(terms.applicationId, tx);
  await requestAccountValidation(tx, account.id, { secCode: app?.loanType === "business" ? "CCD" : "PPD", direction: "credit" });
}
