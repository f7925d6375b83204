import { z } from "./zod";
import { fromText, moneyField, rateField } from "./figure-fields";
import { centsFromDollars, isWholeDollars, rateFromPercent } from "~/domain/money";
import { CONTROL_CHARACTER_MESSAGE, hasNoControlCharacters } from "./text-rules";
import { APPLICATION_MESSAGES, APPLICATION_STEP_TITLES, IDEMPOTENCY_FIELD, MAX_LOAN_AMOUNT, MAX_MONEY, US_STATES } from "./application-constants";
import { BANK_ACCOUNT_TYPES, EMPLOYMENT_STATUSES, isOneOf, LIMITS, LOAN_DURATIONS, LOAN_TYPES } from "~/domain/enums";
import {
  amountRangeMessage,
  employerRequired,
  isAmountInRange,
  isTermInRange,
  isValidSsn,
  termRangeMessage,
} from "~/domain/lending-rules";
import { routingNumberProblem } from "~/domain/routing-number";
import { ACCOUNT_NUMBER_DIGITS, isValidAccountNumber } from "~/domain/bank-account-number";

/**
 * The loan application wizard: one schema per step, used by each step in the browser (Continue) and
 * again, together, by the server on submission. Inputs are the strings a form holds; outputs are typed,
 * money as integer cents and rates as thousandths of a percent (decision 0078).
 * Messages are the spec's (docs/requirements.md §6); the first failing rule of a step is the one shown.
 */

// The wizard's constants and document checks live in a module without Zod: pages that only need them
// (an application's What We Need, /account) then do not build these schemas at start-up (decision 0052).
export {
  APPLICATION_MESSAGES,
  APPLICATION_STEP_TITLES,
  DOCUMENT_FIELDS,
  documentFileMessage,
  documentProblem,
  IDEMPOTENCY_FIELD,
  MAX_FILE_BYTES,
  MAX_LOAN_AMOUNT,
  MAX_MONEY,
  MAX_SIGNATURE_BYTES,
  SIGNATURE_FIELD,
  US_STATES,
  type DocumentField,
} from "./application-constants";

const text = (max: number) => z.string().trim().max(max).refine(hasNoControlCharacters, CONTROL_CHARACTER_MESSAGE);
const required = (message: string, max = 200) =>
  z.string({ error: message }).trim().min(1, message).max(max, message).refine(hasNoControlCharacters, CONTROL_CHARACTER_MESSAGE);
/** A required choice from `list` (a select's value): `message` when it is not one of them. */
const oneOf = <T extends string>(list: readonly T[], requiredMessage: string, max: number, message = requiredMessage) =>
  required(requiredMessage, max).refine((v) => (list as readonly string[]).includes(v), message) as unknown as z.ZodType<T, string>;
const optional = (max: number) =>
  text(max)
    .optional()
    .transform((v) => (v ? v : undefined));
const digits = (value: string) => value.replace(/\D/g, "");
const yes = z
  .union([z.boolean(), z.string()])
  .optional()
  .transform((v) => v === true || v === "true" || v === "on" || v === "yes");

/** The most any amount of the wizard may be, in cents. */
const MAX_MONEY_CENTS = centsFromDollars(MAX_MONEY);

/**
 * A money amount typed with or without thousands separators ("50,000" or "50000.50"), as integer
 * cents (the server stores them as they come). The text's own length limit caps its digits.
 */
function money(message: string, { minCents = 0, maxCents = MAX_MONEY_CENTS } = {}) {
  return fromText(moneyField(message, { maxWholeDigits: 20, minCents, maxCents }));
}

/** An optional amount: empty is not given. */
function optionalMoney(message: string) {
  return z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .pipe(money(message).optional());
}

/**
 * An optional text ("" counts as not given) that must match `pattern` when given; `max` caps its
 * length and `upper` upper-cases it before the check.
 */
function optionalMatching(pattern: RegExp, message: string, { max, upper = false }: { max?: number; upper?: boolean } = {}) {
  const trimmed = z.string().trim();
  return (max === undefined ? trimmed : trimmed.max(max, message))
    .optional()
    .transform((v) => (v ? (upper ? v.toUpperCase() : v) : undefined))
    .refine((v) => v === undefined || pattern.test(v), message);
}

/** An optional whole or decimal number typed as text, checked as text by `pattern` first. */
function optionalNumber(pattern: RegExp, message: string) {
  return optionalMatching(pattern, message).transform((v) => (v === undefined ? undefined : Number(v)));
}

/** Age in whole years on `today` for a yyyy-MM-dd birth date. */
export function ageOn(dateOfBirth: string, today = new Date()): number {
  const [y, m, d] = dateOfBirth.split("-").map(Number) as [number, number, number];
  let age = today.getUTCFullYear() - y;
  const beforeBirthday = today.getUTCMonth() + 1 < m || (today.getUTCMonth() + 1 === m && today.getUTCDate() < d);
  if (beforeBirthday) age -= 1;
  return age;
}

function isRealDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d && y >= 1900;
}

const nameRule = /^[A-Za-z\s-]+$/;

export const personalInfoSchema = z.object({
  firstName: required(APPLICATION_MESSAGES.requiredStep1, 50).regex(nameRule, APPLICATION_MESSAGES.names),
  middleInitial: optionalMatching(/^[A-Z]$/, APPLICATION_MESSAGES.names, { max: 1, upper: true }),
  lastName: required(APPLICATION_MESSAGES.requiredStep1, 50).regex(nameRule, APPLICATION_MESSAGES.names),
  dateOfBirth: required(APPLICATION_MESSAGES.requiredStep1, 10)
    .refine(isRealDate, APPLICATION_MESSAGES.dateOfBirth)
    .refine((v) => !isRealDate(v) || new Date(`${v}T00:00:00Z`).getTime() <= Date.now(), APPLICATION_MESSAGES.dateOfBirth)
    .refine((v) => !isRealDate(v) || ageOn(v) >= 18, APPLICATION_MESSAGES.age),
  ssn: optionalMatching(/^(\d{9}|\d{3}-\d{2}-\d{4})$/, APPLICATION_MESSAGES.ssn, { max: 11 })
    .refine((v) => v === undefined || isValidSsn(v), APPLICATION_MESSAGES.ssnNotIssued)
    .transform((v) => (v === undefined ? undefined : digits(v))),
  email: required(APPLICATION_MESSAGES.requiredStep1, 254)
    .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, APPLICATION_MESSAGES.email)
    .transform((v) => v.toLowerCase()),
  phone: required(APPLICATION_MESSAGES.requiredStep1, 14)
    .transform(digits)
    .refine((v) => v.length === 10, APPLICATION_MESSAGES.phone),
  addressLine1: required(APPLICATION_MESSAGES.requiredStep1, 200),
  addressLine2: optional(200),
  city: required(APPLICATION_MESSAGES.requiredStep1, 100),
  state: required(APPLICATION_MESSAGES.requiredStep1, 2).refine(
    (v) => (US_STATES as readonly string[]).includes(v),
    APPLICATION_MESSAGES.state,
  ),
  zipCode: required(APPLICATION_MESSAGES.requiredStep1, 10).refine((v) => /^\d{5}$/.test(v), APPLICATION_MESSAGES.zip),
});

export const loanDetailsSchema = z
  .object({
    loanType: oneOf(LOAN_TYPES, APPLICATION_MESSAGES.requiredStep2, 40, APPLICATION_MESSAGES.loanType),
    // Loans are made in whole dollars: cents typed are refused with a message, never rounded away.
    loanAmount: required(APPLICATION_MESSAGES.requiredStep2, 20).pipe(
      money(APPLICATION_MESSAGES.amount, { minCents: 1, maxCents: centsFromDollars(MAX_LOAN_AMOUNT) }).refine(isWholeDollars, APPLICATION_MESSAGES.amountWholeDollars),
    ),
    // Thousandths of a percent; read as typed (no "$" or spaces dropped), up to the text's length.
    desiredInterestRate: required(APPLICATION_MESSAGES.requiredStep2, 10).pipe(
      fromText(rateField(APPLICATION_MESSAGES.rate, {
        maxWholeDigits: 10,
        minMilli: rateFromPercent(LIMITS.interestRateMin),
        maxMilli: rateFromPercent(LIMITS.interestRateMax),
        strip: null,
      })),
    ),
    loanDuration: required(APPLICATION_MESSAGES.requiredStep2, 4)
      .refine((v) => /^\d+$/.test(v), APPLICATION_MESSAGES.duration)
      .transform(Number)
      .refine((n) => (LOAN_DURATIONS as readonly number[]).includes(n), APPLICATION_MESSAGES.duration),
    loanPurpose: required(APPLICATION_MESSAGES.requiredStep2, 1000).refine(
      (v) => v.length >= LIMITS.purposeMinLength && v.length <= LIMITS.purposeMaxLength,
      APPLICATION_MESSAGES.purpose,
    ),
    propertyAddress: optional(300),
    businessName: optional(200),
    businessYears: optionalNumber(/^\d{1,3}$/, APPLICATION_MESSAGES.businessYears),
  })
  .superRefine((v, ctx) => {
    // Zod runs this even when a field above failed: the ranges apply only to a known type and valid numbers.
    if (!isOneOf(LOAN_TYPES, v.loanType)) return;
    if (typeof v.loanAmount === "number" && !isAmountInRange(v.loanType, v.loanAmount)) {
      ctx.addIssue({ code: "custom", path: ["loanAmount"], message: amountRangeMessage(v.loanType) });
    }
    if (typeof v.loanDuration === "number" && (LOAN_DURATIONS as readonly number[]).includes(v.loanDuration) && !isTermInRange(v.loanType, v.loanDuration)) {
      ctx.addIssue({ code: "custom", path: ["loanDuration"], message: termRangeMessage(v.loanType) });
    }
    if (v.loanType === "hard-money" && !v.propertyAddress) {
      ctx.addIssue({ code: "custom", path: ["propertyAddress"], message: APPLICATION_MESSAGES.requiredStep2 });
    }
  });

export const financialInfoSchema = z
  .object({
    employmentStatus: oneOf(EMPLOYMENT_STATUSES, APPLICATION_MESSAGES.requiredStep3, 20),
    // Stored as "" when a retired or unemployed applicant names none (the column is NOT NULL).
    employerName: optional(200).transform((v) => v ?? ""),
    jobTitle: optional(200),
    yearsEmployed: optionalNumber(/^\d{1,2}(\.\d)?$/, APPLICATION_MESSAGES.yearsEmployed),
    monthlyIncome: required(APPLICATION_MESSAGES.requiredStep3, 20).pipe(money(APPLICATION_MESSAGES.money)),
    annualIncome: optionalMoney(APPLICATION_MESSAGES.money),
    creditScore: optionalNumber(/^\d{3}$/, APPLICATION_MESSAGES.creditScore).refine(
      (n) => n === undefined || (n >= LIMITS.creditScoreMin && n <= LIMITS.creditScoreMax),
      APPLICATION_MESSAGES.creditScore,
    ),
    monthlyDebts: optionalMoney(APPLICATION_MESSAGES.money),
    hasOutstandingLoans: yes,
    authorizeCreditReport: yes,
  })
  .superRefine((v, ctx) => {
    // Retired and unemployed applicants have no current employer to name.
    if (employerRequired(v.employmentStatus) && !v.employerName) {
      ctx.addIssue({ code: "custom", path: ["employerName"], message: APPLICATION_MESSAGES.requiredStep3 });
    }
  });

export const bankInfoSchema = z.object({
  accountHolderName: required(APPLICATION_MESSAGES.requiredBank, 200),
  bankName: required(APPLICATION_MESSAGES.requiredBank, 200),
  bankAddress: optional(300),
  // Room for spaces typed between groups: the length that counts is the digits', checked by the rule.
  accountNumber: required(APPLICATION_MESSAGES.requiredBank, 2 * ACCOUNT_NUMBER_DIGITS.max)
    .transform((v) => v.replace(/\s/g, ""))
    .refine(isValidAccountNumber, APPLICATION_MESSAGES.account),
  routingNumber: required(APPLICATION_MESSAGES.requiredBank, 9)
    .transform((v) => v.replace(/\s/g, ""))
    .refine((v) => /^\d{9}$/.test(v), APPLICATION_MESSAGES.routing)
    .refine((v) => routingNumberProblem(v) !== "routingSymbol", APPLICATION_MESSAGES.routingSymbol)
    .refine((v) => routingNumberProblem(v) !== "checkDigit", APPLICATION_MESSAGES.routingChecksum),
  swiftCode: optionalMatching(/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/, APPLICATION_MESSAGES.swift, { max: 11, upper: true }),
  bankAccountType: oneOf(BANK_ACCOUNT_TYPES, APPLICATION_MESSAGES.requiredBank, 20),
});

export const termsSchema = z.object({
  agreeToTerms: yes.refine((v) => v, APPLICATION_MESSAGES.terms),
});

/** The wizard's five steps: the field names each validates (server errors name the step to return to). */
export const STEP_SCHEMAS = [
  { step: 1, title: APPLICATION_STEP_TITLES[0], schema: personalInfoSchema },
  { step: 2, title: APPLICATION_STEP_TITLES[1], schema: loanDetailsSchema },
  { step: 3, title: APPLICATION_STEP_TITLES[2], schema: financialInfoSchema },
  { step: 4, title: APPLICATION_STEP_TITLES[3], schema: bankInfoSchema },
  { step: 5, title: APPLICATION_STEP_TITLES[4], schema: termsSchema },
] as const;

export const applicationFieldsSchema = z.object({
  ...personalInfoSchema.shape,
  ...loanDetailsSchema.shape,
  ...financialInfoSchema.shape,
  ...bankInfoSchema.shape,
  ...termsSchema.shape,
});

export type PersonalInfo = z.output<typeof personalInfoSchema>;
export type LoanDetails = z.output<typeof loanDetailsSchema>;
export type FinancialInfo = z.output<typeof financialInfoSchema>;
export type BankInfo = z.output<typeof bankInfoSchema>;
export type ApplicationFields = PersonalInfo & LoanDetails & FinancialInfo & BankInfo & { agreeToTerms: boolean };

/** Every text field the submission may carry; any other field name is refused. */
export const APPLICATION_TEXT_FIELDS = [
  ...Object.keys(personalInfoSchema.shape),
  ...Object.keys(loanDetailsSchema.shape),
  ...Object.keys(financialInfoSchema.shape),
  ...Object.keys(bankInfoSchema.shape),
  ...Object.keys(termsSchema.shape),
  IDEMPOTENCY_FIELD,
] as const;

export type StepProblem = { step: 1 | 2 | 3 | 4 | 5; field: string; message: string };

/** Validates every step in order; the first problem found names the step and field to fix. */
export function validateApplicationFields(
  raw: Record<string, string>,
): { ok: true; value: ApplicationFields } | { ok: false; problem: StepProblem } {
  const value: Record<string, unknown> = {};
  for (const { step, schema } of STEP_SCHEMAS) {
    const result = (schema as z.ZodType).safeParse(raw);
    if (!result.success) {
      const issue = result.error.issues[0]!;
      return { ok: false, problem: { step, field: String(issue.path[0] ?? ""), message: issue.message } };
    }
    Object.assign(value, result.data);
  }
  return { ok: true, value: value as ApplicationFields };
}
