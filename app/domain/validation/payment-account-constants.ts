import type { ActionResult, Toast } from "~/domain/action-result";

/** Change Bank Account (see ./payment-account.ts for the schema): its intent, messages and answer. */

export const CHANGE_ACCOUNT_INTENT = "change-account";

export const PAYMENT_ACCOUNT_MESSAGES = {
  closed: "This loan is paid off or closed: its payment account can no longer be changed.",
  notFound: "This loan does not exist.",
  changedTitle: "Payment account changed",
  failedTitle: "Payment account not changed",
} as const;

/**
 * What the action answers: the toast and the field messages; `values` refills the dialog when the form
 * was posted without JavaScript, so nothing typed is lost.
 */
export type PaymentAccountActionData = ActionResult<{ intent: typeof CHANGE_ACCOUNT_INTENT; toast: Toast; at: number; values?: Record<string, string> }>;
