import { MailCheck, Send } from "lucide-react";
import { Field } from "~/components/ui/field";
import { EMAIL_INPUT, SecretInput } from "~/components/ui/form";
import { Input } from "~/components/ui/input";
import { PendingButton } from "~/components/ui/pending-button";
import { ACCOUNT_SETTINGS_PATH, useSettingsForm } from "./use-settings-form";
import { AccountSection } from "./account-section";

const clearPassword = (form: HTMLFormElement | null) => form?.reset();

/** Change Email: a code to the new address, then the code here (applicants only). */
export function EmailSection({ email, pending }: { email: string; pending: { newEmail: string; expiresAt: string } | null }) {
  const { fetcher: requestFetcher, formRef: requestRef, errors: requestErrors, onSubmit: onRequest, pending: requesting } = useSettingsForm("request-email-change", clearPassword);
  const { fetcher: confirmFetcher, formRef: confirmRef, errors: confirmErrors, onSubmit: onConfirm, pending: confirming } = useSettingsForm("confirm-email-change", clearPassword);
  return (
    <AccountSection titleId="account-email" title="Change Email" data-testid="change-email">
      <p className="text-sm text-slate-700">
        Your email address is <strong>{email}</strong>. We send a code to the new address; your address changes once you enter it here, and we let
        the old address know.
      </p>
      <requestFetcher.Form ref={requestRef} method="post" action={ACCOUNT_SETTINGS_PATH} noValidate onSubmit={onRequest} className="flex flex-col gap-2">
        <input type="hidden" name="intent" value="request-email-change" />
        <Field id="email-new" label="New Email" required errors={requestErrors.newEmail}>
          {(a11y) => <Input {...a11y} {...EMAIL_INPUT} name="newEmail" maxLength={254} required />}
        </Field>
        <Field id="email-current-password" label="Current Password" required errors={requestErrors.currentPassword}>
          {(a11y) => <SecretInput {...a11y} what="password" name="currentPassword" autoComplete="current-password" required />}
        </Field>
        <div>
          <PendingButton type="submit" variant="outline" pending={requesting} icon={<Send aria-hidden="true" />}>
            Send Code
          </PendingButton>
        </div>
      </requestFetcher.Form>
      {pending ? (
        <confirmFetcher.Form ref={confirmRef} method="post" action={ACCOUNT_SETTINGS_PATH} noValidate onSubmit={onConfirm} className="flex flex-col gap-2" data-testid="confirm-email-change">
          <input type="hidden" name="intent" value="confirm-email-change" />
          <Field id="email-code" label={`Code sent to ${pending.newEmail}`} required errors={confirmErrors.code} hint="The 6-digit code is valid for 10 minutes.">
            {(a11y) => <Input {...a11y} name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" maxLength={6} required />}
          </Field>
          <div>
            <PendingButton type="submit" pending={confirming} icon={<MailCheck aria-hidden="true" />}>
              Confirm New Email
            </PendingButton>
          </div>
        </confirmFetcher.Form>
      ) : null}
    </AccountSection>
  );
}
