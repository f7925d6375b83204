import { Eye, EyeOff } from "lucide-react";
import {
  useCallback,
  useEffect,
  useEffectEvent,
  useRef,
  useState,
  type ComponentProps,
  type ComponentType,
  type ReactNode,
  type RefObject,
} from "react";
import { useFetcher } from "react-router";
import { Captcha, type CaptchaHandle, type CaptchaSolution } from "~/components/captcha";
import { toast } from "~/components/toaster";
import { Button, type ButtonProps } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Spinner } from "~/components/ui/spinner";
import { caretAfterFormat, digitsOnly, formatAmountInput } from "~/domain/formats";
import { CAPTCHA_FIELD_NAME, type CaptchaBrowserConfig } from "~/domain/validation/captcha-messages";
import type { FieldErrors } from "~/domain/validation/field-errors";
import { cn } from "~/utils/cn";

/**
 * The form kit: every form (auth, contact, testimonial, the application wizard, admin dialogs) builds
 * its fields from these parts. A field has a visible label, points at its hint and error with
 * aria-describedby, sets aria-invalid when it has an error, and reserves one line for the error so a
 * message appearing does not move the form. The submit button shows its pending state.
 */

export type { FieldErrors };

/** A field's messages: a list (forms keyed by zod issues) or one message (the wizard). */
export type FieldMessages = readonly string[] | string | undefined;

function messagesOf(errors: FieldMessages): readonly string[] {
  if (!errors) return [];
  return typeof errors === "string" ? [errors] : errors;
}

/** The ids that are set, joined for aria-describedby (undefined when none). */
export function describedBy(...ids: (string | null | undefined | false)[]): string | undefined {
  return ids.filter(Boolean).join(" ") || undefined;
}

/**
 * The visible '*' of a required field (forms say "Fields marked * are required"). Hidden from assistive
 * technology, which hears aria-required instead; optional fields carry no mark.
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

/**
 * Messages for one field; the space for one line is kept even when there are none. `live` announces them
 * as they change (a dialog whose errors can arrive from the server while focus stays put).
 */
export function ErrorList({ id, errors, className, live }: { id: string; errors?: FieldMessages; className?: string; live?: boolean }) {
  const messages = messagesOf(errors);
  return (
    <div id={id} className={cn("min-h-5 text-sm text-destructive", className)} aria-live={live ? "polite" : undefined}>
      {messages.length > 1 ? (
        <ul className="flex flex-col gap-0.5">
          {messages.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      ) : (
        messages[0]
      )}
    </div>
  );
}

/** What a field hands its control: its id and the ARIA wiring to its label, hint and errors. */
export type FieldA11y = {
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
  "aria-required"?: true;
  /** The schema's field name, for moving focus to the first problem. */
  "data-field"?: string;
};

/**
 * A labelled field: a visible label (with '*' when `required`), the control (rendered by `children` with
 * its id and ARIA wiring), an optional hint, and an error list that always reserves one line.
 */
export function Field({
  id,
  label,
  errors,
  hint,
  labelAside,
  required,
  field,
  liveErrors,
  className,
  children,
}: {
  id: string;
  label: ReactNode;
  errors?: FieldMessages;
  /** Announce the errors as they change (see ErrorList). */
  liveErrors?: boolean;
  hint?: ReactNode;
  labelAside?: ReactNode;
  /** Marks the field required (visible '*' and aria-required). */
  required?: boolean;
  /** The schema's field name, written to the control as data-field. */
  field?: string;
  className?: string;
  children: (a11y: FieldA11y) => ReactNode;
}) {
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const invalid = messagesOf(errors).length > 0;
  const a11y: FieldA11y = {
    id,
    "aria-invalid": invalid ? true : undefined,
    "aria-describedby": describedBy(hint ? hintId : null, invalid ? errorId : null),
  };
  if (required) a11y["aria-required"] = true;
  if (field) a11y["data-field"] = field;
  return (
    <div className={cn("flex min-w-0 flex-col gap-2", className)}>
      <div className="flex min-h-5 items-end justify-between gap-2">
        <Label htmlFor={id} className="leading-snug">
          {label}
          <RequiredMark required={required} />
        </Label>
        {labelAside}
      </div>
      {children(a11y)}
      {hint ? (
        <div id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </div>
      ) : null}
      <ErrorList id={errorId} errors={errors} className="-mt-1" live={liveErrors} />
    </div>
  );
}

/** The look of a select (and the base of a textarea), matching Input. */
export const controlClass = cn(
  "flex h-10 w-full min-w-0 rounded-md border border-input bg-background px-3 py-2 text-base text-foreground sm:text-sm",
  "focus-visible:outline-3 focus-visible:outline-offset-1 disabled:cursor-not-allowed disabled:opacity-60 aria-invalid:border-destructive",
);

/** A multi-line text control in the inputs' style; give it a min-height with className. */
export function Textarea({ className, ...props }: ComponentProps<"textarea">) {
  return <textarea className={cn(controlClass, "h-auto placeholder:text-muted-foreground", className)} {...props} />;
}

/** What a submit button reads while its form waits for the captcha's proof of work. */
export const VERIFYING_LABEL = "Verifying…";

/**
 * A submit button that shows `pendingLabel` with a spinner while its form is in flight, and 'Verifying…'
 * while it waits for the captcha (see useCaptchaGate).
 */
export function SubmitButton({
  pending,
  verifying = false,
  label,
  pendingLabel,
  icon: Icon,
  className,
  ...props
}: ButtonProps & {
  pending: boolean;
  verifying?: boolean;
  label: ReactNode;
  pendingLabel: ReactNode;
  icon?: ComponentType<{ "aria-hidden"?: "true" }>;
}) {
  const busy = pending || verifying;
  return (
    <Button type="submit" className={cn("w-full", className)} aria-disabled={busy || undefined} {...props}>
      {busy ? (
        <>
          <Spinner className="size-4" />
          {pending ? pendingLabel : VERIFYING_LABEL}
        </>
      ) : (
        <>
          {Icon ? <Icon aria-hidden="true" /> : null}
          {label}
        </>
      )}
    </Button>
  );
}

/**
 * A secret (password, SSN, bank number) hidden as dots until shown. The toggle is a real button after the
 * input (reached with Tab), names what it will do ('Show password' / 'Hide password'), reports its state
 * with aria-pressed and controls the input. Never a submit button.
 */
export function SecretInput({ what, className, id, ...props }: Omit<ComponentProps<"input">, "type"> & { what: string }) {
  const [visible, setVisible] = useState(false);
  return (
    <div className="relative">
      <Input id={id} type={visible ? "text" : "password"} className={cn("pr-11", className)} spellCheck={false} autoCapitalize="none" {...props} />
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
  );
}

/** The most digits an amount takes (under a trillion dollars: far above any loan we make). */
export const MAX_AMOUNT_DIGITS = 12;

/**
 * Whole dollars after a '$', with thousands separators added as you type ("50,000"). The caret stays
 * after the digit it followed; a keystroke that would pass MAX_AMOUNT_DIGITS is refused.
 */
export function AmountInput({
  onValue,
  autoComplete = "off",
  ...props
}: Omit<ComponentProps<"input">, "type" | "value" | "onChange" | "className"> & { value: string; onValue: (formatted: string) => void }) {
  return (
    <div className="relative">
      <span aria-hidden="true" className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-muted-foreground">
        $
      </span>
      <Input
        {...props}
        type="text"
        inputMode="numeric"
        autoComplete={autoComplete}
        onChange={(event) => {
          const input = event.currentTarget;
          const raw = input.value;
          const caret = input.selectionStart ?? raw.length;
          const allDigits = digitsOnly(raw);
          // Refuse the keystroke; React puts the previous value back.
          if (allDigits.replace(/^0+(?=\d)/, "").length > MAX_AMOUNT_DIGITS) return;
          const formatted = formatAmountInput(raw);
          // Keep the caret after the same digit it followed (leading zeros that were dropped do not count).
          const droppedZeros = allDigits.length - digitsOnly(formatted).length;
          const digitsBefore = Math.max(0, digitsOnly(raw.slice(0, caret)).length - droppedZeros);
          const position = caretAfterFormat(formatted, digitsBefore);
          // Write the formatted value ourselves so React, finding the DOM already right, leaves the caret alone.
          input.value = formatted;
          if (document.activeElement === input) input.setSelectionRange(position, position);
          onValue(formatted);
        }}
        className="pl-7"
      />
    </div>
  );
}

/** A Field's own props (the rest goes to its control). */
export type FieldFrameProps = { id: string; label: ReactNode; errors?: FieldMessages; hint?: ReactNode; labelAside?: ReactNode; className?: string };

type InputFieldProps = FieldFrameProps & Omit<ComponentProps<"input">, "id">;

function splitFrame<P extends FieldFrameProps>({ id, label, errors, hint, labelAside, className, ...control }: P) {
  return [{ id, label, errors, hint, labelAside, className }, control] as const;
}

/** A text input in a Field. Props besides the Field's go to the input. */
export function InputField(props: InputFieldProps) {
  const [frame, inputProps] = splitFrame(props);
  return <Field {...frame}>{(a11y) => <Input {...a11y} {...inputProps} />}</Field>;
}

/**
 * A multi-line text input in a Field. Props besides the Field's go to the textarea; `className` sets its
 * look (a min-height).
 */
export function TextareaField({ className, ...props }: FieldFrameProps & Omit<ComponentProps<"textarea">, "id">) {
  const [frame, textareaProps] = splitFrame(props);
  return <Field {...frame}>{(a11y) => <Textarea {...a11y} {...textareaProps} className={className} />}</Field>;
}

/** What makes an input an e-mail input (no capitals, no spell check, the e-mail keyboard). */
export const EMAIL_INPUT = {
  name: "email",
  type: "email",
  autoComplete: "email",
  inputMode: "email",
  autoCapitalize: "none",
  spellCheck: false,
} as const satisfies ComponentProps<"input">;

/** 'Email': an e-mail input (name "email") in a Field. */
export function EmailField({ label = "Email", ...props }: Omit<InputFieldProps, "label"> & { label?: ReactNode }) {
  return <InputField label={label} {...EMAIL_INPUT} {...props} />;
}

/** 'Password': a password input with a show/hide toggle (name "password" unless given) in a Field. */
export function PasswordField({ label = "Password", ...props }: Omit<InputFieldProps, "label" | "type"> & { label?: ReactNode }) {
  const [frame, inputProps] = splitFrame({ label, ...props });
  return <Field {...frame}>{(a11y) => <SecretInput {...a11y} what="password" name="password" {...inputProps} />}</Field>;
}

/** The form field the captcha posts its token under (the action reads it). */
export const CAPTCHA_FIELD = CAPTCHA_FIELD_NAME;

/**
 * The captcha with its error line. The box is the focus target for a captcha problem (its checkbox or
 * frame when there is one: see focusFirstInvalid).
 */
export function CaptchaField({
  id,
  config,
  resetKey,
  errors,
  onSolved,
  handle,
}: {
  id: string;
  config: CaptchaBrowserConfig;
  resetKey: number;
  errors?: FieldMessages;
  onSolved: () => void;
  /** From useCaptchaGate, so a submit can wait for the solution. */
  handle?: RefObject<CaptchaHandle | null>;
}) {
  return (
    <div data-error-target={CAPTCHA_FIELD} tabIndex={-1} className="flex flex-col gap-2 rounded-md">
      <Captcha config={config} resetKey={resetKey} handle={handle} onVerifiedChange={(ok) => ok && onSolved()} />
      <ErrorList id={`${id}-captcha-error`} errors={errors} className="-mt-1" live />
    </div>
  );
}

/**
 * Lets a submit wait for the captcha instead of refusing it while the proof of work runs: `solve` resolves
 * with the token (or why there is none) and `verifying` is true meanwhile, for SubmitButton.
 */
export function useCaptchaGate() {
  const handle = useRef<CaptchaHandle>(null);
  const [verifying, setVerifying] = useState(false);
  const solve = useCallback(async (): Promise<CaptchaSolution> => {
    if (!handle.current) return { token: null, reason: "missing" };
    setVerifying(true);
    try {
      return await handle.current.solve();
    } finally {
      setVerifying(false);
    }
  }, []);
  return { handle, verifying, solve };
}

/** Whether the captcha token field has a value (the widget writes it once solved). */
export function captchaSolved(form: HTMLFormElement): boolean {
  const value = new FormData(form).get(CAPTCHA_FIELD);
  return typeof value === "string" && value.length > 0;
}

/** Moves focus to the first field (in `order`) that has an error. */
export function focusFirstInvalid(form: HTMLFormElement | null, errors: FieldErrors, order: readonly string[]) {
  if (!form) return;
  for (const name of order) {
    if (!errors[name]?.length) continue;
    // A field may mark itself with data-error-target (the captcha: its checkbox, else its box).
    const target = form.querySelector<HTMLElement>(`[data-error-target="${name}"]`);
    const element =
      target?.querySelector<HTMLElement>('input[type="checkbox"], iframe') ??
      target ??
      form.querySelector<HTMLElement>(`[name="${name}"]:not([type="hidden"])`);
    if (element) {
      element.focus();
      return;
    }
  }
}

/**
 * A form's per-field errors: `clear` drops a field's messages (as the user edits it) and `show` sets new
 * ones and, once they are on screen, focuses the first invalid field in `order` (so a screen reader
 * reads the message the field now points to).
 */
export function useFieldErrors(formRef: RefObject<HTMLFormElement | null>, order: readonly string[], initial: FieldErrors = {}) {
  const [errors, setErrors] = useState<FieldErrors>(initial);
  const wanted = useRef(false);
  useEffect(() => {
    if (!wanted.current) return;
    wanted.current = false;
    focusFirstInvalid(formRef.current, errors, order);
  }, [errors, formRef, order]);
  const focusFirst = useCallback(() => {
    wanted.current = true;
  }, []);
  const show = useCallback(
    (next: FieldErrors | ((current: FieldErrors) => FieldErrors)) => {
      setErrors(next);
      focusFirst();
    },
    [focusFirst],
  );
  const clear = useCallback(
    (...names: string[]) =>
      setErrors((e) => (names.some((n) => e[n]) ? { ...e, ...Object.fromEntries(names.map((n) => [n, undefined])) } : e)),
    [],
  );
  return { errors, setErrors, show, clear, focusFirst };
}

/** The toast every form action answers with. */
export type FormToast = { type: "success" | "error" | "info"; title: string; description?: string };

export function showToast(t: FormToast) {
  toast[t.type](t.title, { description: t.description });
}

/**
 * A form's fetcher (its own pending state and answer). Each new answer (a new object) is shown as a
 * toast once and handed to `onAnswer`. `fallback` is the route's actionData, which stands in for the
 * fetcher's when the form was posted without JavaScript.
 */
export function useFormFetcher<T extends { toast: FormToast }>(fallback: T | undefined, onAnswer?: (answer: T) => void) {
  const fetcher = useFetcher<T>();
  // Plain JSON answers: what the fetcher holds is T itself.
  const data = (fetcher.data as T | undefined) ?? fallback;
  const pending = fetcher.state !== "idle";
  const seen = useRef<T | undefined>(undefined);
  const handle = useEffectEvent((answer: T) => {
    showToast(answer.toast);
    onAnswer?.(answer);
  });
  useEffect(() => {
    if (!data || seen.current === data) return;
    seen.current = data;
    handle(data);
  }, [data]);
  return { fetcher, data, pending };
}
