import { and, asc, eq, inArray } from "drizzle-orm";
import { returnReaction } from "~/domain/ach-returns";
import { returnedDebitNextStep, type ReturnedDebitView } from "~/domain/returned-debit-outcome";

export type { ReturnedDebitView };
import { ACH_RETURN_CODES } from "~/domain/servicing-enums";
import { getDb, type DbOrTx } from "~/server/platform/db/client.server";
import { loanPayments } from "~/server/platform/db/schema.server";
import { bankruptcyStaysOf } from "./loan-protections.server";

/**
 * The borrower's Returned Payments: each debit of the loan the bank returned, oldest first, with the
 * return code, its label and what happens next (a retry on its day, none, or another account needed),
 * in the words the return's e-mail used. No account numbers. The caller has checked the viewer owns
 * the loan.
 */

export async function returnedDebitsView(loanId: string, db: DbOrTx = getDb()): Promise<ReturnedDebitView[]> {
  const returned = await db
    .select()
    .from(loanPayments)
    .where(and(eq(loanPayments.loanId, loanId), eq(loanPayments.status, "returned"), eq(loanPayments.source, "borrower")))
    .orderBy(asc(loanPayments.returnedOn), asc(loanPayments.createdAt));
  if (returned.length === 0) return [];
  const originals = [...new Set(returned.map((r) => r.retryOf ?? r.id))];
  const stayed = (await bankruptcyStaysOf([loanId], db)).activeToday.has(loanId);
  const retries = await db
    .select({ retryOf: loanPayments.retryOf, retryNumber: loanPayments.retryNumber, status: loanPayments.status, scheduledOn: loanPayments.scheduledOn, receivedOn: loanPayments.receivedOn, cancelReason: loanPayments.cancelReason })
    .from(loanPayments)
    .where(inArray(loanPayments.retryOf, originals));
  return returned.map((r) => {
    // The presentation after this one: the original's retry numbered one more than this debit's.
    const next = retries.find((x) => x.retryOf === (r.retryOf ?? r.id) && x.retryNumber === (r.retryNumber ?? 0) + 1) ?? null;
    const code = r.returnCode ?? "";
    return {
      paymentId: r.id,
      reference: r.reference,
      amountCents: r.amountCents,
      returnedOn: r.returnedOn ?? "",
      returnCode: code,
      returnLabel: ACH_RETURN_CODES.find((c) => c.code === code)?.label ?? "",
      isRetry: r.retryOf !== null,
      nextStep: returnedDebitNextStep({ kind: returnReaction(code).kind, retry: next, fromAutopay: r.autopayAuthorizationId !== null, stayed }),
    };
  });
}
