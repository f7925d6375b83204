import { Eye, EyeOff } from "lucide-react";
import { useState, type ChangeEvent, type ComponentProps, type ReactNode } from "react";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { caretAfterFormat, digitsOnly, formatAmountInput } from "~/domain/formats";
import { cn } from "~/utils/cn";

/**
 * The wizard's form controls. Each has a visible label, marks itself required or optional, points at
 * its hint and error with aria-describedby, sets aria-invalid when it has an error, and carries
 * data-field (the schema's field name) so the wizard can move focus to the first problem.
 */

export const controlClass = cn(
  "flex h-10 w-full min-w-0 rounded-md border border-input bg-background px-3 py-2 text-base text-foreground sm:text-sm",
  "focus-visible:outline-3 focus-visible:outline-offset-1 disabled:cursor-not-allowed disabled:opacity-60 aria-invalid:border-destructive",
);

export type ControlA11y = {
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
  "aria-required": true | undefined;
  "data-field": string;
};

export function describedBy(...ids: (string | null | undefined | false)[]): string | undefined {
  return ids.filter(Boolean).join(" ") || undefined;
}

/** One message under a field; its line is reserved so a message appearing does not move the form. */
export function FieldError({ id, message, className }: { id: string; message?: string; className?: string }) {
  return (
    <p id={id} className={cn("min-h-5 text-sm text-destructive", className)}>
      {message ?? ""}
    </p>
  );
}

/**
 * The visible '*' of a required field (each step says "Fields marked * are required"). Hidden from
 * assistive technology, which hears aria-required instead; optional fields carry no mark.
 */
export function RequiredMark({ required }: { required?: boolean }) {
  if (!required) return null;
  return (
    <span aria-hidden="true" className="text-destructive">
      {" "}
      *
    </span>
  );
}

export function FormField({
  id,
  field,
  label,
  required,
  error,
  hint,
  aside,
  className,
  children,
}: {
  id: string;
  field: string;
  label: ReactNode;
  required?: boolean;
  error?: string;
  hint?: ReactNode;
  aside?: ReactNode;
  className?: string;
  children: (a11y: ControlA11y) => ReactNode;
}) {
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className={cn("flex min-w-0 flex-col gap-2", className)}>
      <div className="flex min-h-5 items-end justify-between gap-2">
        <Label htmlFor={id} className="leading-snug">
          {label}
          <RequiredMark required={required} />
        </Label>
        {aside}
      </div>
      {children({
        id,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": describedBy(hint ? hintId : null, error ? errorId : null),
        "aria-required": required ? true : undefined,
        "data-field": field,
      })}
      {hint ? (
        <div id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </div>
      ) : null}
      <FieldError id={errorId} message={error} className="-mt-1" />
    </div>
  );
}

type InputProps = Omit<ComponentProps<"input">, "value" | "onChange" | "id" | "name" | "required">;

export function TextField({
  id,
  field,
  label,
  value,
  onValue,
  required,
  error,
  hint,
  className,
  transform,
  ...inputProps
}: InputProps & {
  id: string;
  field: string;
  label: ReactNode;
  value: string;
  onValue: (value: string) => void;
  required?: boolean;
  error?: string;
  hint?: ReactNode;
  /** Reformats what was typed (digits only, upper case...). */
  transform?: (value: string) => string;
}) {
  return (
    <FormField id={id} field={field} label={label} required={required} error={error} hint={hint} className={className}>
      {(a11y) => (
        <Input
          {...a11y}
          {...inputProps}
          name={field}
          value={value}
          onChange={(event) => onValue(transform ? transform(event.currentTarget.value) : event.currentTarget.value)}
        />
      )}
    </FormField>
  );
}

/** Whole dollars with thousands separators as typed ("50,000"); the caret stays after its digit. */
export function AmountField(props: Omit<Parameters<typeof TextField>[0], "transform" | "onChange">) {
  const { onValue, ...rest } = props;
  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const raw = input.value;
    const all = digitsOnly(raw);
    if (all.replace(/^0+(?=\d)/, "").length > 12) return;
    const caret = input.selectionStart ?? raw.length;
    const formatted = formatAmountInput(raw);
    const dropped = all.length - digitsOnly(formatted).length;
    const before = Math.max(0, digitsOnly(raw.slice(0, caret)).length - dropped);
    const position = caretAfterFormat(formatted, before);
    input.value = formatted;
    if (document.activeElement === input) input.setSelectionRange(position, position);
    onValue(formatted);
  };
  return (
    <FormField id={rest.id} field={rest.field} label={rest.label} required={rest.required} error={rest.error} hint={rest.hint} className={rest.className}>
      {(a11y) => (
        <div className="relative">
          <span aria-hidden="true" className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-muted-foreground">
            $
          </span>
          <Input
            {...a11y}
            name={rest.field}
            type="text"
            inputMode="numeric"
            autoComplete={rest.autoComplete ?? "off"}
            placeholder={rest.placeholder}
            value={rest.value}
            onChange={onChange}
            className="pl-7"
          />
        </div>
      )}
    </FormField>
  );
}

/**
 * A sensitive number (SSN, bank numbers): hidden as dots until shown. The toggle is a real button after
 * the input, names what it will do and reports its state with aria-pressed.
 */
export function MaskedField({
  what,
  ...props
}: Parameters<typeof TextField>[0] & {
  /** "Social Security Number", "account number": for the toggle's name. */
  what: string;
}) {
  const [visible, setVisible] = useState(false);
  const { id, field, label, value, onValue, required, error, hint, className, transform, ...inputProps } = props;
  return (
    <FormField id={id} field={field} label={label} required={required} error={error} hint={hint} className={className}>
      {(a11y) => (
        <div className="relative">
          <Input
            {...a11y}
            {...inputProps}
            name={field}
            type={visible ? "text" : "password"}
            autoComplete="off"
            spellCheck={false}
            inputMode="numeric"
            value={value}
            onChange={(event) => onValue(transform ? transform(event.currentTarget.value) : event.currentTarget.value)}
            className="pr-11"
          />
          <button
            type="button"
            onClick={() => setVisible((v) => !v)}
            aria-label={visible ? `Hide ${what}` : `Show ${what}`}
            aria-pressed={visible}
            aria-controls={id}
            className="absolute inset-y-0 right-0 flex w-11 items-center justify-center rounded-r-md text-muted-foreground hover:text-primary focus-visible:outline-3 focus-visible:-outline-offset-3"
          >
            {visible ? <EyeOff aria-hidden="true" className="size-4" /> : <Eye aria-hidden="true" className="size-4" />}
          </button>
        </div>
      )}
    </FormField>
  );
}

export type SelectOption = { value: string; label: string };

export function SelectField({
  id,
  field,
  label,
  value,
  onValue,
  options,
  placeholder,
  required,
  error,
  hint,
  className,
  autoComplete,
}: {
  id: string;
  field: string;
  label: ReactNode;
  value: string;
  onValue: (value: string) => void;
  options: readonly SelectOption[];
  placeholder?: string;
  required?: boolean;
  error?: string;
  hint?: ReactNode;
  className?: string;
  autoComplete?: string;
}) {
  return (
    <FormField id={id} field={field} label={label} required={required} error={error} hint={hint} className={className}>
      {(a11y) => (
        <select {...a11y} name={field} value={value} autoComplete={autoComplete} onChange={(event) => onValue(event.currentTarget.value)} className={controlClass}>
          {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );
}

export function TextareaField({
  id,
  field,
  label,
  value,
  onValue,
  required,
  error,
  hint,
  maxLength,
  rows = 4,
  className,
}: {
  id: string;
  field: string;
  label: ReactNode;
  value: string;
  onValue: (value: string) => void;
  required?: boolean;
  error?: string;
  hint?: ReactNode;
  maxLength?: number;
  rows?: number;
  className?: string;
}) {
  return (
    <FormField id={id} field={field} label={label} required={required} error={error} hint={hint} className={className}>
      {(a11y) => (
        <textarea
          {...a11y}
          name={field}
          rows={rows}
          maxLength={maxLength}
          value={value}
          onChange={(event) => onValue(event.currentTarget.value)}
          className={cn(controlClass, "h-auto min-h-28 resize-y")}
        />
      )}
    </FormField>
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
            {required ? (
              <span aria-hidden="true" className="text-destructive">
                {" "}
                *
              </span>
            ) : null}
          </label>
          {description ? (
            <div id={descriptionId} className="text-xs text-muted-foreground">
              {description}
            </div>
          ) : null}
        </div>
      </div>
      <FieldError id={errorId} message={error} className="pl-8" />
    </div>
  );
}
