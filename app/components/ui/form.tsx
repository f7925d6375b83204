import { Eye, EyeOff } from "lucide-react";
import { useCallback, useEffect, useRef, useState, type ComponentProps, type ComponentType, type ReactNode, type RefObject } from "react";
import { useFetcher } from "react-router";
import { Captcha, type CaptchaHandle, type CaptchaSolution } from "~/components/captcha";
import { toast } from "~/components/toaster";
import { Button, type ButtonProps } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Spinner } from "~/components/ui/spinner";
import { CAPTCHA_FIELD_NAME, type CaptchaBrowserConfig } from "~/domain/validation/captcha-messages";
import type { FieldErrors } from "~/domain/validation/field-errors";
import { cn } from "~/utils/cn";

// The amount input is its own module so that a page using only it (the calculator on the home page)
// does not load the rest of the kit.
export { AmountInput, MAX_AMOUNT_DIGITS } from "~/components/ui/amount-input";

/**
 * The form kit: every form (auth, contact, testimonial, the application wizard, admin dialogs) builds
 * its fields from these parts. A field has a visible label, points at its hint and error with
 * aria-describedby, sets aria-invalid when it has an error, and reserves one line for the error so a
 * message appearing does not move the form. The submit button shows its pending state.
 */

export type { FieldErrors };
import { describedBy, ErrorList, Field, RequiredMark, type FieldA11y, type FieldMessages } from "~/components/ui/field";
import { useEachAnswer } from "~/components/use-each-answer";

export { describedBy, ErrorList, Field, RequiredMark, type FieldA11y, type FieldMessages };

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

/**
 * A Field's own props (the rest goes to its control). `markRequired` marks the field required ('*' and
 * aria-required) and makes its control required too; a bare `required` only reaches the control.
 */
export type FieldFrameProps = { id: string; label: ReactNode; errors?: FieldMessages; hint?: ReactNode; labelAside?: ReactNode; className?: string; markRequired?: boolean };

type InputFieldProps = FieldFrameProps & Omit<ComponentProps<"input">, "id">;

function splitFrame<P extends FieldFrameProps>({ id, label, errors, hint, labelAside, className, markRequired, ...control }: P) {
  const frame = { id, label, errors, hint, labelAside, className, required: markRequired };
  return [frame, markRequired ? { ...control, required: true } : control] as const;
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
  useEachAnswer(data, (answer) => {
    showToast(answer.toast);
    onAnswer?.(answer);
  });
  return { fetcher, data, pending };
}
