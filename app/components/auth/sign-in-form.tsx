import { useId, useRef, useState, type FormEvent, type Ref } from "react";
import { toast } from "~/components/toaster";
import { Captcha } from "~/components/captcha";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import type { AuthActionData } from "~/domain/auth-action";
import { signInSchema } from "~/domain/validation/auth";
import { CAPTCHA_MESSAGES, type CaptchaBrowserConfig } from "~/domain/validation/captcha-messages";
import {
  CAPTCHA_FIELD,
  captchaSolved,
  ErrorList,
  Field,
  firstProblem,
  issuesToFieldErrors,
  serverFieldErrors,
  SubmitButton,
  titleFor,
  useAuthFetcher,
  useFocusFirstInvalid,
  type FieldErrors,
} from "./auth-form-kit";
import { PasswordInput } from "./password-input";

const ORDER = ["email", "password", CAPTCHA_FIELD] as const;

/** Sign In: e-mail, password, captcha. Success redirects (with 'Welcome Back!'); failure gets a new captcha. */
export function SignInForm({
  captcha,
  redirectTo,
  actionData,
  onForgotPassword,
  forgotButtonRef,
}: {
  captcha: CaptchaBrowserConfig;
  redirectTo: string;
  actionData?: AuthActionData;
  onForgotPassword: () => void;
  forgotButtonRef?: Ref<HTMLButtonElement>;
}) {
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [captchaKey, setCaptchaKey] = useState(0);
  const requestFocus = useFocusFirstInvalid(formRef, errors, ORDER);

  const { fetcher, pending } = useAuthFetcher("sign-in", actionData, (data) => {
    setErrors(serverFieldErrors(data));
    requestFocus();
    if (data.resetCaptcha) setCaptchaKey((k) => k + 1);
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (pending) {
      event.preventDefault();
      return;
    }
    const result = signInSchema.safeParse({ email, password });
    let problems: FieldErrors = result.success ? {} : issuesToFieldErrors(result.error);
    if (result.success && !captchaSolved(event.currentTarget)) problems = { [CAPTCHA_FIELD]: [CAPTCHA_MESSAGES.missing] };
    const first = firstProblem(problems, ORDER);
    setErrors(problems);
    if (!first) return;
    event.preventDefault();
    toast.error(titleFor("sign-in", first.message), { description: first.message });
    requestFocus();
  }

  const clear = (name: string) => setErrors((e) => (e[name] ? { ...e, [name]: undefined } : e));

  return (
    <fetcher.Form ref={formRef} method="post" action="/auth" noValidate onSubmit={onSubmit} className="flex flex-col gap-2">
      <input type="hidden" name="intent" value="sign-in" />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <Field id={`${id}-email`} label="Email" errors={errors.email}>
        {(a11y) => (
          <Input
            {...a11y}
            name="email"
            type="email"
            autoComplete="email"
            inputMode="email"
            autoCapitalize="none"
            spellCheck={false}
            required
            value={email}
            onChange={(e) => {
              setEmail(e.target.value);
              clear("email");
            }}
          />
        )}
      </Field>
      <Field
        id={`${id}-password`}
        label="Password"
        errors={errors.password}
        labelAside={
          <Button ref={forgotButtonRef} variant="link" size="sm" className="h-auto p-0 text-sm" onClick={onForgotPassword}>
            Forgot Password?
          </Button>
        }
      >
        {(a11y) => (
          <PasswordInput
            {...a11y}
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => {
              setPassword(e.target.value);
              clear("password");
            }}
          />
        )}
      </Field>
      <div data-error-target={CAPTCHA_FIELD} tabIndex={-1} className="flex flex-col gap-2 rounded-md">
        <Captcha config={captcha} resetKey={captchaKey} onVerifiedChange={(ok) => ok && clear(CAPTCHA_FIELD)} />
        <ErrorList id={`${id}-captcha-error`} errors={errors[CAPTCHA_FIELD]} />
      </div>
      <SubmitButton pending={pending} label="Sign In" pendingLabel="Signing In..." />
    </fetcher.Form>
  );
}
