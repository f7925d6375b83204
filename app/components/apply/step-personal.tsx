import { useState } from "react";
import { digitsOnly, formatPhone, formatSsn } from "~/domain/formats";
import { US_STATES } from "~/domain/validation/application";
import { controlClass, describedBy, ErrorList, RequiredMark } from "~/components/ui/form";
import { MaskedField, SelectField, TextField } from "./fields";
import { binder, type StepProps } from "./step-types";
import { birthYears, daysInMonth, MONTH_NAMES } from "./wizard-values";

const STATE_OPTIONS = US_STATES.map((code) => ({ value: code, label: code }));

/** Step 1: who is applying (docs/requirements.md §4 Personal, §5 step 1). */
export function PersonalInfoStep({ idPrefix, values, errors, set }: StepProps) {
  const bind = binder({ idPrefix, values, errors, set });
  return (
    <div className="grid gap-x-4 gap-y-3 sm:grid-cols-12">
      {/* First, middle initial and last name share a row (the initial's column just fits its label). */}
      <div className="grid gap-x-4 gap-y-3 sm:col-span-12 sm:grid-cols-[minmax(0,1fr)_6.75rem_minmax(0,1fr)]">
        <TextField
          {...bind.text("firstName")}
          label="First Name"
          required
          autoComplete="given-name"
          maxLength={50}
        />
        <TextField
          {...bind.text("middleInitial")}
          label="Middle Initial"
          autoComplete="additional-name"
          maxLength={1}
          transform={(v) => v.slice(0, 1).toUpperCase()}
        />
        <TextField
          {...bind.text("lastName")}
          label="Last Name"
          required
          autoComplete="family-name"
          maxLength={50}
        />
      </div>
      <TextField
        {...bind.text("email")}
        label="Email"
        required
        type="email"
        autoComplete="email"
        maxLength={254}
        className="sm:col-span-6"
      />
      <TextField
        {...bind.text("phone")}
        label="Phone"
        required
        type="tel"
        inputMode="tel"
        autoComplete="tel-national"
        placeholder="(555) 123-4567"
        maxLength={14}
        transform={formatPhone}
        className="sm:col-span-6"
      />
      <DateOfBirth idPrefix={idPrefix} values={values} errors={errors} set={set} />
      <MaskedField
        {...bind.text("ssn")}
        what="Social Security Number"
        label="Social Security Number"
        required={false}
        placeholder="XXX-XX-XXXX"
        maxLength={11}
        transform={formatSsn}
        hint="Encrypted before it is stored. Never saved in your browser."
        className="sm:col-span-6"
      />
      <TextField
        {...bind.text("addressLine1")}
        label="Address Line 1"
        required
        autoComplete="address-line1"
        maxLength={200}
        className="sm:col-span-12"
      />
      <TextField
        {...bind.text("addressLine2")}
        label="Address Line 2"
        autoComplete="address-line2"
        maxLength={200}
        className="sm:col-span-12"
      />
      <TextField
        {...bind.text("city")}
        label="City"
        required
        autoComplete="address-level2"
        maxLength={100}
        className="sm:col-span-5"
      />
      <SelectField
        {...bind.text("state")}
        label="State"
        required
        autoComplete="address-level1"
        placeholder="Select"
        options={STATE_OPTIONS}
        className="sm:col-span-3"
      />
      <TextField
        {...bind.text("zipCode")}
        label="ZIP Code"
        required
        inputMode="numeric"
        autoComplete="postal-code"
        maxLength={5}
        transform={(v) => digitsOnly(v).slice(0, 5)}
        className="sm:col-span-4"
      />
    </div>
  );
}

/** Month, Day and Year selects in one fieldset; they compose dateOfBirth (yyyy-MM-dd). */
function DateOfBirth({ idPrefix, values, errors, set }: StepProps) {
  const [years] = useState(() => birthYears());
  const error = errors.dateOfBirth;
  const errorId = `${idPrefix}-dateOfBirth-error`;
  const maxDay = daysInMonth(Number(values.dobMonth), Number(values.dobYear) || undefined);
  const a11y = {
    "aria-invalid": error ? true : undefined,
    "aria-describedby": describedBy(error ? errorId : null),
    "aria-required": true as const,
  };
  const clampDay = (month: string, year: string) => {
    const max = daysInMonth(Number(month), Number(year) || undefined);
    if (values.dobDay && Number(values.dobDay) > max) set("dobDay", "");
  };
  return (
    <fieldset className="flex min-w-0 flex-col gap-2 sm:col-span-12">
      <legend className="mb-2 text-sm leading-none font-medium text-foreground">
        Date of Birth
        <RequiredMark required />
      </legend>
      <div className="grid grid-cols-[1.4fr_1fr_1.2fr] gap-2 sm:gap-4">
        <div className="flex min-w-0 flex-col gap-1">
          <label htmlFor={`${idPrefix}-dobMonth`} className="text-xs text-muted-foreground">
            Month
          </label>
          <select
            {...a11y}
            id={`${idPrefix}-dobMonth`}
            name="dobMonth"
            data-field="dateOfBirth"
            autoComplete="bday-month"
            value={values.dobMonth}
            onChange={(event) => {
              const month = event.currentTarget.value;
              set("dobMonth", month);
              clampDay(month, values.dobYear);
            }}
            className={controlClass}
          >
            <option value="">Month</option>
            {MONTH_NAMES.map((name, index) => (
              <option key={name} value={String(index + 1).padStart(2, "0")}>
                {name}
              </option>
            ))}
          </select>
        </div>
        <div className="flex min-w-0 flex-col gap-1">
          <label htmlFor={`${idPrefix}-dobDay`} className="text-xs text-muted-foreground">
            Day
          </label>
          <select
            {...a11y}
            id={`${idPrefix}-dobDay`}
            name="dobDay"
            autoComplete="bday-day"
            value={values.dobDay}
            onChange={(event) => set("dobDay", event.currentTarget.value)}
            className={controlClass}
          >
            <option value="">Day</option>
            {Array.from({ length: maxDay }, (_, i) => String(i + 1).padStart(2, "0")).map((day) => (
              <option key={day} value={day}>
                {Number(day)}
              </option>
            ))}
          </select>
        </div>
        <div className="flex min-w-0 flex-col gap-1">
          <label htmlFor={`${idPrefix}-dobYear`} className="text-xs text-muted-foreground">
            Year
          </label>
          <select
            {...a11y}
            id={`${idPrefix}-dobYear`}
            name="dobYear"
            autoComplete="bday-year"
            value={values.dobYear}
            onChange={(event) => {
              const year = event.currentTarget.value;
              set("dobYear", year);
              clampDay(values.dobMonth, year);
            }}
            className={controlClass}
          >
            <option value="">Year</option>
            {years.map((year) => (
              <option key={year} value={String(year)}>
                {year}
              </option>
            ))}
          </select>
        </div>
      </div>
      <ErrorList id={errorId} errors={error} />
    </fieldset>
  );
}
