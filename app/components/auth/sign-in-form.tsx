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
  const { id, values, bind, captchaProps, verifying, showAnswer, formProps } = useAuthForm(ORDER, { email: "", password: "" });
  const signIn = useAuthFetcher("sign-in", actionData, showAnswer);

  return (
    <signIn.fetcher.Form {...formProps(signIn, () => schemaProblem("sign-in", signInSchema.safeParse(values), ORDER))}>
      <input type="hidden" name="intent" value="sign-in" />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <EmailField id={`${id}-email`} required {...bind("email")} />
      {/* 'Forgot Password?' sits beside the label but follows the password in the tab order. */}
      <div className="relative">
        <PasswordField id={`${id}-password`} autoComplete="current-password" required {...bind("password")} />
        <Button ref={forgotButtonRef} variant="link" size="sm" className="absolute top-0 right-0 h-5 p-0 text-sm" onClick={onForgotPassword}>
          Forgot Password?
        </Button>
      </div>
      <CaptchaField id={id} config={captcha} {...captchaProps} />
      <SubmitButton pending={signIn.pending} verifying={verifying} label="Sign In" pendingLabel="Signing In..." />
    </signIn.fetcher.Form>
  );
}
