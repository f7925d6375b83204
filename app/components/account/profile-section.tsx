import { Save } from "lucide-react";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { PendingButton } from "~/components/ui/pending-button";
import { displayPhone } from "~/domain/formats";
import { ACCOUNT_SETTINGS_PATH, useSettingsForm } from "./use-settings-form";
import { AccountSection } from "./account-section";

/** Full Name and Phone Number (applicants only). */
export function ProfileSection({ profile }: { profile: { fullName: string; phone: string | null } }) {
  const { fetcher, formRef, errors, onSubmit, pending } = useSettingsForm("update-profile");
  return (
    <AccountSection titleId="account-profile" title="Profile" data-testid="account-profile">
      <fetcher.Form ref={formRef} method="post" action={ACCOUNT_SETTINGS_PATH} noValidate onSubmit={onSubmit} className="flex flex-col gap-2">
        <input type="hidden" name="intent" value="update-profile" />
        <Field id="profile-full-name" label="Full Name" required errors={errors.fullName}>
          {(a11y) => <Input {...a11y} name="fullName" autoComplete="name" defaultValue={profile.fullName} maxLength={120} required />}
        </Field>
        <Field id="profile-phone" label="Phone Number" errors={errors.phone} hint="10 digits, for example (555) 123-4567. Leave it empty to remove it.">
          {(a11y) => <Input {...a11y} name="phone" type="tel" autoComplete="tel" inputMode="tel" defaultValue={displayPhone(profile.phone) ?? ""} maxLength={20} />}
        </Field>
        <div>
          <PendingButton type="submit" pending={pending} icon={<Save aria-hidden="true" />}>
            Save Profile
          </PendingButton>
        </div>
      </fetcher.Form>
    </AccountSection>
  );
}
