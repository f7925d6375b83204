/**
 * Change Bank Account on the borrower's loan page (intent change-account to /dashboard/loans/:id): the
 * account the loan's ACH debits come from. The field rules are the application's own (bankInfoSchema:
 * holder name, bank name, the account-number rule, the ABA routing rule with its check digit, account
 * type) picked here, never restated, so a change to the shared rule applies to both forms. One schema
 * for the dialog (loaded when the form is first sent) and the action (the authority). Pure, no I/O.
 */
import { bankInfoSchema } from "./application";
import { CHANGE_ACCOUNT_INTENT } from "./payment-account-constants";
import { z } from "./zod";

// The intent, messages and answer type live apart (no Zod, no wizard rules) so the loan page starts light.
export * from "./payment-account-constants";

export const changePaymentAccountSchema = bankInfoSchema
  .pick({ accountHolderName: true, bankName: true, accountNumber: true, routingNumber: true, bankAccountType: true })
  .extend({ intent: z.literal(CHANGE_ACCOUNT_INTENT) });
export type ChangePaymentAccountInput = z.output<typeof changePaymentAccountSchema>;
