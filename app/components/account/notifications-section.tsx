import { Save } from "lucide-react";
import { PendingButton } from "~/components/ui/pending-button";
import { ACCOUNT_SETTINGS_PATH, useSettingsForm } from "./use-settings-form";
import { AccountSection } from "./account-section";

const CHOICES = [
  { name: "paymentReminders", label: "Payment reminders", hint: "An e-mail a few days before each loan payment is due." },
  { name: "productNews", label: "News and offers", hint: "Occasional e-mail about our loans and services." },
] as const;

/** Notification Preferences (applicants only): the optional e-mails. */
export function NotificationsSection({ notifications }: { notifications: { paymentReminders: boolean; productNews: boolean } }) {
  const { fetcher, formRef, pending } = useSettingsForm("update-notifications");
  return (
    <AccountSection titleId="account-notifications" title="Notification Preferences" data-testid="notification-preferences">
      <p className="text-sm text-slate-700">
        Choose the optional e-mails you want. Notices about your applications, offers, loans, payments and account security always go to you, whatever
        you choose here.
      </p>
      <fetcher.Form ref={formRef} method="post" action={ACCOUNT_SETTINGS_PATH} className="flex flex-col gap-3">
        <input type="hidden" name="intent" value="update-notifications" />
        <fieldset className="flex flex-col gap-3">
          <legend className="sr-only">Optional e-mails</legend>
          {CHOICES.map((c) => (
            <div key={c.name} className="flex items-start gap-3">
              <input
                id={`notify-${c.name}`}
                type="checkbox"
                name={c.name}
                defaultChecked={notifications[c.name]}
                aria-describedby={`notify-${c.name}-hint`}
                className="mt-1 size-4 accent-primary"
              />
              <div>
                <label htmlFor={`notify-${c.name}`} className="text-sm font-medium">
                  {c.label}
                </label>
                <p id={`notify-${c.name}-hint`} className="text-sm text-slate-700">
                  {c.hint}
                </p>
              </div>
            </div>
          ))}
        </fieldset>
        <div>
          <PendingButton type="submit" variant="outline" pending={pending} icon={<Save aria-hidden="true" />}>
            Save Preferences
          </PendingButton>
        </div>
      </fetcher.Form>
    </AccountSection>
  );
}
