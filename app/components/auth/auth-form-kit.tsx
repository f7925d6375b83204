import { Check, Circle } from "lucide-react";
import { useId, useRef, useState, type ChangeEvent, type FormEvent } from "react";
import { toast } from "~/components/toaster";
import { CAPTCHA_FIELD, captchaSolved, useFieldErrors, useFormFetcher } from "~/components/ui/form";
import type { AuthActionData, AuthIntent } from "~/domain/auth-action";
import { AUTH_MESSAGES, authProblemTitle } from "~/domain/validation/auth";
import { CAPTCHA_MESSAGES } from "~/domain/validation/captcha-messages";
import { firstFieldError, issuesToFieldErrors, type FieldErrors, type IssueLike } from "~/domain/validation/field-errors";
import { checkPasswordRules } from "~/domain/validation/password";
import { cn } from "~/utils/cn";

/**
 * The /auth forms' own layer over the form kit (`~/components/ui/form`): one fetcher per form posting
 * to /auth, the toast titles for problems, which field a server answer is about, and the password
 * rules checklist.
 */

const isFillMessage = (m: string) => m === AUTH_MESSAGES.fillAllFields || m === AUTH_MESSAGES.enterEmailAndPassword;

/**
 * The first message by priority: a missing field first ('Missing Information'), then the order given.
 * Several fields can be wrong at once; the toast names the most useful one.
 */
export function firstProblem(errors: FieldErrors, order: readonly string[]): { field: string; message: string } | null {
  const fill = order.find((f) => errors[f]?.some(isFillMessage));
  if (fill) return { field: fill, message: errors[fill]!.find(isFillMessage)! };
  return firstFieldError(errors, order);
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
 * One fetcher per form: its own pending state and answer. Each new answer is shown as a toast once and
 * handed to `onData`. Without JavaScript the route's actionData (for this intent) stands in.
 */
export function useAuthFetcher(intent: AuthIntent, actionData: AuthActionData | undefined, onData?: (data: AuthActionData) => void) {
  return useFormFetcher<AuthActionData>(actionData?.intent === intent ? actionData : undefined, onData);
}

/** A problem the page finds before posting: the fields to mark, and the toast. */
export type LocalProblem = { errors: FieldErrors; title: string; message: string };

/** The schema's problems, else a missing captcha (when the form has one), as the toast and field errors. */
export function schemaProblem(
  intent: AuthIntent,
  result: { success: boolean; error?: { issues: readonly IssueLike[] } },
  order: readonly string[],
  form?: HTMLFormElement,
): LocalProblem | null {
  let errors: FieldErrors = result.success || !result.error ? {} : issuesToFieldErrors(result.error);
  if (result.success && form && !captchaSolved(form)) errors = { [CAPTCHA_FIELD]: [CAPTCHA_MESSAGES.missing] };
  const first = firstProblem(errors, order);
  return first ? { errors, title: authProblemTitle(intent, first.message), message: first.message } : null;
}

/**
 * The state every /auth form has: ids, its element, its values, per-field errors (focus goes to the
 * first one in `order`), the captcha's reset key, and the guard its onSubmit runs before the post leaves.
 */
export function useAuthForm<V extends Record<string, string>>(order: readonly string[], initial: V) {
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<V>(initial);
  const { errors, setErrors, show, clear, focusFirst } = useFieldErrors(formRef, order);

  /** Sets a value; its field's errors (and those of `alsoClear`) go away as the user edits. */
  const setValue = (name: keyof V & string, value: string, ...alsoClear: string[]) => {
    setValues((v) => ({ ...v, [name]: value }));
    clear(name, ...alsoClear);
  };

  /** A field's name, value, errors and change handler, to spread on a kit field. */
  const bind = (name: keyof V & string) => ({
    name,
    value: values[name],
    errors: errors[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) => setValue(name, event.target.value),
  });
  const [captchaKey, setCaptchaKey] = useState(0);
  const newCaptcha = () => setCaptchaKey((k) => k + 1);

  /** Shows a server answer's field errors; a spent captcha is replaced. */
  const showAnswer = (data: AuthActionData) => {
    show(serverFieldErrors(data));
    if (data.resetCaptcha) newCaptcha();
  };

  /**
   * Keeps the post from leaving while one is in flight, or when `check` finds a problem: its fields are
   * marked, its toast shown and focus moves to the first marked field.
   */
  const guard = (event: FormEvent<HTMLFormElement>, pending: boolean, check: () => LocalProblem | null) => {
    if (pending) {
      event.preventDefault();
      return;
    }
    const problem = check();
    setErrors(problem?.errors ?? {});
    if (!problem) return;
    event.preventDefault();
    toast.error(problem.title, { description: problem.message });
    focusFirst();
  };

  /** The form element's props: it posts to /auth, and `check` runs (through `guard`) before it does. */
  const formProps = (pending: boolean, check: (form: HTMLFormElement) => LocalProblem | null) => ({
    ref: formRef,
    method: "post" as const,
    action: "/auth",
    noValidate: true,
    onSubmit: (event: FormEvent<HTMLFormElement>) => guard(event, pending, () => check(event.currentTarget)),
    className: "flex flex-col gap-2",
  });

  return { id, values, setValue, bind, errors, show, clear, captchaKey, newCaptcha, showAnswer, formProps };
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
