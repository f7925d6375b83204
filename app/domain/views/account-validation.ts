import { formatDay } from "~/domain/formats";
import { ACCOUNT_VALIDATION_METHOD_LABELS, ACCOUNT_VALIDATION_STATUS_LABELS, ACH_RETURN_CODES, type AccountValidationMethod, type AccountValidationStatus } from "~/domain/servicing-enums";

/**
 * A bank account's validation before its first debit or credit, as pages and the funding checklist read
 * it (app/server/loans/account-validations.server.ts returns it): the account's live validation (a
 * prenote queued or sent, or validated), else its last failed one. Days are 'yyyy-MM-dd', instants ISO.
 */
export type AccountValidationView = {
  validationId: string;
  bankAccountId: string;
  status: AccountValidationStatus;
  method: AccountValidationMethod;
  secCode: "PPD" | "CCD" | "WEB" | null;
  direction: "credit" | "debit" | null;
  /** A prenote's effective entry date (null until it is in a file). */
  effectiveDate: string | null;
  /** A sent prenote: the day it counts as validated when no return arrived by then. */
  readyOn: string | null;
  validatedAt: string | null;
  returnCode: string | null;
  returnedOn: string | null;
  reference: string | null;
  /** The staff member who recorded another method, by name. */
  recordedBy: string | null;
};

/** Whether the account may be debited or credited now. */
export function isValidated(v: AccountValidationView | null | undefined): boolean {
  return v?.status === "validated";
}

/** "R03 No Account/Unable to Locate Account", or the code alone when it is not one we list. */
export function returnCodeText(code: string | null): string {
  if (!code) return "no code";
  const known = ACH_RETURN_CODES.find((r) => r.code === code);
  return known ? `${known.code} ${known.label}` : code;
}

/** One line on the state, for staff: "Validated (Bank letter or voided check) on …", "Prenote Sent: ready by …". */
export function validationStateText(v: AccountValidationView | null | undefined): string {
  if (!v) return "Not validated: no prenote or other validation is on file.";
  switch (v.status) {
    case "pending":
      return "Prenote queued for the next ACH file.";
    case "sent":
      return `Prenote sent, effective ${formatDay(v.effectiveDate!)}: validated on ${formatDay(v.readyOn!)} unless the bank returns it.`;
    case "validated":
      return `Validated (${ACCOUNT_VALIDATION_METHOD_LABELS[v.method]})${v.validatedAt ? ` on ${formatDay(v.validatedAt.slice(0, 10))}` : ""}.`;
    case "failed":
      return `Prenote returned (${returnCodeText(v.returnCode)})${v.returnedOn ? ` on ${formatDay(v.returnedOn)}` : ""}: another account is needed.`;
  }
}

/** The borrower's words for an account's state on their loan page. */
export function borrowerValidationText(v: AccountValidationView | null | undefined): string {
  if (!v) return "Not validated yet";
  switch (v.status) {
    case "validated":
      return "Validated";
    case "sent":
      return `Being validated: ready by ${formatDay(v.readyOn!)}`;
    case "pending":
      return "Being validated: we send a zero-dollar test entry to your bank with our next ACH file";
    case "failed":
      return "Returned by the bank: add another account";
  }
}

export const ACCOUNT_VALIDATION_LABELS = { status: ACCOUNT_VALIDATION_STATUS_LABELS, method: ACCOUNT_VALIDATION_METHOD_LABELS } as const;

/** The staff loan page's Account Validation panel: the loan's payment account (masked) and its validation. */
export type AccountValidationPanelData = {
  bankAccountId: string;
  /** "••••1234". */
  accountMasked: string;
  /** "Checking ••••1234". */
  label: string;
  holder: string;
  validation: AccountValidationView | null;
};
