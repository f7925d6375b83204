import { KeyRound } from "lucide-react";
import { useState } from "react";
import { PasswordRules } from "~/components/auth/password-rules";
import { Field } from "~/components/ui/field";
import { SecretInput } from "~/components/ui/form";
import { PendingButton } from "~/components/ui/pending-button";
import { ACCOUNT_SETTINGS_PATH, useSettingsForm } from "./use-settings-form";

/** Change Password (applicants and staff): the current one, then a new one meeting the sign-up rules. */
export function PasswordSection() {
  const [password, setPassword] = useState("");
  const { fetcher, formRef, errors, onSubmit, pending } = useSettingsForm("change-password", (element) => {
    element?.reset();
    setPassword("");
  });
  return (
    <section aria-labelledby="account-password" className="flex flex-col gap-3" data-testid="change-password">
      <h2 id="account-password" className="text-lg font-semibold text-primary">
        Change Password
      </h2>
      <p className="text-sm text-slate-700">Changing your password signs you out on every other device.</p>
      <fetcher.Form ref={formRef} method="post" action={ACCOUNT_SETTINGS_PATH} noValidate onSubmit={onSubmit} className="flex flex-col gap-2">
        <input type="hidden" name="intent" value="change-password" />
        <Field id="password-current" label="Current Password" required errors={errors.currentPassword}>
          {(a11y) => <SecretInput {...a11y} what="current password" name="currentPassword" autoComplete="current-password" required />}
        </Field>
        <Field id="password-new" label="New Password" required errors={errors.newPassword} hint={<PasswordRules password={password} />}>
          {(a11y) => (
            <SecretInput {...a11y} what="new password" name="newPassword" autoComplete="new-password" maxLength={128} required onChange={(e) => setPassword(e.currentTarget.value)} />
          )}
        </Field>
        <Field id="password-confirm" label="Confirm New Password" required errors={errors.confirmPassword}>
          {(a11y) => <SecretInput {...a11y} what="password confirmation" name="confirmPassword" autoComplete="new-password" maxLength={128} required />}
        </Field>
        <div>
          <PendingButton type="submit" pending={pending} icon={<KeyRound aria-hidden="true" />}>
            Change Password
          </PendingButton>
        </div>
      </fetcher.Form>
    </section>
  );
}
