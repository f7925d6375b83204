import { ArrowLeft } from "lucide-react";
import { useState, type Ref } from "react";
import { Button } from "~/components/ui/button";
import { CAPTCHA_FIELD, CaptchaField, EmailField, SubmitButton } from "~/components/ui/form";
import type { AuthActionData } from "~/domain/auth-action";
import { resetRequestSchema } from "~/domain/validation/auth";
import type { CaptchaBrowserConfig } from "~/domain/validation/captcha-messages";
import { schemaProblem, useAuthFetcher, useAuthForm } from "./auth-form-kit";

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
  const { id, values, bind, captchaProps, verifying, newCaptcha, showAnswer, formProps } = useAuthForm(ORDER, { email: "" });
  const [sentTo, setSentTo] = useState<string | null>(null);

  const resetRequest = useAuthFetcher("reset-request", actionData, (data) => {
    showAnswer(data);
    if (data.ok) {
      setSentTo(values.email.trim());
      newCaptcha();
    }
  });

  // Disabled until an e-mail is typed; an empty one would be refused with 'Email Required' anyway.
  const empty = values.email.trim() === "";

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-1">
        <h2 ref={headingRef} tabIndex={-1} className="text-lg font-semibold text-primary">
          Forgot Password
        </h2>
        <p className="text-sm text-muted-foreground">Enter the e-mail address of your account and we will send you a link to reset your password.</p>
      </div>
      <resetRequest.fetcher.Form {...formProps(resetRequest, () => schemaProblem("reset-request", resetRequestSchema.safeParse(values), ORDER))}>
        <input type="hidden" name="intent" value="reset-request" />
        <EmailField id={`${id}-email`} required {...bind("email")} />
        <CaptchaField id={id} config={captcha} {...captchaProps} />
        {sentTo ? (
          <p className="rounded-md bg-navy-50 p-3 text-sm text-slate-800">
            If an account exists for {sentTo}, a reset link is on its way. Check your inbox.
          </p>
        ) : null}
        <SubmitButton pending={resetRequest.pending} verifying={verifying} disabled={empty} label="Send Reset Link" pendingLabel="Sending..." />
        <Button variant="ghost" className="w-full" onClick={onBack}>
          <ArrowLeft aria-hidden="true" />
          Back to Sign In
        </Button>
      </resetRequest.fetcher.Form>
    </div>
  );
}
