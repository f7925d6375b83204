/**
 * The borrower's authorisation of a one-time ACH debit (Make a Payment). Under Regulation E
 * (12 CFR 1005.10(b)) and the NACHA Operating Rules a consumer debit needs the consumer's authorisation
 * in terms that are clear and readily understandable, naming the amount, the account, the date and how
 * to revoke it; we store the version of this text, the time, the IP address and the browser with each
 * payment. Changing a word here means a new ACH_AUTHORIZATION_VERSION (tests/unit/ach-authorization.test.ts
 * pins the version to the template's hash). Pure, no I/O: the page and the server read the same text.
 */

export const ACH_AUTHORIZATION_VERSION = "2026-11-24.1";

export type AchAuthorizationFacts = {
  /** The lender's name. */
  lender: string;
  /** "$1,234.56". */
  amount: string;
  /** "Checking ••••1234": the account's type and last four digits only. */
  account: string;
  /** "November 24, 2026": the debit is initiated on or after this day. */
  date: string;
};

/** The paragraphs, with {lender} {amount} {account} {date} placeholders (what the version pins). */
export const ACH_AUTHORIZATION_TEMPLATE: readonly string[] = [
  "I authorize {lender} to initiate a one-time electronic debit (ACH) of {amount} from my {account} on or after {date}, as a payment on this loan. I authorize my bank to debit that account for this amount.",
  "This is a single payment: it does not authorize any other or recurring debits. I confirm that I am an owner of the account or authorized to use it, and that the account is a consumer account at a bank in the United States.",
  "I may revoke this authorization by contacting {lender} (a message from my dashboard, or the contact details on the Contact page) in time for {lender} to act on it before the debit is initiated; once the debit has been sent to my bank, it can no longer be stopped this way. If the debit is returned unpaid, the payment is cancelled and the loan's balance is as if it had not been made.",
  "This payment is Pending until it settles; the amount is applied to fees, then to accrued interest, then to principal on the day it settles. I may print or save this authorization; a copy of its terms is on my loan's page and a confirmation is sent to my e-mail address.",
];

const PLACEHOLDER = /\{(lender|amount|account|date)\}/g;

/** The authorisation's paragraphs with the facts filled in. */
export function achAuthorizationText(facts: AchAuthorizationFacts): string[] {
  return ACH_AUTHORIZATION_TEMPLATE.map((p) => p.replace(PLACEHOLDER, (_, key: keyof AchAuthorizationFacts) => facts[key]));
}

export const ACH_AUTHORIZATION_STATEMENT = "I authorize this one-time ACH debit from my bank account";
