import { EMPLOYMENT_STATUSES, LIMITS } from "~/domain/enums";
import { employerRequired } from "~/domain/lending-rules";
import { EMPLOYMENT_LABELS } from "~/domain/labels";
import { digitsUpTo } from "./fields";
import { StepFields, type FieldSpec } from "./step-fields";
import type { StepProps } from "./step-types";
import type { WizardValues } from "./wizard-values";

const EMPLOYMENT_OPTIONS = EMPLOYMENT_STATUSES.map((status) => ({ value: status, label: EMPLOYMENT_LABELS[status] }));
const CREDIT_SCORE_HINT = `Between ${LIMITS.creditScoreMin} and ${LIMITS.creditScoreMax}, if you know it.`;

const hasEmployer = (values: WizardValues) => employerRequired(values.employmentStatus);

const FINANCIAL_FIELDS: readonly FieldSpec[] = [
  { kind: "select", name: "employmentStatus", label: "Employment Status", required: true, placeholder: "Select employment status", options: EMPLOYMENT_OPTIONS },
  // Retired and unemployed applicants may leave it empty: the same field, marked optional for them.
  { kind: "text", name: "employerName", when: hasEmployer, label: "Employer Name", required: true, autoComplete: "organization", maxLength: 200 },
  { kind: "text", name: "employerName", when: (v) => !hasEmployer(v), label: "Employer Name", autoComplete: "organization", maxLength: 200 },
  { kind: "text", name: "jobTitle", label: "Job Title", autoComplete: "organization-title", maxLength: 200 },
  { kind: "text", name: "yearsEmployed", label: "Years Employed", type: "number", inputMode: "decimal", min: 0, max: 99, step: 0.5 },
  { kind: "amount", name: "monthlyIncome", label: "Monthly Income", required: true },
  { kind: "amount", name: "annualIncome", label: "Annual Income" },
  { kind: "text", name: "creditScore", label: "Credit Score", inputMode: "numeric", autoComplete: "off", maxLength: 3, hint: CREDIT_SCORE_HINT, transform: digitsUpTo(3) },
  { kind: "amount", name: "monthlyDebts", label: "Monthly Debts", hint: "Total monthly payments on existing debts." },
  {
    kind: "check",
    name: "hasOutstandingLoans",
    label: "Do you have outstanding loans?",
    description: "Check if you are currently repaying other loans.",
    className: "mt-2 sm:col-span-2",
  },
  {
    kind: "check",
    name: "authorizeCreditReport",
    label: "I authorize a credit report",
    description: "Private Loans may obtain a consumer credit report to review this application.",
    className: "sm:col-span-2",
  },
];

/** Step 3: employment and finances (docs/requirements.md §4 Financial, §5 step 3). */
export function FinancialInfoStep(props: StepProps) {
  return (
    <div className="grid gap-x-4 gap-y-3 sm:grid-cols-2">
      <StepFields {...props} fields={FINANCIAL_FIELDS} />
    </div>
  );
}
