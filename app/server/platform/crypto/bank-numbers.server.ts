import { BLIND_INDEX_PURPOSES, lastFourToken } from "./blind-index.server";
import { ENCRYPTION_PURPOSES } from "./encryption-purposes.server";
import { encryptField } from "./field-encryption.server";

/**
 * A bank account's numbers as bank_accounts stores them: account and routing numbers encrypted under
 * their purposes, only the last 4 / last 2 digits in clear for the masked display, and the keyed blind
 * index of the last 4 for staff search. One function for every place an account is written (the
 * application, Change Bank Account on a loan), so they are sealed the same way.
 */
export function sealedBankNumbers(accountNumber: string, routingNumber: string) {
  return {
    accountNumber: encryptField(accountNumber, ENCRYPTION_PURPOSES.accountNumber),
    routingNumber: encryptField(routingNumber, ENCRYPTION_PURPOSES.routingNumber),
    accountNumberLast4: accountNumber.slice(-4),
    accountLast4Index: lastFourToken(accountNumber, BLIND_INDEX_PURPOSES.accountLast4),
    routingNumberLast2: routingNumber.slice(-2),
  };
}
