/** A well-formed form of each funding intent and of Record Validation (the authorization matrix posts the same). */
export const MATRIX_FUNDING_BODIES = (today: string): Record<string, string>[] => [
  { intent: "fund-loan", fingerprint: "0".repeat(64) },
  { intent: "release-funds" },
  { intent: "cancel-funding" },
  { intent: "settle-funding", settledOn: today },
  { intent: "return-funding", returnCode: "R03", returnedOn: today },
  { intent: "cancel-loan", reason: "The borrower asked us to cancel." },
  { intent: "record-fee-collected", reference: "CHK-1001" },
  { intent: "accept-id-document", documentId: "00000000-0000-4000-8000-000000000001" },
  { intent: "record-validation", bankAccountId: "00000000-0000-4000-8000-000000000002", method: "bank_letter", reference: "LETTER-9" },
];
