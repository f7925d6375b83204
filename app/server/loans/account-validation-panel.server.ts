import { eq } from "drizzle-orm";
import { errorToast } from "~/domain/action-result";
import { ACCOUNT_VALIDATION_METHOD_LABELS } from "~/domain/servicing-enums";
import { ACCOUNT_VALIDATION_MESSAGES, RECORD_VALIDATION_INTENT, recordValidationSchema, type AccountValidationActionData } from "~/domain/validation/account-validation";
import { issuesToFieldErrors } from "~/domain/validation/field-errors";
import type { AccountValidationPanelData } from "~/domain/views/account-validation";
import type { Caller } from "~/server/platform/audit/audit.server";
import { getDb, type Db, type DbOrTx } from "~/server/platform/db/client.server";
import { approvedLoans } from "~/server/platform/db/schema.server";
import type { ServiceAnswer } from "~/server/platform/http/action-answer.server";
import { actionRefusal, AppError } from "~/server/platform/http/app-error.server";
import { logFailure } from "~/server/platform/log/describe-error.server";
import { accountValidations, recordAccountValidation } from "./account-validations.server";
import type { LoanRow } from "./ledger.server";
import { currentPaymentAccount } from "./payment-accounts.server";

/**
 * The staff loan page's Account Validation panel (app/components/admin/loans/account-validation-panel.tsx):
 * the loan's payment account, masked, with its validation, and Record Validation. The page's loader
 * and action mount these two; the guard (staffWith("servicing.manage") for the action) is theirs.
 */

/** The panel's data: null when the loan has no bank account on file. */
export async function accountValidationPanel(loan: Pick<LoanRow, "id" | "applicationId" | "userId">, db: DbOrTx = getDb()): Promise<AccountValidationPanelData | null> {
  const account = await currentPaymentAccount(loan, db);
  if (!account) return null;
  const validation = (await accountValidations([account.bankAccountId], db)).get(account.bankAccountId) ?? null;
  return { bankAccountId: account.bankAccountId, accountMasked: `••••${account.last4}`, label: account.label, holder: account.holder, validation };
}

export type AccountValidationAnswer = ServiceAnswer<AccountValidationActionData>;

function answer(status: number, toast: AccountValidationActionData["toast"], fieldErrors?: Record<string, string[]>): AccountValidationAnswer {
  return { status, body: { ok: status < 300, intent: RECORD_VALIDATION_INTENT, toast, at: Date.now(), ...(fieldErrors ? { fieldErrors } : {}) } };
}

/**
 * Record Validation on the loan page (after the guard): the form checked by its schema (400 with the
 * field's message), the account must still be the loan's payment account (409 when it changed since the
 * page loaded: the staff member was looking at another account), then recordAccountValidation (audited;
 * 409 when already validated).
 */
export async function recordValidationIntent(loanId: string, values: Record<string, string | undefined>, caller: Caller, db: Db = getDb()): Promise<AccountValidationAnswer> {
  const parsed = recordValidationSchema.safeParse(values);
  if (!parsed.success) return answer(400, errorToast(ACCOUNT_VALIDATION_MESSAGES.failedTitle, parsed.error.issues[0]?.message ?? ACCOUNT_VALIDATION_MESSAGES.method), issuesToFieldErrors(parsed.error));
  try {
    const [loan] = await db.select({ id: approvedLoans.id, applicationId: approvedLoans.applicationId, userId: approvedLoans.userId }).from(approvedLoans).where(eq(approvedLoans.id, loanId)).limit(1);
    if (!loan) return answer(404, errorToast(ACCOUNT_VALIDATION_MESSAGES.failedTitle, ACCOUNT_VALIDATION_MESSAGES.loanNotFound));
    const account = await currentPaymentAccount(loan, db);
    if (!account) return answer(409, errorToast(ACCOUNT_VALIDATION_MESSAGES.failedTitle, ACCOUNT_VALIDATION_MESSAGES.noAccount));
    if (account.bankAccountId !== parsed.data.bankAccountId.toLowerCase()) return answer(409, errorToast(ACCOUNT_VALIDATION_MESSAGES.failedTitle, ACCOUNT_VALIDATION_MESSAGES.accountChanged));
    await recordAccountValidation(account.bankAccountId, { method: parsed.data.method, reference: parsed.data.reference }, caller, db);
    return answer(200, { type: "success", title: ACCOUNT_VALIDATION_MESSAGES.recordedTitle, description: `${account.label} is validated (${ACCOUNT_VALIDATION_METHOD_LABELS[parsed.data.method]}).` });
  } catch (error) {
    if (error instanceof AppError) return actionRefusal(error, { title: ACCOUNT_VALIDATION_MESSAGES.failedTitle, stamped: true }, { intent: RECORD_VALIDATION_INTENT });
    logFailure("admin", "record account validation failed", error, { admin: caller.actor.id, loanId });
    return answer(500, errorToast(ACCOUNT_VALIDATION_MESSAGES.failedTitle, "Something went wrong on our side. Please try again."));
  }
}
