import { LogOut } from "lucide-react";
import { Field } from "~/components/ui/field";
import { SecretInput } from "~/components/ui/form";
import { PendingButton } from "~/components/ui/pending-button";
import { formatUtcDateTime } from "~/domain/formats";
import type { AccountSessionView } from "~/domain/views/account";
import { ACCOUNT_SETTINGS_PATH, useSettingsForm } from "./use-settings-form";
import { AccountSection } from "./account-section";

// UTC on both server and browser, so the hydrated text matches the rendered one.
const lastSeen = (iso: string) => formatUtcDateTime(iso, "medium");

const clearForm = (form: HTMLFormElement | null) => form?.reset();

/** Active Sessions: where this account is signed in, and Sign Out Other Sessions. */
export function SessionsSection({ sessions }: { sessions: AccountSessionView[] }) {
  const { fetcher, formRef, errors, onSubmit, pending } = useSettingsForm("revoke-other-sessions", clearForm);
  const others = sessions.filter((s) => !s.current).length;
  return (
    <AccountSection titleId="account-sessions" title="Active Sessions" data-testid="active-sessions">
      <div className="overflow-x-auto rounded-lg border border-border">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Devices signed in to your account</caption>
          <thead className="bg-muted text-slate-700">
            <tr>
              <th scope="col" className="px-3 py-2 font-medium">
                Device
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                IP Address
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                Last Seen
              </th>
            </tr>
          </thead>
          <tbody>
            {sessions.map((s) => (
              <tr key={s.id} className="border-t border-border" data-testid="session-row">
                <td className="px-3 py-2">
                  {s.device}
                  {s.current ? <span className="ml-2 rounded-full bg-navy-50 px-2 py-0.5 text-xs font-semibold text-primary">This device</span> : null}
                </td>
                <td className="px-3 py-2">{s.ipAddress ?? "Unknown"}</td>
                <td className="px-3 py-2">{lastSeen(s.lastSeenAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <fetcher.Form ref={formRef} method="post" action={ACCOUNT_SETTINGS_PATH} noValidate onSubmit={onSubmit} className="flex flex-wrap items-start gap-x-3 gap-y-2">
        <input type="hidden" name="intent" value="revoke-other-sessions" />
        <Field id="sessions-current-password" label="Current Password" required errors={errors.currentPassword} className="w-full sm:w-72">
          {(a11y) => <SecretInput {...a11y} what="current password" name="currentPassword" autoComplete="current-password" required />}
        </Field>
        {/* Level with the input: the label's line and the field's gap above it. */}
        <div className="sm:pt-7">
          <PendingButton type="submit" variant="outline" pending={pending} icon={<LogOut aria-hidden="true" />}>
            Sign Out Other Sessions
          </PendingButton>
        </div>
      </fetcher.Form>
      {others === 0 ? <p className="text-sm text-slate-700">You are not signed in anywhere else.</p> : null}
    </AccountSection>
  );
}
