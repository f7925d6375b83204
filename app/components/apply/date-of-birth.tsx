import { useState } from "react";
import { controlClass, describedBy, ErrorList, RequiredMark } from "~/components/ui/form";
import { SelectOptions, type SelectOption } from "./fields";
import type { StepProps } from "./step-types";
import { birthYears, daysInMonth, MONTH_NAMES, type WizardValues } from "./wizard-values";

type DatePart = "dobMonth" | "dobDay" | "dobYear";

/** The three selects, in the order they are read; each one's label is also its empty choice. */
const PARTS = [
  { part: "dobMonth", label: "Month", autoComplete: "bday-month" },
  { part: "dobDay", label: "Day", autoComplete: "bday-day" },
  { part: "dobYear", label: "Year", autoComplete: "bday-year" },
] as const satisfies readonly { part: DatePart; label: string; autoComplete: string }[];

const twoDigits = (n: number) => String(n).padStart(2, "0");
const MONTH_OPTIONS = MONTH_NAMES.map((name, index) => ({ value: twoDigits(index + 1), label: name }));

/** The last day the chosen month has (31 while the month is not chosen; February by the year chosen). */
const lastDay = (values: Pick<WizardValues, DatePart>) => daysInMonth(Number(values.dobMonth), Number(values.dobYear) || undefined);

/** Month, Day and Year selects in one fieldset; they compose dateOfBirth (yyyy-MM-dd). */
export function DateOfBirth({ idPrefix, values, errors, set }: StepProps) {
  const [years] = useState(() => birthYears());
  const error = errors.dateOfBirth;
  const errorId = `${idPrefix}-dateOfBirth-error`;
  const options: Record<DatePart, readonly SelectOption[]> = {
    dobMonth: MONTH_OPTIONS,
    dobDay: Array.from({ length: lastDay(values) }, (_, i) => ({ value: twoDigits(i + 1), label: String(i + 1) })),
    dobYear: years.map((year) => ({ value: String(year), label: String(year) })),
  };
  const choose = (part: DatePart, value: string) => {
    set(part, value);
    // A month (or year) without the chosen day clears the day.
    const next = { ...values, [part]: value };
    if (next.dobDay && Number(next.dobDay) > lastDay(next)) set("dobDay", "");
  };
  return (
    <fieldset className="flex min-w-0 flex-col gap-2 sm:col-span-12">
      <legend className="mb-2 text-sm leading-none font-medium text-foreground">
        Date of Birth
        <RequiredMark required />
      </legend>
      <div className="grid grid-cols-[1.4fr_1fr_1.2fr] gap-2 sm:gap-4">
        {PARTS.map(({ part, label, autoComplete }) => (
          <div key={part} className="flex min-w-0 flex-col gap-1">
            <label htmlFor={`${idPrefix}-${part}`} className="text-xs text-muted-foreground">
              {label}
            </label>
            <select
              aria-invalid={error ? true : undefined}
              aria-describedby={describedBy(error ? errorId : null)}
              aria-required
              id={`${idPrefix}-${part}`}
              name={part}
              // The month is where focus goes for a date-of-birth problem.
              data-field={part === "dobMonth" ? "dateOfBirth" : undefined}
              autoComplete={autoComplete}
              value={values[part]}
              onChange={(event) => choose(part, event.currentTarget.value)}
              className={controlClass}
            >
              <SelectOptions placeholder={label} options={options[part]} />
            </select>
          </div>
        ))}
      </div>
      <ErrorList id={errorId} errors={error} />
    </fieldset>
  );
}
