import type { AutopayIntent } from "~/domain/validation/autopay";

/**
 * A form of each autopay intent that the authorization matrix posts to the borrower's own loan: Set Up
 * and Change without the authorisation checkbox (the schema refuses them: 400, nothing stored), Cancel
 * on a loan whose autopay is off (409). Anyone but the loan's borrower gets 404 for all three.
 */
export const MATRIX_AUTOPAY_BODIES: { intent: AutopayIntent; fields: Record<string, string>; status: number }[] = [
  { intent: "setup-autopay", fields: { intent: "setup-autopay", bankAccountId: "00000000-0000-4000-8000-000000000031", amountKind: "installment", daysBeforeDue: "0" }, status: 400 },
  { intent: "change-autopay", fields: { intent: "change-autopay", bankAccountId: "00000000-0000-4000-8000-000000000031", amountKind: "fixed", fixedAmount: "500.00", daysBeforeDue: "2" }, status: 400 },
  { intent: "cancel-autopay", fields: { intent: "cancel-autopay" }, status: 409 },
];
