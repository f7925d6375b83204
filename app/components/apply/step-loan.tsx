import { LIMITS, LOAN_DURATIONS, LOAN_TYPES } from "~/domain/enums";
import { RATE_BOUNDS } from "~/domain/loan-math";
import { AmountField, SelectField, TextareaField, TextField } from "./fields";
import { binder, type StepProps } from "./step-types";
import { LOAN_TYPE_LABELS, termLabel } from "~/domain/labels";

const LOAN_TYPE_OPTIONS = LOAN_TYPES.map((type) => ({ value: type, label: LOAN_TYPE_LABELS[type] }));
const DURATION_OPTIONS = LOAN_DURATIONS.map((months) => ({ value: String(months), label: termLabel(months) }));

/** Step 2: what is asked for (docs/requirements.md §4 Loan, §5 step 2). */
export function LoanDetailsStep({ idPrefix, values, errors, set }: StepProps) {
  const bind = binder({ idPrefix, values, errors, set });
  const purposeLength = values.loanPurpose.length;
  return (
    <div className="grid gap-x-4 gap-y-3 sm:grid-cols-2">
      <SelectField
        {...bind.text("loanType")}
        label="Loan Type"
        required
        placeholder="Select a loan type"
        options={LOAN_TYPE_OPTIONS}
      />
      <AmountField
        {...bind.text("loanAmount")}
        label="Loan Amount"
        required
        placeholder="50,000"
      />
      <TextField
        {...bind.text("desiredInterestRate")}
        label="Desired Interest Rate (%)"
        required
        type="number"
        inputMode="decimal"
        step={RATE_BOUNDS.step}
        min={RATE_BOUNDS.min}
        max={RATE_BOUNDS.max}
        hint={`Range: ${RATE_BOUNDS.min}% - ${RATE_BOUNDS.max}%`}
      />
      <SelectField
        {...bind.text("loanDuration")}
        label="Loan Duration"
        required
        placeholder="Select a duration"
        options={DURATION_OPTIONS}
      />
      <TextareaField
        {...bind.text("loanPurpose")}
        label="Loan Purpose"
        required
        maxLength={LIMITS.purposeMaxLength}
        className="sm:col-span-2"
        hint={
          <span className="flex flex-wrap justify-between gap-2">
            <span>Minimum {LIMITS.purposeMinLength} characters</span>
            <span>
              {purposeLength}/{LIMITS.purposeMaxLength} characters
            </span>
          </span>
        }
      />
      {values.loanType === "hard-money" ? (
        <TextField
          {...bind.text("propertyAddress")}
          label="Property Address"
          required
          autoComplete="off"
          maxLength={300}
          hint="The property that secures the loan."
          className="sm:col-span-2"
        />
      ) : null}
      {values.loanType === "business" ? (
        <>
          <TextField
            {...bind.text("businessName")}
            label="Business Name"
            autoComplete="organization"
            maxLength={200}
          />
          <TextField
            {...bind.text("businessYears")}
            label="Years in Business"
            type="number"
            inputMode="numeric"
            min={0}
            step={1}
          />
        </>
      ) : null}
    </div>
  );
}
