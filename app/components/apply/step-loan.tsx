import { LIMITS, LOAN_DURATIONS, LOAN_TYPES } from "~/domain/enums";
import { RATE_BOUNDS } from "~/domain/loan-math";
import { AmountField, SelectField, TextareaField, TextField } from "./fields";
import type { StepProps } from "./step-types";
import { durationLabel, LOAN_TYPE_LABELS } from "./wizard-model";

const LOAN_TYPE_OPTIONS = LOAN_TYPES.map((type) => ({ value: type, label: LOAN_TYPE_LABELS[type] }));
const DURATION_OPTIONS = LOAN_DURATIONS.map((months) => ({ value: String(months), label: durationLabel(months) }));

/** Step 2: what is asked for (spec 000 §3 Loan, §5 step 2). */
export function LoanDetailsStep({ idPrefix, values, errors, set }: StepProps) {
  const id = (name: string) => `${idPrefix}-${name}`;
  const purposeLength = values.loanPurpose.length;
  return (
    <div className="grid gap-x-4 gap-y-3 sm:grid-cols-2">
      <SelectField
        id={id("loanType")}
        field="loanType"
        label="Loan Type"
        required
        placeholder="Select a loan type"
        options={LOAN_TYPE_OPTIONS}
        value={values.loanType}
        onValue={(v) => set("loanType", v)}
        error={errors.loanType}
      />
      <AmountField
        id={id("loanAmount")}
        field="loanAmount"
        label="Loan Amount"
        required
        placeholder="50,000"
        value={values.loanAmount}
        onValue={(v) => set("loanAmount", v)}
        error={errors.loanAmount}
      />
      <TextField
        id={id("desiredInterestRate")}
        field="desiredInterestRate"
        label="Desired Interest Rate (%)"
        required
        type="number"
        inputMode="decimal"
        step={RATE_BOUNDS.step}
        min={RATE_BOUNDS.min}
        max={RATE_BOUNDS.max}
        hint={`Range: ${RATE_BOUNDS.min}% - ${RATE_BOUNDS.max}%`}
        value={values.desiredInterestRate}
        onValue={(v) => set("desiredInterestRate", v)}
        error={errors.desiredInterestRate}
      />
      <SelectField
        id={id("loanDuration")}
        field="loanDuration"
        label="Loan Duration"
        required
        placeholder="Select a duration"
        options={DURATION_OPTIONS}
        value={values.loanDuration}
        onValue={(v) => set("loanDuration", v)}
        error={errors.loanDuration}
      />
      <TextareaField
        id={id("loanPurpose")}
        field="loanPurpose"
        label="Loan Purpose"
        required
        maxLength={LIMITS.purposeMaxLength}
        value={values.loanPurpose}
        onValue={(v) => set("loanPurpose", v)}
        error={errors.loanPurpose}
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
          id={id("propertyAddress")}
          field="propertyAddress"
          label="Property Address"
          required
          autoComplete="off"
          maxLength={300}
          hint="The property that secures the loan."
          value={values.propertyAddress}
          onValue={(v) => set("propertyAddress", v)}
          error={errors.propertyAddress}
          className="sm:col-span-2"
        />
      ) : null}
      {values.loanType === "business" ? (
        <>
          <TextField
            id={id("businessName")}
            field="businessName"
            label="Business Name"
            autoComplete="organization"
            maxLength={200}
            value={values.businessName}
            onValue={(v) => set("businessName", v)}
            error={errors.businessName}
          />
          <TextField
            id={id("businessYears")}
            field="businessYears"
            label="Years in Business"
            type="number"
            inputMode="numeric"
            min={0}
            step={1}
            value={values.businessYears}
            onValue={(v) => set("businessYears", v)}
            error={errors.businessYears}
          />
        </>
      ) : null}
    </div>
  );
}
