import type { Ref } from "react";
import { Button } from "~/components/ui/button";
import { CAPTCHA_FIELD, CaptchaField, EmailField, PasswordField, SubmitButton } from "~/components/ui/form";
import type { AuthActionData } from "~/domain/auth-action";
import { signInSchema } from "~/domain/validation/auth";
import type { CaptchaBrowserConfig } from "~/domain/validation/captcha-messages";
import { schemaProblem, useAuthFetcher, useAuthForm } from "./auth-form-kit";

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
  const { id, values, bind, errors, clear, captchaKey, showAnswer, formProps } = useAuthForm(ORDER, { email: "", password: "" });
  const { fetcher, pending } = useAuthFetcher("sign-in", actionData, showAnswer);

  return (
    <fetcher.Form {...formProps(pending, (form) => schemaProblem("sign-in", signInSchema.safeParse(values), ORDER, form))}>
      <input type="hidden" name="intent" value="sign-in" />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <EmailField id={`${id}-email`} required {...bind("email")} />
      <PasswordField
        id={`${id}-password`}
        labelAside={
          <Button ref={forgotButtonRef} variant="link" size="sm" className="h-auto p-0 text-sm" onClick={onForgotPassword}>
            Forgot Password?
          </Button>
        }
        autoComplete="current-password"
        required
        {...bind("password")}
      />
      <CaptchaField id={id} config={captcha} resetKey={captchaKey} errors={errors[CAPTCHA_FIELD]} onSolved={() => clear(CAPTCHA_FIELD)} />
      <SubmitButton pending={pending} label="Sign In" pendingLabel="Signing In..." />
    </fetcher.Form>
  );
}
