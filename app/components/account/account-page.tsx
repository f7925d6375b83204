import { DataSection } from "~/components/account/data-section";
import { SecuritySection } from "~/components/account/security-section";
import type { AccountDataView, AccountSecurityView, AccountSettingsView } from "~/domain/views/account";
import { EmailSection } from "./email-section";
import { NotificationsSection } from "./notifications-section";
import { PasswordSection } from "./password-section";
import { ProfileSection } from "./profile-section";
import { SessionsSection } from "./sessions-section";

/**
 * /account, its sections in order: profile, Change Email, Change Password, Active Sessions,
 * two-factor and passkeys, Notification Preferences, the applicant's data. Staff get the sign-in parts
 * only (the server refuses the others to them too).
 */
export function AccountPage({ settings, security, data }: { settings: AccountSettingsView; security: AccountSecurityView; data: AccountDataView | null }) {
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-10 px-4 py-8">
      <div>
        <h1 className="text-2xl font-bold text-primary">Account Settings</h1>
        <p className="mt-1 text-sm text-slate-700">Signed in as {settings.email}.</p>
      </div>
      {settings.profile ? <ProfileSection profile={settings.profile} /> : null}
      {settings.isStaff ? null : <EmailSection email={settings.email} pending={settings.pendingEmailChange} />}
      <PasswordSection passkeys={security.passkeys} />
      <SessionsSection sessions={settings.sessions} />
      <SecuritySection security={security} />
      {settings.notifications ? <NotificationsSection notifications={settings.notifications} /> : null}
      {data ? <DataSection data={data} /> : null}
    </div>
  );
}
