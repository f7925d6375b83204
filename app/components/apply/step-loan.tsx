import { isOneOf, LIMITS, LOAN_TYPES, type LoanType } from "~/domain/enums";
import { amountRangeMessage, durationsFor } from "~/domain/lending-rules";
import { DESIRED_RATE_LABEL, LOAN_TYPE_LABELS, termLabel } from "~/domain/labels";
import { RATE_HINT, RATE_INPUT } from "~/components/calculator/rate-input";
import { StepFields, type FieldSpec } from "./step-fields";
import type { StepProps } from "./step-types";
import type { WizardValues } from "./wizard-values";

const LOAN_TYPE_OPTIONS = LOAN_TYPES.map((type) => ({ value: type, label: LOAN_TYPE_LABELS[type] }));

/** The chosen loan type, if one is chosen. */
const loanTypeOf = (values: WizardValues): LoanType | undefined => (isOneOf(LOAN_TYPES, values.loanType) ? values.loanType : undefined);

/** Only the terms the chosen loan offers are listed. */
const durationOptions = (loanType: LoanType | undefined) => durationsFor(loanType).map((months) => ({ value: String(months), label: termLabel(months) }));

/** A hint under the amount instead of a placeholder (a grey "50,000" after the '$' reads as a value). */
const amountHint = (loanType: LoanType | undefined) => (loanType ? `${amountRangeMessage(loanType)} Whole dollars.` : "Whole dollars, for example 50,000.");

const isHardMoney = (values: WizardValues) => values.loanType === "hard-money";
const isBusiness = (values: WizardValues) => values.loanType === "business";

const loanFields = (loanType: LoanType | undefined): readonly FieldSpec[] => [
  { kind: "select", name: "loanType", label: "Loan Type", required: true, placeholder: "Select a loan type", options: LOAN_TYPE_OPTIONS },
  { kind: "amount", name: "loanAmount", label: "Loan Amount", required: true, hint: amountHint(loanType) },
  { kind: "text", name: "desiredInterestRate", label: DESIRED_RATE_LABEL, required: true, ...RATE_INPUT, hint: RATE_HINT },
  { kind: "select", name: "loanDuration", label: "Loan Duration", required: true, placeholder: "Select a duration", options: durationOptions(loanType) },
  {
    kind: "textarea",
    name: "loanPurpose",
    label: "Loan Purpose",
    required: true,
    maxLength: LIMITS.purposeMaxLength,
    className: "sm:col-span-2",
    hint: `Minimum ${LIMITS.purposeMinLength} characters`,
    showCount: true,
  },
  {
    kind: "text",
    name: "propertyAddress",
    when: isHardMoney,
    label: "Property Address",
    required: true,
    autoComplete: "off",
    maxLength: 300,
    hint: "The property that secures the loan.",
    className: "sm:col-span-2",
  },
  { kind: "text", name: "businessName", when: isBusiness, label: "Business Name", autoComplete: "organization", maxLength: 200 },
  { kind: "text", name: "businessYears", when: isBusiness, label: "Years in Business", type: "number", inputMode: "numeric", min: 0, step: 1 },
];

/** Step 2: what is asked for (docs/requirements.md §4 Loan, §5 step 2). */
export function LoanDetailsStep(props: StepProps) {
  return (
    <div className="grid gap-x-4 gap-y-3 sm:grid-cols-2">
      <StepFields {...props} fields={loanFields(loanTypeOf(props.values))} />
    </div>
  );
}
