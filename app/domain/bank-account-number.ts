/**
 * The bank account number rule: the wizard's field, its hint, the server's schema and drafts all use
 * this one rule. Pure, no I/O, safe in the browser.
 *
 * US account numbers have no national format: banks and credit unions issue numbers from 4 digits
 * (small credit unions' share accounts) up to the 17 characters the NACHA entry's DFI account number
 * field holds. Refusing shorter numbers turned away real applicants, so any 4 to 17 digits are accepted.
 */

export const ACCOUNT_NUMBER_DIGITS = { min: 4, max: 17 } as const;

/** The input's hint, beside the field. */
export const ACCOUNT_NUMBER_HINT = `${ACCOUNT_NUMBER_DIGITS.min}-${ACCOUNT_NUMBER_DIGITS.max} digits`;

/** What the applicant is told when the number does not fit the rule. */
export const ACCOUNT_NUMBER_MESSAGE = `Account number must be between ${ACCOUNT_NUMBER_DIGITS.min} and ${ACCOUNT_NUMBER_DIGITS.max} digits`;

const PATTERN = new RegExp(`^\\d{${ACCOUNT_NUMBER_DIGITS.min},${ACCOUNT_NUMBER_DIGITS.max}}$`);

/** Digits only, 4 to 17 of them (spaces already removed by the caller). */
export function isValidAccountNumber(value: string): boolean {
  return PATTERN.test(value);
}
