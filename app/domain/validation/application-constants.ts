import { ACCOUNT_NUMBER_MESSAGE } from "~/domain/bank-account-number";
import { LIMITS } from "~/domain/enums";
import { LOAN_AMOUNT_WHOLE_DOLLARS } from "~/domain/loan-math";
import { LARGEST_LOAN_AMOUNT } from "~/domain/lending-rules";
import { DOCUMENT_MIME_TYPES, inspectUpload, TOO_LARGE, UPLOAD_REASONS } from "~/domain/upload-rules";

/**
 * The loan application's messages, limits and document fields, and the browser's check of a chosen
 * document: everything of ./application.ts that needs no Zod. Building that module's schemas costs
 * about 60 ms of a phone's main thread at start-up (decision 0052), so pages that need only these
 * (an application's What We Need panel, /account's forms) import them from here.
 */

export const APPLICATION_MESSAGES = {
  requiredStep1: "Please fill in all required fields",
  names: "Names can only contain letters, spaces, and hyphens",
  email: "Please enter a valid email address",
  phone: "Please enter a valid 10-digit phone number",
  zip: "Please enter a valid 5-digit ZIP code",
  ssn: "Invalid SSN format. Please use XXX-XX-XXXX format.",
  ssnNotIssued: "This is not a Social Security Number the SSA issues. Please check the number.",
  dateOfBirth: "Please enter a valid date of birth",
  age: "You must be at least 18 years old to apply",
  state: "Please choose a US state",
  requiredStep2: "Please fill in all required fields",
  amount: "Please enter a valid loan amount",
  amountWholeDollars: LOAN_AMOUNT_WHOLE_DOLLARS,
  rate: "Interest rate must be between 5.99% and 35.99%",
  duration: "Loan duration must be between 6 months and 30 years (360 months)",
  purpose: "Loan purpose must be between 10 and 500 characters",
  loanType: "Please choose a loan type",
  businessYears: "Years in business cannot be negative",
  requiredStep3: "Please fill in all required employment and financial information",
  creditScore: "Credit score must be between 300 and 850",
  yearsEmployed: "Years employed must be a number from 0 to 99 (one decimal at most)",
  money: "Please enter a valid amount",
  documents: "Please upload all required documents",
  file: "File must be PDF, JPG, or PNG and under 5MB",
  requiredBank: "Please complete all bank information fields",
  routing: "Routing number must be exactly 9 digits",
  routingSymbol: "This is not a valid ABA routing number: it must start with 01 to 12, 21 to 32, 61 to 72 or 80. Please check the 9 digits printed on your checks.",
  routingChecksum: "This is not a valid ABA routing number. Please check the 9 digits printed on your checks.",
  account: ACCOUNT_NUMBER_MESSAGE,
  swift: "Please enter a valid SWIFT code (8 or 11 letters and digits)",
  terms: "Please agree to the terms and conditions",
  signature: "Please provide your signature",
  signIn: "Please sign in to submit your application",
  submitFailed: "Failed to submit application",
} as const;

/** The wizard's five steps, in order (STEP_SCHEMAS in ./application gives each its schema). */
export const APPLICATION_STEP_TITLES = ["Personal Info", "Loan Details", "Financial Info", "Documents", "Review"] as const;

export const US_STATES = [
  "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS", "KY",
  "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC", "ND",
  "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY",
] as const;

/** The largest amount any loan offers (each loan type's own range is checked against its type). */
export const MAX_LOAN_AMOUNT = LARGEST_LOAN_AMOUNT;
export const MAX_MONEY = 999_999_999;

/** The uploaded files of step 4, by form field name, with their document_type in the database. */
export const DOCUMENT_FIELDS = [
  { field: "idCardFront", type: "id_card_front", label: "ID Card (Front)", required: true },
  { field: "idCardBack", type: "id_card_back", label: "ID Card (Back)", required: true },
  { field: "bankStatement1", type: "bank_statement_1", label: "Bank Statement (Month 1)", required: true },
  { field: "bankStatement2", type: "bank_statement_2", label: "Bank Statement (Month 2)", required: true },
  { field: "bankStatement3", type: "bank_statement_3", label: "Bank Statement (Month 3)", required: true },
  { field: "utilityBill", type: "utility_bill", label: "Utility Bill", required: true },
  { field: "collateralDocs", type: "collateral_docs", label: "Collateral Documents", required: false },
] as const;
export type DocumentField = (typeof DOCUMENT_FIELDS)[number]["field"];

export const SIGNATURE_FIELD = "signature";
export const IDEMPOTENCY_FIELD = "idempotencyKey";
export const MAX_FILE_BYTES = LIMITS.maxDocumentBytes;
/** A signature drawn on the pad is a small PNG; anything larger is not a signature. */
export const MAX_SIGNATURE_BYTES = 512 * 1024;

/** A refused document: which one, why, then the spec's rule ("ID Card (Front): the file is empty. File must be..."). */
export function documentFileMessage(label: string, reason: string): string {
  return `${label}: ${reason}. ${APPLICATION_MESSAGES.file}`;
}

/**
 * What the server would say about a chosen document, found before the wizard says anything about it:
 * the same size limit and content rules (app/domain/upload-rules.ts), read from the file's bytes.
 */
export async function documentProblem(label: string, file: Blob & { name: string }): Promise<string | null> {
  if (file.size > MAX_FILE_BYTES) return documentFileMessage(label, TOO_LARGE);
  if (file.size === 0) return documentFileMessage(label, UPLOAD_REASONS.empty);
  const bytes = new Uint8Array(await file.arrayBuffer());
  const verdict = inspectUpload({ filename: file.name, declaredType: file.type, bytes }, DOCUMENT_MIME_TYPES);
  return verdict.ok ? null : documentFileMessage(label, UPLOAD_REASONS[verdict.reason]);
}
