import { Pencil } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { toast } from "~/components/toaster";
import { Button } from "~/components/ui/button";
import { CAPTCHA_FIELD, CaptchaField, EMAIL_INPUT, Field, InputField, PasswordField, SubmitButton } from "~/components/ui/form";
import { Input } from "~/components/ui/input";
import type { AuthActionData } from "~/domain/auth-action";
import { authProblemTitle, sendCodeSchema, signUpSchema } from "~/domain/validation/auth";
import type { CaptchaBrowserConfig } from "~/domain/validation/captcha-messages";
import { cn } from "~/utils/cn";
import { PasswordRules, schemaProblem, serverFieldErrors, useAuthFetcher, useAuthForm } from "./auth-form-kit";

const ORDER = ["fullName", "email", "code", "password", CAPTCHA_FIELD] as const;

/**
 * Create Account (docs/requirements.md §5): e-mail entered, Send Code (the field locks, the button reads 'Code Sent'),
 * code entered, captcha solved, account created, redirect to /dashboard (or on to the `redirectTo` page, e.g.
 * /apply after Apply Now). 'Change email' unlocks the field and forgets the sent state and the code.
 */
export function SignUpForm({ captcha, redirectTo, actionData }: { captcha: CaptchaBrowserConfig; redirectTo: string; actionData?: AuthActionData }) {
  const { id, values, setValue, bind, errors, show, captchaProps, verifying, showAnswer, formProps } = useAuthForm(ORDER, {
    fullName: "",
    email: "",
    code: "",
    password: "",
  });
  const { fullName, email, code, password } = values;
  const emailRef = useRef<HTMLInputElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const requestedEmail = useRef<string | null>(null);
  /** The (normalised) address a code was sent to: the e-mail field is locked while set. */
  const [sentTo, setSentTo] = useState<string | null>(null);

  const codeSend = useAuthFetcher("send-code", actionData, (data) => {
    if (data.ok) {
      setSentTo(requestedEmail.current);
      setValue("code", "");
      // A new step: what the earlier Create Account press said about any field is stale now.
      show({});
    } else {
      show((e) => ({ ...e, ...serverFieldErrors(data) }));
    }
  });

  const signUp = useAuthFetcher("sign-up", actionData, showAnswer);

  // Once the code is sent, its field appears: take the user there.
  useEffect(() => {
    if (sentTo) codeRef.current?.focus();
  }, [sentTo]);

  function sendCode() {
    if (codeSend.pending || sentTo) return;
    const result = sendCodeSchema.safeParse({ email });
    if (!result.success) {
      const message = result.error.issues[0]!.message;
      toast.error(authProblemTitle("send-code", message), { description: message });
      show((e) => ({ ...e, email: [message], code: undefined }));
      return;
    }
    requestedEmail.current = result.data.email;
    void codeSend.fetcher.submit({ intent: "send-code", email: result.data.email }, { method: "post", action: "/auth" });
  }

  function changeEmail() {
    setSentTo(null);
    setValue("code", "", "email");
    requestAnimationFrame(() => emailRef.current?.focus());
  }

  // Without a sent code there is nothing to check yet: 'Please verify your email before signing up'.
  const check = () => schemaProblem("sign-up", signUpSchema.safeParse({ fullName, email, code: sentTo ? code : "", password }), ORDER);

  const emailId = `${id}-email`;
  const emailErrorId = `${emailId}-error`;
  // Before a code is sent, a code problem is shown (and focused) at the e-mail's Send Code button; the
  // e-mail's own problem comes first (one message per field).
  const emailErrors = sentTo || errors.email?.length ? errors.email : errors.code;
  const sendLabel = codeSend.pending ? "Sending..." : sentTo ? "Code Sent" : "Send Code";

  return (
    <signUp.fetcher.Form {...formProps(signUp, check)}>
      <input type="hidden" name="intent" value="sign-up" />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <InputField id={`${id}-name`} label="Full Name" autoComplete="name" autoCapitalize="words" required maxLength={120} {...bind("fullName")} />

      <Field
        id={emailId}
        label="Email"
        errors={emailErrors?.length ? emailErrors : undefined}
        hint={
          sentTo ? (
            <span className="flex flex-wrap items-center gap-x-2">
              <span>
                We sent a 6-digit code to <strong className="break-all">{sentTo}</strong>.
              </span>
              <Button variant="link" size="sm" className="h-auto p-0 text-xs" onClick={changeEmail}>
                <Pencil aria-hidden="true" className="size-3!" />
                Change email
              </Button>
            </span>
          ) : undefined
        }
      >
        {(a11y) => (
          <div className="flex flex-wrap gap-2">
            <Input
              {...a11y}
              {...EMAIL_INPUT}
              ref={emailRef}
              required
              readOnly={Boolean(sentTo)}
              className={cn("min-w-40 flex-1", sentTo && "bg-muted")}
              value={email}
              onChange={(e) => setValue("email", e.target.value, "code")}
              onKeyDown={(e) => {
                // Enter in the e-mail field sends the code rather than the whole form.
                if (e.key === "Enter" && !sentTo) {
                  e.preventDefault();
                  sendCode();
                }
              }}
            />
            <Button
              variant="secondary"
              data-error-target={sentTo ? undefined : "code"}
              disabled={Boolean(sentTo) || email.trim() === ""}
              aria-disabled={codeSend.pending || undefined}
              aria-describedby={!sentTo && !errors.email?.length && errors.code?.length ? emailErrorId : undefined}
              onClick={sendCode}
              className="shrink-0"
            >
              {sendLabel}
            </Button>
          </div>
        )}
      </Field>

      {sentTo ? (
        <Field id={`${id}-code`} label="Verification Code" errors={errors.code} hint="Enter the 6-digit code from the e-mail. It expires in 10 minutes.">
          {(a11y) => (
            <Input
              {...a11y}
              ref={codeRef}
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]{6}"
              maxLength={6}
              required
              className="font-mono tracking-[0.3em]"
              value={code}
              onChange={(e) => setValue("code", e.target.value.replace(/\D/g, "").slice(0, 6))}
            />
          )}
        </Field>
      ) : null}

      <PasswordField id={`${id}-password`} hint={<PasswordRules password={password} />} autoComplete="new-password" required {...bind("password")} />

      <CaptchaField id={id} config={captcha} {...captchaProps} />

      {/* Creating the account records that this notice was accepted: say so before the button. */}
      <p className="text-sm text-muted-foreground">
        By creating an account you accept our{" "}
        <a href="/privacy" className="text-link underline">
          Privacy Policy
        </a>
        .
      </p>

      <SubmitButton pending={signUp.pending} verifying={verifying} label="Create Account" pendingLabel="Creating Account..." />
    </signUp.fetcher.Form>
  );
}
