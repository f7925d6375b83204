/**
 * The borrower's authorisation of recurring ACH debits (autopay). Regulation E (12 CFR 1005.10(b))
 * needs a preauthorised transfer to be authorised in a writing that is clear and readily
 * understandable and of which the consumer gets a copy: that the debits recur, their amount and timing,
 * the account, and how to cancel. Autopay is optional: no loan is conditioned on it (1005.10(e)). We
 * store the version of this text, the time, the IP address and the browser with each authorisation and
 * e-mail the borrower a copy. Changing a word here means a new AUTOPAY_AUTHORIZATION_VERSION
 * (tests/unit/autopay-authorization.test.ts pins the version to the template's hash). Pure, no I/O:
 * the page and the server read the same text.
 */

import { AUTOPAY_CANCEL_CUTOFF_BANKING_DAYS, AUTOPAY_NOTICE_DAYS } from "./autopay";

export const AUTOPAY_AUTHORIZATION_VERSION = "2026-12-06.1";

export type AutopayAuthorizationFacts = {
  /** The lender's name. */
  lender: string;
  /** "the installment due on each due date (including any fees due)" or "$500.00". */
  amount: string;
  /** "on each installment's due date" or "3 days before each installment's due date". */
  timing: string;
  /** "Checking ••••1234": the account's type and last four digits only. */
  account: string;
};

/** The paragraphs, with {lender} {amount} {timing} {account} placeholders (what the version pins). */
export const AUTOPAY_AUTHORIZATION_TEMPLATE: readonly string[] = [
  "I authorize {lender} to initiate recurring electronic debits (ACH) from my {account}, once a month, as the payments on this loan, until the loan is paid in full or I cancel autopay. I authorize my bank to debit that account for these amounts.",
  "Amount: {amount}. If a debit will differ from the previous one (for example because a fee was added, or for the final payment), or differs from the amount shown here, {lender} will tell me its amount and date at least " +
    String(AUTOPAY_NOTICE_DAYS) +
    " days before it is made. A debit is never more than what pays the loan off on its day.",
  "Timing: each debit is made {timing}; when that day is not a banking day, it is made on the banking day before.",
  "Cancelling: I may cancel autopay with Cancel Autopay on my loan's page, or by contacting {lender}, at least " +
    String(AUTOPAY_CANCEL_CUTOFF_BANKING_DAYS) +
    " business days before a scheduled debit; a debit already sent to my bank, or scheduled sooner than that, is still made. Cancelling autopay does not cancel the loan or any payment due: I then pay each installment myself.",
  "Autopay is optional: the loan is not conditioned on it, and I may pay each installment another way. I confirm that I am an owner of the account or authorized to use it, and that it is a consumer account at a bank in the United States. A copy of this authorization is sent to my e-mail address.",
];

const PLACEHOLDER = /\{(lender|amount|timing|account)\}/g;

/** The authorisation's paragraphs with the facts filled in. */
export function autopayAuthorizationText(facts: AutopayAuthorizationFacts): string[] {
  return AUTOPAY_AUTHORIZATION_TEMPLATE.map((p) => p.replace(PLACEHOLDER, (_, key: keyof AutopayAuthorizationFacts) => facts[key]));
}

/** The amount phrase: the installment due (fees included) or the fixed amount (already formatted). */
export function autopayAmountPhrase(fixedAmount: string | null): string {
  return fixedAmount === null ? "the installment due on each due date, including any fees due (the amount on my loan's page)" : `${fixedAmount} each month (less when less pays the loan off)`;
}

/** The timing phrase for 0–5 days before the due date. */
export function autopayTimingPhrase(daysBeforeDue: number): string {
  if (daysBeforeDue === 0) return "on each installment's due date";
  return `${daysBeforeDue} day${daysBeforeDue === 1 ? "" : "s"} before each installment's due date`;
}

export const AUTOPAY_AUTHORIZATION_STATEMENT = "I authorize these recurring ACH debits from my bank account";
