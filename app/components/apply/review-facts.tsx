import type { ReactNode } from "react";
import { formatPercent, formatPhone } from "~/domain/formats";
import { formatAmount, parseAmountInput } from "~/domain/money";
import { ACCOUNT_TYPE_LABELS, DESIRED_RATE_LABEL, EMPLOYMENT_LABELS, LOAN_TYPE_LABELS, termLabel } from "~/domain/labels";
import type { Fact } from "./fact-list";
import { maskAccount, maskRouting, maskSsn } from "./review-masks";
import { composeDateOfBirth, MONTH_NAMES, type WizardValues } from "./wizard-values";

/** What the review step lists for each section: the answers as a person reads them, sensitive numbers masked. */

/** An answer, or a muted 'Not provided' when it is empty. */
function show(value: string | undefined | null): ReactNode {
  return value && value.trim() ? value : <span className="text-muted-foreground">Not provided</span>;
}

/** A typed amount as typed: "$50,000", "$4,250.50" with cents, or 'Not provided' when nothing was typed. */
function dollars(typed: string): ReactNode {
  return typed ? formatAmount(parseAmountInput(typed)) : show("");
}

/** A value's label; a value without one is shown as written. */
function labelOf(labels: Readonly<Record<string, string>>, value: string): string {
  return Object.hasOwn(labels, value) ? labels[value]! : value;
}

const yesNo = (value: boolean) => (value ? "Yes" : "No");

function dateForPeople(dob: string): string {
  const [y, m, d] = dob.split("-");
  if (!y || !m || !d) return "";
  return `${MONTH_NAMES[Number(m) - 1] ?? m} ${Number(d)}, ${y}`;
}

export function personalFacts(values: WizardValues): Fact[] {
  const name = [values.firstName, values.middleInitial ? `${values.middleInitial}.` : "", values.lastName].filter(Boolean).join(" ");
  const address = [values.addressLine1, values.addressLine2, `${values.city}, ${values.state} ${values.zipCode}`].filter(Boolean).join(", ");
  return [
    ["Name", show(name)],
    ["Date of Birth", show(dateForPeople(composeDateOfBirth(values)))],
    ["Social Security Number", show(maskSsn(values.ssn))],
    ["Email", show(values.email)],
    ["Phone", show(formatPhone(values.phone))],
    ["Address", show(address)],
  ];
}

export function loanFacts(values: WizardValues): Fact[] {
  const amount = parseAmountInput(values.loanAmount);
  const rate = Number(values.desiredInterestRate);
  const months = Number(values.loanDuration);
  const facts: Fact[] = [
    ["Loan Type", show(labelOf(LOAN_TYPE_LABELS, values.loanType))],
    ["Loan Amount", amount > 0 ? formatAmount(amount) : show("")],
    [DESIRED_RATE_LABEL, Number.isFinite(rate) && values.desiredInterestRate ? formatPercent(rate) : show("")],
    ["Loan Duration", months > 0 ? termLabel(months) : show("")],
    ["Loan Purpose", show(values.loanPurpose)],
  ];
  if (values.loanType === "hard-money") facts.push(["Property Address", show(values.propertyAddress)]);
  if (values.loanType === "business") {
    facts.push(["Business Name", show(values.businessName)], ["Years in Business", show(values.businessYears)]);
  }
  return facts;
}

export function financialFacts(values: WizardValues): Fact[] {
  return [
    ["Employment Status", show(labelOf(EMPLOYMENT_LABELS, values.employmentStatus))],
    ["Employer Name", show(values.employerName)],
    ["Job Title", show(values.jobTitle)],
    ["Years Employed", show(values.yearsEmployed)],
    ["Monthly Income", dollars(values.monthlyIncome)],
    ["Annual Income", dollars(values.annualIncome)],
    ["Credit Score", show(values.creditScore)],
    ["Monthly Debts", dollars(values.monthlyDebts)],
    ["Outstanding Loans", yesNo(values.hasOutstandingLoans)],
    ["Credit Report Authorized", yesNo(values.authorizeCreditReport)],
  ];
}

export function bankFacts(values: WizardValues): Fact[] {
  return [
    ["Account Holder Name", show(values.accountHolderName)],
    ["Bank Name", show(values.bankName)],
    ["Bank Address", show(values.bankAddress)],
    ["Account Number", show(maskAccount(values.accountNumber))],
    ["Routing Number", show(maskRouting(values.routingNumber))],
    ["SWIFT Code", show(values.swiftCode)],
    ["Account Type", show(labelOf(ACCOUNT_TYPE_LABELS, values.bankAccountType))],
  ];
}
