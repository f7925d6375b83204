import { KeyRound } from "lucide-react";
import { useState } from "react";
import { PasswordRules } from "~/components/auth/password-rules";
import { Field } from "~/components/ui/field";
import { SecretInput } from "~/components/ui/form";
import { PendingButton } from "~/components/ui/pending-button";
import type { AccountSecurityView } from "~/domain/views/account";
import { ACCOUNT_SETTINGS_PATH, useSettingsForm } from "./use-settings-form";
import { AccountSection } from "./account-section";

/**
 * Change Password (applicants and staff): the current one, then a new one meeting the sign-up rules.
 * A new password does not touch passkeys, so the form lists the account's passkeys and offers to
 * remove them in the same step (after a suspected compromise, one left behind is a way back in).
 */
export function PasswordSection({ passkeys }: { passkeys: AccountSecurityView["passkeys"] }) {
  const [password, setPassword] = useState("");
  const { fetcher, formRef, errors, onSubmit, pending } = useSettingsForm("change-password", (element) => {
    element?.reset();
    setPassword("");
  });
  return (
    <AccountSection titleId="account-password" title="Change Password" data-testid="change-password">
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
        {passkeys.length > 0 ? (
          <fieldset className="flex flex-col gap-2 rounded border border-slate-200 p-3" data-testid="password-passkeys">
            <legend className="px-1 text-sm font-medium text-slate-900">Your Passkeys</legend>
            <p className="text-sm text-slate-700">These passkeys still sign in to your account after the password changes:</p>
            <ul aria-label="Passkeys on this account" className="list-disc pl-5 text-sm text-slate-900">
              {passkeys.map((k) => (
                <li key={k.id}>{k.name}</li>
              ))}
            </ul>
            <label className="flex items-center gap-2 text-sm text-slate-900">
              <input type="checkbox" name="removePasskeys" value="on" className="h-4 w-4" />
              Also remove my passkeys (do this if someone else may have used your account)
            </label>
          </fieldset>
        ) : null}
        <div>
          <PendingButton type="submit" pending={pending} icon={<KeyRound aria-hidden="true" />}>
            Change Password
          </PendingButton>
        </div>
      </fetcher.Form>
    </AccountSection>
  );
}
