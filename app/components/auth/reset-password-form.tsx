import { ArrowLeft } from "lucide-react";
import { useId, useRef, useState, type FormEvent } from "react";
import { toast } from "~/components/toaster";
import { Button } from "~/components/ui/button";
import type { AuthActionData } from "~/domain/auth-action";
import { AUTH_MESSAGES, resetPasswordSchema } from "~/domain/validation/auth";
import { passwordProblem } from "~/domain/validation/password";
import {
  Field,
  issuesToFieldErrors,
  PasswordRules,
  serverFieldErrors,
  SubmitButton,
  useAuthFetcher,
  useFocusFirstInvalid,
  type FieldErrors,
} from "./auth-form-kit";
import { PasswordInput } from "./password-input";

const ORDER = ["password", "confirmPassword"] as const;

/** What the browser says before posting: missing, then mismatch, then strength (spec 001 §5). */
function checkLocally(token: string, password: string, confirmPassword: string): { title: string; message: string; errors: FieldErrors } | null {
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

/**
 * Reset Your Password: the token came in the link's fragment (kept in memory only). Success redirects
 * to /auth with 'Password Updated Successfully'; the link is single-use.
 */
export function ResetPasswordForm({ token, actionData, onBack }: { token: string; actionData?: AuthActionData; onBack: () => void }) {
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [password, setPassword] = useState("");
  const [confirmPassword, setConfirmPassword] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const requestFocus = useFocusFirstInvalid(formRef, errors, ORDER);

  const { fetcher, pending } = useAuthFetcher("reset-password", actionData, (data) => {
    setErrors(serverFieldErrors(data));
    requestFocus();
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (pending) {
      event.preventDefault();
      return;
    }
    const problem = checkLocally(token, password, confirmPassword);
    setErrors(problem?.errors ?? {});
    if (!problem) return;
    event.preventDefault();
    toast.error(problem.title, { description: problem.message });
    requestFocus();
  }

  const clear = (name: string) => setErrors((e) => (e[name] ? { ...e, [name]: undefined } : e));

  return (
    <fetcher.Form ref={formRef} method="post" action="/auth" noValidate onSubmit={onSubmit} className="flex flex-col gap-2">
      <input type="hidden" name="intent" value="reset-password" />
      <input type="hidden" name="token" value={token} />
      <Field
        id={`${id}-password`}
        label="New Password"
        errors={errors.password}
        hint={<PasswordRules password={password} />}
      >
        {(a11y) => (
          <PasswordInput
            {...a11y}
            name="password"
            autoComplete="new-password"
            required
            value={password}
            onChange={(e) => {
              setPassword(e.target.value);
              clear("password");
            }}
          />
        )}
      </Field>
      <Field id={`${id}-confirm`} label="Confirm Password" errors={errors.confirmPassword}>
        {(a11y) => (
          <PasswordInput
            {...a11y}
            name="confirmPassword"
            autoComplete="new-password"
            required
            value={confirmPassword}
            onChange={(e) => {
              setConfirmPassword(e.target.value);
              clear("confirmPassword");
            }}
          />
        )}
      </Field>
      <SubmitButton pending={pending} label="Update Password" pendingLabel="Updating Password..." />
      <Button variant="ghost" className="w-full" onClick={onBack}>
        <ArrowLeft aria-hidden="true" />
        Back to Sign In
      </Button>
    </fetcher.Form>
  );
}
