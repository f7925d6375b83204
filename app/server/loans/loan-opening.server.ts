import type { ServicingTerms } from "~/domain/servicing-terms";
import type { DbOrTx } from "~/server/platform/db/client.server";
import { approvedLoans } from "~/server/platform/db/schema.server";

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
  return loan!;
}
