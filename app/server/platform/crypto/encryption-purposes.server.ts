/**
 * What each encrypted column's ciphertext is bound to (the AES-GCM associated data passed to
 * encryptField/decryptField): a value encrypted for one column does not decrypt as another. The
 * submission encrypts with them, the admin reveal and the key-rotation migration decrypt with them.
 */
export const ENCRYPTION_PURPOSES = {
  ssn: "loan_applications.ssn",
  accountNumber: "bank_accounts.account_number",
  routingNumber: "bank_accounts.routing_number",
  /** A stored NACHA file: full account and routing numbers of every entry. */
  achFile: "ach_batches.content",
} as const;
