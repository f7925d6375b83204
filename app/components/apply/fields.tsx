import type { ChangeEvent, ComponentProps, ReactNode } from "react";
import { AmountInput, controlClass, describedBy, ErrorList, Field, RequiredMark, SecretInput, Textarea } from "~/components/ui/form";
import { Input } from "~/components/ui/input";
import { digitsOnly } from "~/domain/formats";
import { cn } from "~/utils/cn";

/**
 * The wizard's form controls, built on the form kit's Field: each has a visible label, marks itself
 * required or optional, points at its hint and error with aria-describedby, sets aria-invalid when it
 * has an error, and carries data-field (the schema's field name) so the wizard can move focus to the
 * first problem.
 */

/** What every wizard field takes besides its control's own props. */
type WizardFieldProps = {
  id: string;
  field: string;
  label: ReactNode;
  required?: boolean;
  error?: string;
  hint?: ReactNode;
  className?: string;
};

/** Splits a wizard field's props into its frame (label, hint, error...) and its control's own. */
function splitField<P extends WizardFieldProps>({ id, field, label, required, error, hint, className, ...control }: P) {
  return [{ id, field, label, required, className, hint, errors: error }, control] as const;
}

/** The text a field shows, and what it reports back as typed (after `transform`). */
type TypedValueProps = {
  value: string;
  onValue: (value: string) => void;
  /** Reformats what was typed (digits only, upper case...). */
  transform?: (value: string) => string;
};

/** What ties an input to its text: its form name, its value, and a change handler through `transform`. */
function typedValue(field: string, { value, onValue, transform = (typed) => typed }: TypedValueProps) {
  return { name: field, value, onChange: (event: ChangeEvent<HTMLInputElement>) => onValue(transform(event.currentTarget.value)) };
}

/** Keeps only the digits typed, at most `count` of them (ZIP code, bank numbers...). */
export const digitsUpTo = (count: number) => (typed: string) => digitsOnly(typed).slice(0, count);

type InputProps = Omit<ComponentProps<"input">, "value" | "onChange" | "id" | "name" | "required">;
type TextFieldProps = InputProps & WizardFieldProps & TypedValueProps;

export function TextField(props: TextFieldProps) {
  const [frame, { value, onValue, transform, ...inputProps }] = splitField(props);
  return <Field {...frame}>{(a11y) => <Input {...a11y} {...inputProps} {...typedValue(frame.field, { value, onValue, transform })} />}</Field>;
}

/** Whole dollars with thousands separators as typed ("50,000"): the form kit's AmountInput in a field. */
export function AmountField(props: WizardFieldProps & Pick<InputProps, "autoComplete" | "placeholder"> & Omit<TypedValueProps, "transform">) {
  const [frame, control] = splitField(props);
  return <Field {...frame}>{(a11y) => <AmountInput {...a11y} {...control} name={frame.field} />}</Field>;
}

/**
 * A sensitive number (SSN, bank numbers): hidden as dots until shown. The toggle is a real button after
 * the input, names what it will do and reports its state with aria-pressed.
 */
export function MaskedField({
  what,
  ...props
}: TextFieldProps & {
  /** "Social Security Number", "account number": for the toggle's name. */
  what: string;
}) {
  const [frame, { value, onValue, transform, ...inputProps }] = splitField(props);
  return (
    <Field {...frame}>
      {(a11y) => (
        <SecretInput
          {...a11y}
          {...inputProps}
          what={what}
          autoComplete="off"
          inputMode="numeric"
          {...typedValue(frame.field, { value, onValue, transform })}
        />
      )}
    </Field>
  );
}

export type SelectOption = { value: string; label: string };

/** A select's options after its empty first choice (when `placeholder` is given). */
export function SelectOptions({ placeholder, options }: { placeholder?: string; options: readonly SelectOption[] }) {
  return (
    <>
      {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
      {options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </>
  );
}

export function SelectField(
  props: WizardFieldProps & {
    value: string;
    onValue: (value: string) => void;
    options: readonly SelectOption[];
    placeholder?: string;
    autoComplete?: string;
  },
) {
  const [frame, { value, onValue, options, placeholder, autoComplete }] = splitField(props);
  return (
    <Field {...frame}>
      {(a11y) => (
        <select {...a11y} name={frame.field} value={value} autoComplete={autoComplete} onChange={(event) => onValue(event.currentTarget.value)} className={controlClass}>
          <SelectOptions placeholder={placeholder} options={options} />
        </select>
      )}
    </Field>
  );
}

/** Several lines of text; `showCount` adds "n/max characters" at the end of the hint line. */
export function TextareaField(
  props: WizardFieldProps & {
    value: string;
    onValue: (value: string) => void;
    maxLength?: number;
    rows?: number;
    showCount?: boolean;
  },
) {
  const [frame, { value, onValue, maxLength, rows = 4, showCount }] = splitField(props);
  const hint = showCount ? (
    <span className="flex flex-wrap justify-between gap-2">
      <span>{frame.hint}</span>
      <span>
        {value.length}/{maxLength} characters
      </span>
    </span>
  ) : (
    frame.hint
  );
  return (
    <Field {...frame} hint={hint}>
      {(a11y) => (
        <Textarea
          {...a11y}
          name={frame.field}
          rows={rows}
          maxLength={maxLength}
          value={value}
          onChange={(event) => onValue(event.currentTarget.value)}
          className="min-h-28 resize-y"
        />
      )}
    </Field>
  );
}

export function CheckboxField({
  id,
  field,
  label,
  checked,
  onChecked,
  required,
  error,
  description,
  className,
}: {
  id: string;
  field: string;
  label: ReactNode;
  checked: boolean;
  onChecked: (checked: boolean) => void;
  required?: boolean;
  error?: string;
  description?: ReactNode;
  className?: string;
}) {
  const descriptionId = `${id}-description`;
  const errorId = `${id}-error`;
  return (
    <div className={cn("flex flex-col gap-1", className)}>
      <div className="flex items-start gap-3">
        <input
          id={id}
          name={field}
          type="checkbox"
          data-field={field}
          checked={checked}
          onChange={(event) => onChecked(event.currentTarget.checked)}
          aria-invalid={error ? true : undefined}
          aria-required={required ? true : undefined}
          aria-describedby={describedBy(description ? descriptionId : null, error ? errorId : null)}
          className="mt-0.5 size-5 shrink-0 accent-primary focus-visible:outline-3 focus-visible:outline-offset-2"
        />
        <div className="flex min-w-0 flex-col gap-1">
          <label htmlFor={id} className="text-sm leading-snug font-medium text-foreground">
            {label}
            <RequiredMark required={required} />
          </label>
          {description ? (
            <div id={descriptionId} className="text-xs text-muted-foreground">
              {description}
            </div>
          ) : null}
        </div>
      </div>
      <ErrorList id={errorId} errors={error} className="pl-8" />
    </div>
  );
}
