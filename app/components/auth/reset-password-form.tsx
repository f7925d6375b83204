import { ArrowLeft } from "lucide-react";
import { useEffect } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { PasswordField, SubmitButton } from "~/components/ui/form";
import type { AuthActionData } from "~/domain/auth-action";
import { AUTH_MESSAGES, resetPasswordSchema } from "~/domain/validation/auth";
import { issuesToFieldErrors, type FieldErrors } from "~/domain/validation/field-errors";
import { passwordProblem } from "~/domain/validation/password";
import { PasswordRules, useAuthFetcher, useAuthForm, type LocalProblem } from "./auth-form-kit";

const ORDER = ["password", "confirmPassword"] as const;

/** What the browser says before posting: missing, then mismatch, then strength (docs/requirements.md §6). */
function checkLocally(token: string, password: string, confirmPassword: string): LocalProblem | null {
  if (!password || !confirmPassword) {
    const errors: FieldErrors = {};
    if (!password) errors.password = [AUTH_MESSAGES.fillAllFields];
    if (!confirmPassword) errors.confirmPassword = [AUTH_MESSAGES.fillAllFields];
    return { title: "Missing Information", message: AUTH_MESSAGES.fillAllFields, errors };
  }
  if (password !== confirmPassword) {
    return { title: "Passwords Don't Match", message: AUTH_MESSAGES.passwordsDontMatch, errors: { confirmPassword: [AUTH_MESSAGES.passwordsDontMatch] } };
  }
  const weak = passwordProblem(password);
  if (weak) return { title: "Weak Password", message: weak, errors: { password: [weak] } };
  const result = resetPasswordSchema.safeParse({ token, password, confirmPassword });
  if (!result.success) {
    const errors = issuesToFieldErrors(result.error);
    const message = result.error.issues[0]!.message;
    return { title: "Password Update Failed", message, errors };
  }
  return null;
}

export type ResetLinkStatus = { state: "checking" } | { state: "valid" } | { state: "spent"; message: string };

/**
 * Asks the server whether the link's token can still be used, once per token, before the new-password
 * form is shown: a used or expired link says so at once. The token is posted (never put in an address,
 * where logs would keep it). Any refusal, a throttle included, shows the server's own message.
 */
export function useResetLinkStatus(token: string | null): ResetLinkStatus {
  const fetcher = useFetcher<AuthActionData>();
  const { submit } = fetcher;
  useEffect(() => {
    if (token === null) return;
    void submit({ intent: "check-reset-link", token }, { method: "post", action: "/auth" });
  }, [token, submit]);
  const answer = fetcher.data;
  if (fetcher.state !== "idle" || !answer) return { state: "checking" };
  if (answer.ok) return { state: "valid" };
  return { state: "spent", message: answer.toast.description ?? answer.toast.title };
}

/**
 * Reset Your Password: the token came in the link's fragment (kept in memory only). Success redirects
 * to /auth with 'Password Updated Successfully'; the link is single-use.
 */
export function ResetPasswordForm({ token, actionData, onBack }: { token: string; actionData?: AuthActionData; onBack: () => void }) {
  const { id, values, bind, showAnswer, formProps } = useAuthForm(ORDER, { password: "", confirmPassword: "" });
  const resetPassword = useAuthFetcher("reset-password", actionData, showAnswer);

  return (
    <resetPassword.fetcher.Form {...formProps(resetPassword, () => checkLocally(token, values.password, values.confirmPassword))}>
      <input type="hidden" name="intent" value="reset-password" />
      <input type="hidden" name="token" value={token} />
      <PasswordField
        id={`${id}-password`}
        label="New Password"
        hint={<PasswordRules password={values.password} />}
        autoComplete="new-password"
        required
        {...bind("password")}
      />
      <PasswordField id={`${id}-confirm`} label="Confirm Password" autoComplete="new-password" required {...bind("confirmPassword")} />
      <SubmitButton pending={resetPassword.pending} label="Update Password" pendingLabel="Updating Password..." />
      <Button variant="ghost" className="w-full" onClick={onBack}>
        <ArrowLeft aria-hidden="true" />
        Back to Sign In
      </Button>
    </resetPassword.fetcher.Form>
  );
}
