import { ArrowLeft } from "lucide-react";
import { useId, useRef, useState, type FormEvent, type Ref } from "react";
import { toast } from "~/components/toaster";
import { Captcha } from "~/components/captcha";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import type { AuthActionData } from "~/domain/auth-action";
import { resetRequestSchema } from "~/domain/validation/auth";
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

const ORDER = ["email", CAPTCHA_FIELD] as const;

/**
 * Forgot Password: replaces the sign-in form. E-mail only; the answer is the same whether or not an
 * account exists. Every answer spends the captcha, so a new challenge follows each one.
 */
export function ForgotPasswordForm({
  captcha,
  actionData,
  onBack,
  headingRef,
}: {
  captcha: CaptchaBrowserConfig;
  actionData?: AuthActionData;
  onBack: () => void;
  headingRef?: Ref<HTMLHeadingElement>;
}) {
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [email, setEmail] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [captchaKey, setCaptchaKey] = useState(0);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const requestFocus = useFocusFirstInvalid(formRef, errors, ORDER);

  const { fetcher, pending } = useAuthFetcher("reset-request", actionData, (data) => {
    setErrors(serverFieldErrors(data));
    requestFocus();
    if (data.ok) setSentTo(email.trim());
    if (data.ok || data.resetCaptcha) setCaptchaKey((k) => k + 1);
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (pending) {
      event.preventDefault();
      return;
    }
    const result = resetRequestSchema.safeParse({ email });
    let problems: FieldErrors = result.success ? {} : issuesToFieldErrors(result.error);
    if (result.success && !captchaSolved(event.currentTarget)) problems = { [CAPTCHA_FIELD]: [CAPTCHA_MESSAGES.missing] };
    const first = firstProblem(problems, ORDER);
    setErrors(problems);
    if (!first) return;
    event.preventDefault();
    toast.error(titleFor("reset-request", first.message), { description: first.message });
    requestFocus();
  }

  const clear = (name: string) => setErrors((e) => (e[name] ? { ...e, [name]: undefined } : e));
  // Disabled until an e-mail is typed; an empty one would be refused with 'Email Required' anyway.
  const empty = email.trim() === "";

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-1">
        <h2 ref={headingRef} tabIndex={-1} className="text-lg font-semibold text-primary">
          Forgot Password
        </h2>
        <p className="text-sm text-muted-foreground">Enter the e-mail address of your account and we will send you a link to reset your password.</p>
      </div>
      <fetcher.Form ref={formRef} method="post" action="/auth" noValidate onSubmit={onSubmit} className="flex flex-col gap-2">
        <input type="hidden" name="intent" value="reset-request" />
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
        <div data-error-target={CAPTCHA_FIELD} tabIndex={-1} className="flex flex-col gap-2 rounded-md">
          <Captcha config={captcha} resetKey={captchaKey} onVerifiedChange={(ok) => ok && clear(CAPTCHA_FIELD)} />
          <ErrorList id={`${id}-captcha-error`} errors={errors[CAPTCHA_FIELD]} />
        </div>
        {sentTo ? (
          <p className="rounded-md bg-navy-50 p-3 text-sm text-slate-800">
            If an account exists for {sentTo}, a reset link is on its way. Check your inbox.
          </p>
        ) : null}
        <SubmitButton pending={pending} disabled={empty} label="Send Reset Link" pendingLabel="Sending..." />
        <Button variant="ghost" className="w-full" onClick={onBack}>
          <ArrowLeft aria-hidden="true" />
          Back to Sign In
        </Button>
      </fetcher.Form>
    </div>
  );
}
