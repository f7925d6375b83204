import { Check, Circle } from "lucide-react";
import type { ReactNode, RefObject } from "react";
import { useCallback, useEffect, useEffectEvent, useRef } from "react";
import { useFetcher } from "react-router";
import { toast } from "~/components/toaster";
import type { ZodError } from "zod";
import { Button, type ButtonProps } from "~/components/ui/button";
import { Label } from "~/components/ui/label";
import { Spinner } from "~/components/ui/spinner";
import type { AuthActionData, AuthIntent } from "~/domain/auth-action";
import { AUTH_MESSAGES } from "~/domain/validation/auth";
import { CAPTCHA_FIELD_NAME, CAPTCHA_MESSAGES } from "~/domain/validation/captcha-messages";
import { checkPasswordRules, PASSWORD_MESSAGES } from "~/domain/validation/password";
import { cn } from "~/utils/cn";

/** Shared pieces of the /auth forms: fields wired for assistive technology, toasts, errors, submit. */

export type FieldErrors = Record<string, string[] | undefined>;

/** The form field the captcha posts its token under (the action reads it). */
export const CAPTCHA_FIELD = CAPTCHA_FIELD_NAME;

export type ToastLike = AuthActionData["toast"];

export function showToast(t: ToastLike) {
  toast[t.type](t.title, { description: t.description });
}

/** The spec's toast title (001 §8) for a schema message; the same mapping the action uses. */
export function titleFor(intent: AuthIntent, message: string): string {
  if (message === AUTH_MESSAGES.emailRequired) return "Email Required";
  if (message === AUTH_MESSAGES.fillAllFields || message === AUTH_MESSAGES.enterEmailAndPassword) return "Missing Information";
  if (message === AUTH_MESSAGES.verifyFirst) return "Verification Required";
  if (message === AUTH_MESSAGES.invalidCode) return "Invalid Code";
  if (message === AUTH_MESSAGES.passwordsDontMatch) return "Passwords Don't Match";
  if (message === PASSWORD_MESSAGES.characterClasses || /^Password must/.test(message)) return "Weak Password";
  if (message === CAPTCHA_MESSAGES.missing) return "Verification Required";
  if (intent === "sign-in") return "Sign In Failed";
  return "Error";
}

/** A schema's issues as per-field messages (keyed by the first path segment). */
export function issuesToFieldErrors(error: ZodError): FieldErrors {
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) (out[String(issue.path[0] ?? "form")] ??= []).push(issue.message);
  return out;
}

/**
 * The first message by priority: a missing field first ('Missing Information'), then the order given.
 * Several fields can be wrong at once; the toast names the most useful one.
 */
export function firstProblem(errors: FieldErrors, order: readonly string[]): { field: string; message: string } | null {
  const fill = order.find((f) => errors[f]?.some((m) => m === AUTH_MESSAGES.fillAllFields || m === AUTH_MESSAGES.enterEmailAndPassword));
  if (fill) return { field: fill, message: errors[fill]!.find((m) => m === AUTH_MESSAGES.fillAllFields || m === AUTH_MESSAGES.enterEmailAndPassword)! };
  for (const field of order) {
    const message = errors[field]?.[0];
    if (message) return { field, message };
  }
  return null;
}

/** Moves focus to the first field (in `order`) that has an error. */
export function focusFirstInvalid(form: HTMLFormElement | null, errors: FieldErrors, order: readonly string[]) {
  if (!form) return;
  for (const name of order) {
    if (!errors[name]?.length) continue;
    // A field marks itself with data-error-target (the captcha: its checkbox, else its box).
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
 * Focus the first invalid field once the errors are on screen (so a screen reader reads the message
 * the field now points to). Call the returned function right after setting new errors.
 */
export function useFocusFirstInvalid(formRef: RefObject<HTMLFormElement | null>, errors: FieldErrors, order: readonly string[]) {
  const wanted = useRef(false);
  useEffect(() => {
    if (!wanted.current) return;
    wanted.current = false;
    focusFirstInvalid(formRef.current, errors, order);
  }, [errors, formRef, order]);
  return useCallback(() => {
    wanted.current = true;
  }, []);
}

/** Whether the captcha token field has a value (the widget writes it once solved). */
export function captchaSolved(form: HTMLFormElement): boolean {
  const value = new FormData(form).get(CAPTCHA_FIELD);
  return typeof value === "string" && value.length > 0;
}

/** Which field a server answer without fieldErrors is about, from its toast title. */
export function fieldForServerTitle(title: string): string | null {
  switch (title) {
    case "Invalid Code":
      return "code";
    case "Compromised Password":
    case "Weak Password":
      return "password";
    case "Passwords Don't Match":
      return "confirmPassword";
    case "Verification Required":
    case "Verification Failed":
    case "Verification Error":
      return CAPTCHA_FIELD;
    case "Failed to Send Code":
    case "Email Required":
      return "email";
    default:
      return null;
  }
}

/** The per-field errors a server answer carries (its own fieldErrors, or one derived from its title). */
export function serverFieldErrors(data: AuthActionData): FieldErrors {
  if (data.ok) return {};
  if (data.fieldErrors && Object.keys(data.fieldErrors).length) return data.fieldErrors;
  const field = fieldForServerTitle(data.toast.title);
  return field && data.toast.description ? { [field]: [data.toast.description] } : {};
}

/**
 * One fetcher per form: its own pending state and answer. Each new answer (a new object) is shown as a
 * toast once and handed to `onData`. Without JavaScript the route's actionData stands in.
 */
export function useAuthFetcher(intent: AuthIntent, actionData: AuthActionData | undefined, onData?: (data: AuthActionData) => void) {
  const fetcher = useFetcher<AuthActionData>();
  const data = fetcher.data ?? (actionData?.intent === intent ? actionData : undefined);
  const pending = fetcher.state !== "idle";
  const seen = useRef<AuthActionData | undefined>(undefined);
  const handle = useEffectEvent((d: AuthActionData) => {
    showToast(d.toast);
    onData?.(d);
  });
  useEffect(() => {
    if (!data || seen.current === data) return;
    seen.current = data;
    handle(data);
  }, [data]);
  return { fetcher, data, pending };
}

export type FieldA11y = {
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
};

/**
 * A labelled field: a visible label, the control (rendered by `children` with its id and ARIA wiring),
 * an optional hint, and an error list that always reserves one line so messages do not move the form.
 */
export function Field({
  id,
  label,
  errors,
  hint,
  labelAside,
  children,
  className,
}: {
  id: string;
  label: string;
  errors?: string[];
  hint?: ReactNode;
  labelAside?: ReactNode;
  children: (a11y: FieldA11y) => ReactNode;
  className?: string;
}) {
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const invalid = Boolean(errors?.length);
  const describedBy = [hint ? hintId : null, invalid ? errorId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={cn("flex flex-col gap-2", className)}>
      <div className="flex min-h-5 items-center justify-between gap-2">
        <Label htmlFor={id}>{label}</Label>
        {labelAside}
      </div>
      {children({ id, "aria-invalid": invalid ? true : undefined, "aria-describedby": describedBy })}
      {hint ? (
        <div id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </div>
      ) : null}
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}

/** Messages for one field; the space for one line is kept even when there are none. */
export function ErrorList({ id, errors }: { id: string; errors?: string[] }) {
  return (
    <div id={id} className="-mt-1 min-h-5 text-sm text-destructive">
      {errors?.length ? (
        <ul className="flex flex-col gap-0.5">
          {errors.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** A submit button that shows `pendingLabel` with a spinner while its form is in flight. */
export function SubmitButton({
  pending,
  label,
  pendingLabel,
  className,
  ...props
}: ButtonProps & { pending: boolean; label: ReactNode; pendingLabel: ReactNode }) {
  return (
    <Button type="submit" className={cn("w-full", className)} aria-disabled={pending || undefined} {...props}>
      {pending ? (
        <>
          <Spinner className="size-4" />
          {pendingLabel}
        </>
      ) : (
        label
      )}
    </Button>
  );
}

/** The password rules as a live checklist (also the password field's description). */
export function PasswordRules({ password }: { password: string }) {
  return (
    <ul className="grid gap-0.5 sm:grid-cols-2">
      {checkPasswordRules(password).map((rule) => (
        <li key={rule.id} className={cn("flex items-start gap-1.5", rule.id === "special" && "sm:col-span-2", rule.met && "text-green-800")}>
          {rule.met ? (
            <Check aria-hidden="true" className="mt-px size-3.5 shrink-0" />
          ) : (
            <Circle aria-hidden="true" className="mt-px size-3.5 shrink-0" />
          )}
          <span>
            {rule.label}
            {rule.met ? <span className="sr-only"> (done)</span> : null}
          </span>
        </li>
      ))}
    </ul>
  );
}

