import { formatAmountInput } from "~/domain/formats";
import type { CompleteEstimate } from "~/domain/calculator-link";

/**
 * What the loan application wizard holds as a person types (no React, no storage): the values, their
 * empty start, which of them never reach the session draft, the date-of-birth selects, and the
 * mapping from typed values to the fields the schemas and the server read.
 */

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

/**
 * The first and last names of an account's name as signed up ("Jane Q Applicant" → "Jane Q",
 * "Applicant"): the last word is the last name, the rest the first. One word is a first name only.
 */
export function splitAccountName(name: string): { firstName: string; lastName: string } {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length < 2) return { firstName: words[0] ?? "", lastName: "" };
  return { firstName: words.slice(0, -1).join(" "), lastName: words.at(-1)! };
}

/** A blank wizard, with the signed-in account's e-mail and name filled in (the applicant can change them). */
export function emptyValues(email = "", name = ""): WizardValues {
  const { firstName, lastName } = splitAccountName(name);
  return {
    firstName,
    middleInitial: "",
    lastName,
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

/** Pre-fills amount, desired rate and duration from a complete estimate. */
export function applyEstimate(values: WizardValues, estimate: CompleteEstimate): WizardValues {
  return {
    ...values,
    // As the link carries it: an amount with cents is shown as such (step 2 refuses it), never rounded.
    loanAmount: formatAmountInput(estimate.loanAmount),
    desiredInterestRate: String(Number(estimate.interestRate.toFixed(2))),
    loanDuration: String(estimate.loanTerm),
  };
}
