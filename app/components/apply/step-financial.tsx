import { EMPLOYMENT_STATUSES, LIMITS } from "~/domain/enums";
import { digitsOnly } from "~/domain/formats";
import { AmountField, CheckboxField, SelectField, TextField } from "./fields";
import type { StepProps } from "./step-types";
import { EMPLOYMENT_LABELS } from "./wizard-model";

const EMPLOYMENT_OPTIONS = EMPLOYMENT_STATUSES.map((status) => ({ value: status, label: EMPLOYMENT_LABELS[status] }));

/** Step 3: employment and finances (spec 000 §3 Financial, §5 step 3). */
export function FinancialInfoStep({ idPrefix, values, errors, set }: StepProps) {
  const id = (name: string) => `${idPrefix}-${name}`;
  return (
    <div className="grid gap-x-4 gap-y-3 sm:grid-cols-2">
      <SelectField
        id={id("employmentStatus")}
        field="employmentStatus"
        label="Employment Status"
        required
        placeholder="Select employment status"
        options={EMPLOYMENT_OPTIONS}
        value={values.employmentStatus}
        onValue={(v) => set("employmentStatus", v)}
        error={errors.employmentStatus}
      />
      <TextField
        id={id("employerName")}
        field="employerName"
        label="Employer Name"
        required
        autoComplete="organization"
        maxLength={200}
        value={values.employerName}
        onValue={(v) => set("employerName", v)}
        error={errors.employerName}
      />
      <TextField
        id={id("jobTitle")}
        field="jobTitle"
        label="Job Title"
        autoComplete="organization-title"
        maxLength={200}
        value={values.jobTitle}
        onValue={(v) => set("jobTitle", v)}
        error={errors.jobTitle}
      />
      <TextField
        id={id("yearsEmployed")}
        field="yearsEmployed"
        label="Years Employed"
        type="number"
        inputMode="decimal"
        min={0}
        max={99}
        step={0.5}
        value={values.yearsEmployed}
        onValue={(v) => set("yearsEmployed", v)}
        error={errors.yearsEmployed}
      />
      <AmountField
        id={id("monthlyIncome")}
        field="monthlyIncome"
        label="Monthly Income"
        required
        value={values.monthlyIncome}
        onValue={(v) => set("monthlyIncome", v)}
        error={errors.monthlyIncome}
      />
      <AmountField
        id={id("annualIncome")}
        field="annualIncome"
        label="Annual Income"
        value={values.annualIncome}
        onValue={(v) => set("annualIncome", v)}
        error={errors.annualIncome}
      />
      <TextField
        id={id("creditScore")}
        field="creditScore"
        label="Credit Score"
        inputMode="numeric"
        autoComplete="off"
        maxLength={3}
        hint={`Between ${LIMITS.creditScoreMin} and ${LIMITS.creditScoreMax}, if you know it.`}
        value={values.creditScore}
        onValue={(v) => set("creditScore", v)}
        transform={(v) => digitsOnly(v).slice(0, 3)}
        error={errors.creditScore}
      />
      <AmountField
        id={id("monthlyDebts")}
        field="monthlyDebts"
        label="Monthly Debts"
        hint="Total monthly payments on existing debts."
        value={values.monthlyDebts}
        onValue={(v) => set("monthlyDebts", v)}
        error={errors.monthlyDebts}
      />
      <CheckboxField
        id={id("hasOutstandingLoans")}
        field="hasOutstandingLoans"
        label="Do you have outstanding loans?"
        description="Check if you are currently repaying other loans."
        checked={values.hasOutstandingLoans}
        onChecked={(v) => set("hasOutstandingLoans", v)}
        error={errors.hasOutstandingLoans}
        className="mt-2 sm:col-span-2"
      />
      <CheckboxField
        id={id("authorizeCreditReport")}
        field="authorizeCreditReport"
        label="I authorize a credit report"
        description="Private Loans may obtain a consumer credit report to review this application."
        checked={values.authorizeCreditReport}
        onChecked={(v) => set("authorizeCreditReport", v)}
        error={errors.authorizeCreditReport}
        className="sm:col-span-2"
      />
    </div>
  );
}
