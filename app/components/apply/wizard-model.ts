import { BANK_ACCOUNT_TYPES, EMPLOYMENT_STATUSES, LOAN_DURATIONS, LOAN_TYPES, type LoanType } from "~/domain/enums";
import { digitsOnly, formatAmountInput } from "~/domain/formats";
import {
  APPLICATION_MESSAGES,
  bankInfoSchema,
  DOCUMENT_FIELDS,
  financialInfoSchema,
  IDEMPOTENCY_FIELD,
  loanDetailsSchema,
  personalInfoSchema,
  SIGNATURE_FIELD,
  STEP_SCHEMAS,
  termsSchema,
  type DocumentField,
} from "~/domain/validation/application";

/**
 * The loan application wizard's pure logic (no React, no storage): the values a person types, what
 * each step checks (with the shared schemas), the prior calculator estimate read from the URL, the
 * session draft (what survives a reload, and what never leaves memory), and the multipart body.
 */

export const STEP_COUNT = 5;
export type StepNumber = 1 | 2 | 3 | 4 | 5;

export const STEP_TITLES = STEP_SCHEMAS.map((s) => s.title) as readonly string[];

export function isStepNumber(value: unknown): value is StepNumber {
  return value === 1 || value === 2 || value === 3 || value === 4 || value === 5;
}

/** What the fields hold, as typed. The date of birth is kept as its three selects. */
export type WizardValues = {
  firstName: string;
  middleInitial: string;
  lastName: string;
  dobMonth: string;
  dobDay: string;
  dobYear: string;
  ssn: string;
  email: string;
  phone: string;
  addressLine1: string;
  addressLine2: string;
  city: string;
  state: string;
  zipCode: string;
  loanType: string;
  loanAmount: string;
  desiredInterestRate: string;
  loanDuration: string;
  loanPurpose: string;
  propertyAddress: string;
  businessName: string;
  businessYears: string;
  employmentStatus: string;
  employerName: string;
  jobTitle: string;
  yearsEmployed: string;
  monthlyIncome: string;
  annualIncome: string;
  creditScore: string;
  monthlyDebts: string;
  hasOutstandingLoans: boolean;
  authorizeCreditReport: boolean;
  accountHolderName: string;
  bankName: string;
  bankAddress: string;
  accountNumber: string;
  routingNumber: string;
  swiftCode: string;
  bankAccountType: string;
  agreeToTerms: boolean;
};

export type WizardField = keyof WizardValues;
export type BooleanField = { [K in WizardField]: WizardValues[K] extends boolean ? K : never }[WizardField];
export type TextField = Exclude<WizardField, BooleanField>;

export function emptyValues(email = ""): WizardValues {
  return {
    firstName: "",
    middleInitial: "",
    lastName: "",
    dobMonth: "",
    dobDay: "",
    dobYear: "",
    ssn: "",
    email,
    phone: "",
    addressLine1: "",
    addressLine2: "",
    city: "",
    state: "",
    zipCode: "",
    loanType: "",
    loanAmount: "",
    desiredInterestRate: "",
    loanDuration: "",
    loanPurpose: "",
    propertyAddress: "",
    businessName: "",
    businessYears: "",
    employmentStatus: "",
    employerName: "",
    jobTitle: "",
    yearsEmployed: "",
    monthlyIncome: "",
    annualIncome: "",
    creditScore: "",
    monthlyDebts: "",
    hasOutstandingLoans: false,
    authorizeCreditReport: false,
    accountHolderName: "",
    bankName: "",
    bankAddress: "",
    accountNumber: "",
    routingNumber: "",
    swiftCode: "",
    bankAccountType: "checking",
    agreeToTerms: false,
  };
}

/** Never written to the session draft: identity and bank numbers, and the consent (given afresh). */
export const NOT_PERSISTED = ["ssn", "accountNumber", "routingNumber", "agreeToTerms"] as const satisfies readonly WizardField[];

// --- Labels ---------------------------------------------------------------------------------------

export const LOAN_TYPE_LABELS: Record<LoanType, string> = {
  personal: "Personal Loan",
  business: "Business Loan",
  private: "Private Loan",
  "hard-money": "Hard Money / Bridge Loan",
  "auto-loans": "Auto Loan",
  "debt-consolidation": "Debt Consolidation Loan",
  "home-improvement": "Home Improvement Loan",
};

export const EMPLOYMENT_LABELS: Record<(typeof EMPLOYMENT_STATUSES)[number], string> = {
  "full-time": "Full-time",
  "part-time": "Part-time",
  "self-employed": "Self-employed",
  retired: "Retired",
  unemployed: "Unemployed",
};

export const ACCOUNT_TYPE_LABELS: Record<(typeof BANK_ACCOUNT_TYPES)[number], string> = {
  checking: "Checking",
  savings: "Savings",
  business: "Business",
};

/** "6 months", "36 months (3 years)", "18 months (1.5 years)". */
export function durationLabel(months: number): string {
  if (months < 12) return `${months} months`;
  const years = months / 12;
  return `${months} months (${years} ${years === 1 ? "year" : "years"})`;
}

export const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
] as const;

/** Days in a month (1-12); February of an unknown year has 29. */
export function daysInMonth(month: number, year?: number): number {
  if (!(month >= 1 && month <= 12)) return 31;
  return new Date(Date.UTC(year && year > 0 ? year : 2000, month, 0)).getUTCDate();
}

/** The years the Date of Birth select offers: this year down to 1900. */
export function birthYears(now = new Date()): number[] {
  const years: number[] = [];
  for (let y = now.getFullYear(); y >= 1900; y--) years.push(y);
  return years;
}

// --- From what is typed to what the schemas read ----------------------------------------------

/** yyyy-MM-dd once month, day and year are all chosen; '' before (the required rule then applies). */
export function composeDateOfBirth(v: Pick<WizardValues, "dobMonth" | "dobDay" | "dobYear">): string {
  if (!v.dobMonth || !v.dobDay || !v.dobYear) return "";
  return `${v.dobYear.padStart(4, "0")}-${v.dobMonth.padStart(2, "0")}-${v.dobDay.padStart(2, "0")}`;
}

const flag = (value: boolean) => (value ? "true" : "");

/**
 * Every text field of the submission, named as the server expects. Fields that only belong to another
 * loan type are sent empty (they were hidden, so they are not the applicant's answer).
 */
export function schemaInput(v: WizardValues): Record<string, string> {
  const hardMoney = v.loanType === "hard-money";
  const business = v.loanType === "business";
  return {
    firstName: v.firstName,
    middleInitial: v.middleInitial,
    lastName: v.lastName,
    dateOfBirth: composeDateOfBirth(v),
    ssn: v.ssn,
    email: v.email,
    phone: v.phone,
    addressLine1: v.addressLine1,
    addressLine2: v.addressLine2,
    city: v.city,
    state: v.state,
    zipCode: v.zipCode,
    loanType: v.loanType,
    loanAmount: v.loanAmount,
    desiredInterestRate: v.desiredInterestRate,
    loanDuration: v.loanDuration,
    loanPurpose: v.loanPurpose,
    propertyAddress: hardMoney ? v.propertyAddress : "",
    businessName: business ? v.businessName : "",
    businessYears: business ? v.businessYears : "",
    employmentStatus: v.employmentStatus,
    employerName: v.employerName,
    jobTitle: v.jobTitle,
    yearsEmployed: v.yearsEmployed,
    monthlyIncome: v.monthlyIncome,
    annualIncome: v.annualIncome,
    creditScore: v.creditScore,
    monthlyDebts: v.monthlyDebts,
    hasOutstandingLoans: flag(v.hasOutstandingLoans),
    authorizeCreditReport: flag(v.authorizeCreditReport),
    accountHolderName: v.accountHolderName,
    bankName: v.bankName,
    bankAddress: v.bankAddress,
    accountNumber: v.accountNumber,
    routingNumber: v.routingNumber,
    swiftCode: v.swiftCode,
    bankAccountType: v.bankAccountType,
    agreeToTerms: flag(v.agreeToTerms),
  };
}

// --- Step checks ------------------------------------------------------------------------------------

export type FieldErrors = Partial<Record<string, string>>;
export type StepCheck = { ok: true } | { ok: false; errors: FieldErrors; first: { field: string; message: string } };

const STEP_SCHEMA_BY_NUMBER = {
  1: personalInfoSchema,
  2: loanDetailsSchema,
  3: financialInfoSchema,
  4: bankInfoSchema,
  5: termsSchema,
} as const;

type SafeParser = { safeParse: (input: unknown) => { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } };

/** Runs one step's schema: the first message of each field, and the first problem overall. */
export function checkSchemaStep(step: StepNumber, values: WizardValues): StepCheck {
  const schema = STEP_SCHEMA_BY_NUMBER[step] as unknown as SafeParser;
  const result = schema.safeParse(schemaInput(values));
  if (result.success || !result.error) return { ok: true };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? "");
    if (field && !errors[field]) errors[field] = issue.message;
  }
  const firstIssue = result.error.issues[0]!;
  return { ok: false, errors, first: { field: String(firstIssue.path[0] ?? ""), message: firstIssue.message } };
}

export type DocumentFiles = Partial<Record<DocumentField, { name: string; size: number }>>;

/** Step 4's first check: every required document is attached. */
export function checkDocuments(files: DocumentFiles): StepCheck {
  const missing = DOCUMENT_FIELDS.filter((d) => d.required && !files[d.field]).map((d) => d.field);
  if (missing.length === 0) return { ok: true };
  const errors: FieldErrors = Object.fromEntries(missing.map((f) => [f, APPLICATION_MESSAGES.documents]));
  return { ok: false, errors, first: { field: missing[0]!, message: APPLICATION_MESSAGES.documents } };
}

/** Which step a field (as the schemas and the server name it) is entered on. */
export function stepOfField(field: string): StepNumber | null {
  if (field in personalInfoSchema.shape) return 1;
  if (field in loanDetailsSchema.shape) return 2;
  if (field in financialInfoSchema.shape) return 3;
  if (field in bankInfoSchema.shape || DOCUMENT_FIELDS.some((d) => d.field === field)) return 4;
  if (field in termsSchema.shape || field === SIGNATURE_FIELD) return 5;
  return null;
}

// --- The prior calculator estimate (query string) ------------------------------------------------

export type PriorEstimate = {
  loanAmount?: number;
  interestRate?: number;
  loanTerm?: number;
  monthlyPayment?: number;
};

const MONEY_PATTERN = /^\d{1,12}(\.\d{1,2})?$/;

function readMoney(raw: string | null): number | undefined {
  const text = raw?.trim().replace(/[$,\s]/g, "");
  if (!text || !MONEY_PATTERN.test(text)) return undefined;
  return Number(text);
}

/**
 * The calculator's figures from /apply?loanAmount=..&interestRate=..&loanTerm=..&monthlyPayment=..
 * Each one is kept only when it is a sensible value (garbage is dropped); null when none is.
 */
export function parsePriorEstimate(params: URLSearchParams): PriorEstimate | null {
  const estimate: PriorEstimate = {};
  const amount = readMoney(params.get("loanAmount"));
  if (amount !== undefined && amount > 0) estimate.loanAmount = amount;
  const rateText = params.get("interestRate")?.trim() ?? "";
  if (/^\d{1,3}(\.\d{1,4})?$/.test(rateText)) {
    const rate = Number(rateText);
    if (rate > 0 && rate <= 100) estimate.interestRate = rate;
  }
  const termText = params.get("loanTerm")?.trim() ?? "";
  if (/^\d{1,3}$/.test(termText) && (LOAN_DURATIONS as readonly number[]).includes(Number(termText))) {
    estimate.loanTerm = Number(termText);
  }
  const payment = readMoney(params.get("monthlyPayment"));
  if (payment !== undefined) estimate.monthlyPayment = payment;
  return Object.keys(estimate).length > 0 ? estimate : null;
}

export type CompleteEstimate = Required<PriorEstimate>;

export function isCompleteEstimate(estimate: PriorEstimate | null | undefined): estimate is CompleteEstimate {
  return (
    estimate != null &&
    estimate.loanAmount !== undefined &&
    estimate.interestRate !== undefined &&
    estimate.loanTerm !== undefined &&
    estimate.monthlyPayment !== undefined
  );
}

/** Identifies an estimate, so a reload does not apply (and announce) the same one twice. */
export function estimateKey(estimate: CompleteEstimate): string {
  return [estimate.loanAmount, estimate.interestRate, estimate.loanTerm, estimate.monthlyPayment].join("|");
}

/** Pre-fills amount, desired rate and duration from a complete estimate. */
export function applyEstimate(values: WizardValues, estimate: CompleteEstimate): WizardValues {
  return {
    ...values,
    loanAmount: formatAmountInput(Math.round(estimate.loanAmount)),
    desiredInterestRate: String(Number(estimate.interestRate.toFixed(2))),
    loanDuration: String(estimate.loanTerm),
  };
}

// --- The session draft ---------------------------------------------------------------------------

export { DRAFT_STORAGE_KEY, IDEMPOTENCY_STORAGE_KEY } from "./storage-keys";

export type WizardDraft = {
  v: 1;
  /** Whose draft: another account signing in in the same tab does not see it. */
  userId: string;
  step: StepNumber;
  values: Partial<WizardValues>;
  /** The estimate already applied (and announced). */
  estimateKey: string | null;
};

const TEMPLATE = emptyValues();
const MAX_DRAFT_TEXT = 2000;

/** The draft as stored: never the SSN, the bank numbers, the consent, files or the signature. */
export function serializeDraft(draft: { userId: string; step: StepNumber; values: WizardValues; estimateKey: string | null }): string {
  const values: Record<string, unknown> = { ...draft.values };
  for (const field of NOT_PERSISTED) delete values[field];
  const stored: WizardDraft = { v: 1, userId: draft.userId, step: draft.step, values: values as Partial<WizardValues>, estimateKey: draft.estimateKey };
  return JSON.stringify(stored);
}

/** Reads a stored draft defensively: unknown keys, wrong types and another user's draft are dropped. */
export function parseDraft(raw: string | null, userId: string): WizardDraft | null {
  if (!raw) return null;
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof data !== "object" || data === null) return null;
  const d = data as Record<string, unknown>;
  if (d.v !== 1 || d.userId !== userId || !isStepNumber(d.step)) return null;
  const values: Partial<Record<WizardField, string | boolean>> = {};
  const source = typeof d.values === "object" && d.values !== null ? (d.values as Record<string, unknown>) : {};
  for (const key of Object.keys(TEMPLATE) as WizardField[]) {
    if ((NOT_PERSISTED as readonly string[]).includes(key)) continue;
    const value = source[key];
    if (typeof value === typeof TEMPLATE[key] && (typeof value !== "string" || value.length <= MAX_DRAFT_TEXT)) {
      values[key] = value as string | boolean;
    }
  }
  return {
    v: 1,
    userId,
    step: d.step,
    values: values as Partial<WizardValues>,
    estimateKey: typeof d.estimateKey === "string" ? d.estimateKey : null,
  };
}

/**
 * The step to reopen a draft on: the saved one, unless an earlier step no longer passes. Documents,
 * bank numbers and the signature are never stored, so a draft reopens on step 4 at the latest.
 */
export function restoreStep(saved: StepNumber, values: WizardValues): StepNumber {
  const target = Math.min(saved, 4) as StepNumber;
  for (let step = 1; step < target; step++) {
    if (!checkSchemaStep(step as StepNumber, values).ok) return step as StepNumber;
  }
  return target;
}

// --- Submission ----------------------------------------------------------------------------------

/** A v4 UUID: crypto.randomUUID where available (secure contexts), else from getRandomValues. */
export function newIdempotencyKey(cryptoImpl: Pick<Crypto, "getRandomValues"> & { randomUUID?: () => string } = crypto): string {
  if (typeof cryptoImpl.randomUUID === "function") return cryptoImpl.randomUUID();
  const bytes = cryptoImpl.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The one multipart body: every text field, the documents, the signature PNG and the idempotency key. */
export function buildSubmission(
  values: WizardValues,
  files: Partial<Record<DocumentField, Blob & { name?: string }>>,
  signature: Blob,
  idempotencyKey: string,
): FormData {
  const body = new FormData();
  const fields = schemaInput({ ...values, agreeToTerms: true });
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  body.append(IDEMPOTENCY_FIELD, idempotencyKey);
  for (const doc of DOCUMENT_FIELDS) {
    const file = files[doc.field];
    if (file) body.append(doc.field, file, file.name || doc.field);
  }
  body.append(SIGNATURE_FIELD, signature, "signature.png");
  return body;
}

// --- Review masks ----------------------------------------------------------------------------------

/** ***-**-1234 (only the last four digits shown). */
export function maskSsn(ssn: string): string {
  const digits = digitsOnly(ssn);
  return digits.length >= 4 ? `***-**-${digits.slice(-4)}` : "";
}

/** ••••1234 */
export function maskAccount(account: string): string {
  const digits = digitsOnly(account);
  return digits ? `••••${digits.slice(-4)}` : "";
}

/** •••••••21 (nine characters, the last two digits shown). */
export function maskRouting(routing: string): string {
  const digits = digitsOnly(routing);
  return digits ? `${"•".repeat(Math.max(0, digits.length - 2))}${digits.slice(-2)}` : "";
}

/** "12.3 KB": the spec shows uploaded files' sizes in KB. */
export function sizeInKb(bytes: number): string {
  const kb = Math.max(bytes, 0) / 1024;
  return `${kb.toLocaleString("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 })} KB`;
}

export function isLoanType(value: string): value is LoanType {
  return (LOAN_TYPES as readonly string[]).includes(value);
}
