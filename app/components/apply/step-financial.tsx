import { EMPLOYMENT_STATUSES, LIMITS } from "~/domain/enums";
import { digitsOnly } from "~/domain/formats";
import { AmountField, CheckboxField, SelectField, TextField } from "./fields";
import { binder, type StepProps } from "./step-types";
import { EMPLOYMENT_LABELS } from "~/domain/labels";

const EMPLOYMENT_OPTIONS = EMPLOYMENT_STATUSES.map((status) => ({ value: status, label: EMPLOYMENT_LABELS[status] }));

/** Step 3: employment and finances (docs/requirements.md §4 Financial, §5 step 3). */
export function FinancialInfoStep({ idPrefix, values, errors, set }: StepProps) {
  const bind = binder({ idPrefix, values, errors, set });
  return (
    <div className="grid gap-x-4 gap-y-3 sm:grid-cols-2">
      <SelectField
        {...bind.text("employmentStatus")}
        label="Employment Status"
        required
        placeholder="Select employment status"
        options={EMPLOYMENT_OPTIONS}
      />
      <TextField
        {...bind.text("employerName")}
        label="Employer Name"
        required
        autoComplete="organization"
        maxLength={200}
      />
      <TextField
        {...bind.text("jobTitle")}
        label="Job Title"
        autoComplete="organization-title"
        maxLength={200}
      />
      <TextField
        {...bind.text("yearsEmployed")}
        label="Years Employed"
        type="number"
        inputMode="decimal"
        min={0}
        max={99}
        step={0.5}
      />
      <AmountField
        {...bind.text("monthlyIncome")}
        label="Monthly Income"
        required
      />
      <AmountField
        {...bind.text("annualIncome")}
        label="Annual Income"
      />
      <TextField
        {...bind.text("creditScore")}
        label="Credit Score"
        inputMode="numeric"
        autoComplete="off"
        maxLength={3}
        hint={`Between ${LIMITS.creditScoreMin} and ${LIMITS.creditScoreMax}, if you know it.`}
        transform={(v) => digitsOnly(v).slice(0, 3)}
      />
      <AmountField
        {...bind.text("monthlyDebts")}
        label="Monthly Debts"
        hint="Total monthly payments on existing debts."
      />
      <CheckboxField
        {...bind.check("hasOutstandingLoans")}
        label="Do you have outstanding loans?"
        description="Check if you are currently repaying other loans."
        className="mt-2 sm:col-span-2"
      />
      <CheckboxField
        {...bind.check("authorizeCreditReport")}
        label="I authorize a credit report"
        description="Private Loans may obtain a consumer credit report to review this application."
        className="sm:col-span-2"
      />
    </div>
  );
}
