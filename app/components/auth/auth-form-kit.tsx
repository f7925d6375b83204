import { useId, useRef, useState, type ChangeEvent, type FormEvent } from "react";
import { toast } from "~/components/toaster";
import { CAPTCHA_FIELD, captchaSolved, useCaptchaGate, useFieldErrors, useFormFetcher } from "~/components/ui/form";
import type { AuthActionData, AuthIntent } from "~/domain/auth-action";
import { AUTH_MESSAGES, authProblemTitle } from "~/domain/validation/auth";
import { CAPTCHA_MESSAGES } from "~/domain/validation/captcha-messages";
import { firstFieldError, issuesToFieldErrors, type FieldErrors, type IssueLike } from "~/domain/validation/field-errors";

// In its own module so /account draws it without the sign-in schemas (decision 0052).
export { PasswordRules } from "./password-rules";

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
  const form = useFormFetcher<AuthActionData>(actionData?.intent === intent ? actionData : undefined, onData);
  /** Posts what the form's own submit could not (it waited for the captcha). */
  const post = (data: FormData) => void form.fetcher.submit(data, { method: "post", action: "/auth" });
  return { ...form, post };
}

/** What formProps needs of a form's fetcher. */
type AuthPoster = { pending: boolean; post: (data: FormData) => void };

/** A problem the page finds before posting: the fields to mark, and the toast. */
export type LocalProblem = { errors: FieldErrors; title: string; message: string };

/**
 * The schema's problems as the toast and field errors: one message per field (its first), so an empty
 * field says 'Please fill in all fields' once and not also that its content is malformed. The captcha
 * is not a problem here: a submit waits for it (useAuthForm).
 */
export function schemaProblem(
  intent: AuthIntent,
  result: { success: boolean; error?: { issues: readonly IssueLike[] } },
  order: readonly string[],
): LocalProblem | null {
  const all: FieldErrors = result.success || !result.error ? {} : issuesToFieldErrors(result.error);
  const errors: FieldErrors = Object.fromEntries(Object.entries(all).flatMap(([field, list]) => (list?.length ? [[field, [list[0]!]]] : [])));
  const first = firstProblem(errors, order);
  return first ? { errors, title: authProblemTitle(intent, first.message), message: first.message } : null;
}

/** The toast title and message when the captcha could not be passed before posting. */
export function captchaProblem(reason: keyof typeof CAPTCHA_MESSAGES): LocalProblem {
  const message = CAPTCHA_MESSAGES[reason];
  return { errors: { [CAPTCHA_FIELD]: [message] }, title: reason === "missing" ? "Verification Required" : "Verification Failed", message };
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
  const captchaGate = useCaptchaGate();

  /** Shows a server answer's field errors; a spent captcha is replaced. */
  const showAnswer = (data: AuthActionData) => {
    show(serverFieldErrors(data));
    if (data.resetCaptcha) newCaptcha();
  };

  /** Marks a problem's fields, shows its toast and moves focus to the first marked field. */
  const report = (problem: LocalProblem) => {
    setErrors(problem.errors);
    toast.error(problem.title, { description: problem.message });
    focusFirst();
  };

  /**
   * Keeps the post from leaving while one is in flight, or when `check` finds a problem. A form with a
   * captcha that is not solved yet posts once it is ('Verifying…' on the button meanwhile), with the token.
   */
  const guard = (
    event: FormEvent<HTMLFormElement>,
    pending: boolean,
    check: () => LocalProblem | null,
    submit: (data: FormData) => void,
  ) => {
    if (pending || captchaGate.verifying) {
      event.preventDefault();
      return;
    }
    const problem = check();
    setErrors(problem?.errors ?? {});
    if (problem) {
      event.preventDefault();
      report(problem);
      return;
    }
    const form = event.currentTarget;
    if (!form.querySelector(`[data-error-target="${CAPTCHA_FIELD}"]`) || captchaSolved(form)) return;
    event.preventDefault();
    const data = new FormData(form);
    void captchaGate.solve().then((solution) => {
      if (solution.token === null) return report(captchaProblem(solution.reason));
      data.set(CAPTCHA_FIELD, solution.token);
      submit(data);
    });
  };

  /**
   * The form element's props: it posts to /auth, and `check` runs (through `guard`) before it does;
   * the fetcher posts what waited for the captcha.
   */
  const formProps = ({ pending, post }: AuthPoster, check: (form: HTMLFormElement) => LocalProblem | null) => ({
    ref: formRef,
    method: "post" as const,
    action: "/auth",
    noValidate: true,
    onSubmit: (event: FormEvent<HTMLFormElement>) => guard(event, pending, () => check(event.currentTarget), post),
    className: "flex flex-col gap-2",
  });

  /** The captcha field's and the submit button's wiring to the wait for the captcha. */
  const captchaProps = { resetKey: captchaKey, handle: captchaGate.handle, errors: errors[CAPTCHA_FIELD], onSolved: () => clear(CAPTCHA_FIELD) };
  const verifying = captchaGate.verifying;

  return { id, values, setValue, bind, errors, show, clear, captchaKey, newCaptcha, showAnswer, formProps, captchaProps, verifying };
}
