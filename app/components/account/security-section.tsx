import { formatDay } from "~/domain/formats";

import { KeyRound, ShieldCheck, Trash2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useFetcher, useRevalidator } from "react-router";
import { useActionToast } from "~/components/action-toast";
import { BackupCodeList } from "~/components/backup-codes";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { PendingButton } from "~/components/ui/pending-button";
import type { AccountSecurityActionData } from "~/domain/validation/account-security";
import type { AccountSecurityView } from "~/domain/views/account";
import { AccountSection } from "./account-section";
import { AuthenticatorKey } from "~/components/auth/authenticator-key";

/** Where the section posts (every intent). */
export const ACCOUNT_SECURITY_PATH = "/account/security";

const dateOnly = (iso: string) => formatDay(iso);
const errorsOf = (answer: AccountSecurityActionData | undefined, field: string) => (answer && !answer.ok ? answer.fieldErrors?.[field] : undefined);

/** Two-Factor Authentication and Passkeys on /account. */
export function SecuritySection({ security }: { security: AccountSecurityView }) {
  return (
    <AccountSection titleId="account-security" title="Sign-In Security" className="mt-10 flex flex-col gap-8">
      <TwoFactor security={security} />
      <Passkeys security={security} />
    </AccountSection>
  );
}

function BackupCodes({ codes }: { codes: string[] }) {
  return (
    <div className="rounded border border-slate-300 p-4" data-testid="backup-codes">
      <p className="text-sm text-slate-700">Save these backup codes somewhere safe. Each works once if you lose your authenticator. They will not be shown again.</p>
      <BackupCodeList codes={codes} className="mt-3" />
    </div>
  );
}

function TwoFactor({ security }: { security: AccountSecurityView }) {
  const start = useFetcher<AccountSecurityActionData>({ key: "totp-start" });
  const enable = useFetcher<AccountSecurityActionData>({ key: "totp-enable" });
  const regenerate = useFetcher<AccountSecurityActionData>({ key: "backup-codes" });
  const disable = useFetcher<AccountSecurityActionData>({ key: "totp-disable" });
  useActionToast(start.data);
  useActionToast(enable.data);
  useActionToast(regenerate.data);
  useActionToast(disable.data);
  const codeRef = useRef<HTMLInputElement>(null);
  const enrolment = start.data?.ok ? start.data.enrolment : undefined;
  useEffect(() => {
    if (enrolment) codeRef.current?.focus();
  }, [enrolment]);
  const newCodes = (enable.data?.ok ? enable.data.backupCodes : undefined) ?? (regenerate.data?.ok ? regenerate.data.backupCodes : undefined);

  if (security.staff) {
    return (
      <div className="flex flex-col gap-3" data-testid="two-factor">
        <h3 className="text-base font-semibold text-primary">Two-Factor Authentication</h3>
        <p className="text-sm text-slate-700">Staff accounts always use two-factor authentication; your authenticator app is managed on the admin two-factor page.</p>
      </div>
    );
  }

  return (
    <div className="flex flex-col gap-3" data-testid="two-factor">
      <h3 className="text-base font-semibold text-primary">Two-Factor Authentication</h3>
      <p className="text-sm text-slate-700" role="status">
        {security.totpEnabled
          ? "On: after your password, we ask for a code from your authenticator app (or a backup code, or a passkey)."
          : "Off. Turn it on to be asked for a code from an authenticator app after your password."}
      </p>
      {newCodes ? <BackupCodes codes={newCodes} /> : null}
      {!security.totpEnabled && !enrolment ? (
        <start.Form method="post" action={ACCOUNT_SECURITY_PATH}>
          <input type="hidden" name="intent" value="totp-start" />
          <PendingButton type="submit" variant="outline" pending={start.state !== "idle"} icon={<ShieldCheck aria-hidden="true" />}>
            Turn On Two-Factor Authentication
          </PendingButton>
        </start.Form>
      ) : null}
      {!security.totpEnabled && enrolment ? (
        <div className="flex flex-col gap-3">
          <p className="text-sm text-slate-700">Scan this QR code with an authenticator app, then enter the 6-digit code it shows.</p>
          <AuthenticatorKey enrolment={enrolment} />
          <enable.Form method="post" action={ACCOUNT_SECURITY_PATH} className="flex flex-col gap-2" noValidate>
            <input type="hidden" name="intent" value="totp-enable" />
            <Field id="totp-enable-code" label="Authentication Code" required errors={errorsOf(enable.data, "code")} liveErrors>
              {(a11y) => <Input {...a11y} ref={codeRef} name="code" inputMode="numeric" autoComplete="one-time-code" maxLength={6} required />}
            </Field>
            <div>
              <PendingButton type="submit" pending={enable.state !== "idle"} icon={<ShieldCheck aria-hidden="true" />}>
                Confirm and Turn On
              </PendingButton>
            </div>
          </enable.Form>
        </div>
      ) : null}
      {security.totpEnabled ? (
        <div className="flex flex-col gap-6">
          <regenerate.Form method="post" action={ACCOUNT_SECURITY_PATH} className="flex flex-col gap-2" noValidate>
            <input type="hidden" name="intent" value="backup-codes" />
            <Field id="backup-codes-code" label="Current Code for New Backup Codes" required errors={errorsOf(regenerate.data, "code")} liveErrors>
              {(a11y) => <Input {...a11y} name="code" inputMode="numeric" autoComplete="one-time-code" maxLength={6} required />}
            </Field>
            <div>
              <PendingButton type="submit" variant="outline" pending={regenerate.state !== "idle"} icon={<KeyRound aria-hidden="true" />}>
                Regenerate Backup Codes
              </PendingButton>
            </div>
          </regenerate.Form>
          <disable.Form method="post" action={ACCOUNT_SECURITY_PATH} className="flex flex-col gap-2" noValidate>
            <input type="hidden" name="intent" value="totp-disable" />
            <p className="text-sm text-slate-700">To turn it off, enter a current code or backup code, or your password.</p>
            <Field id="totp-disable-code" label="Code or Backup Code" errors={errorsOf(disable.data, "code")} liveErrors>
              {(a11y) => <Input {...a11y} name="code" autoComplete="one-time-code" maxLength={20} />}
            </Field>
            <Field id="totp-disable-password" label="Or Your Password" errors={errorsOf(disable.data, "password")} liveErrors>
              {(a11y) => <Input {...a11y} type="password" name="password" autoComplete="current-password" />}
            </Field>
            <div>
              <PendingButton type="submit" variant="destructive" pending={disable.state !== "idle"} icon={<Trash2 aria-hidden="true" />}>
                Turn Off Two-Factor Authentication
              </PendingButton>
            </div>
          </disable.Form>
        </div>
      ) : null}
    </div>
  );
}

function Passkeys({ security }: { security: AccountSecurityView }) {
  const remove = useFetcher<AccountSecurityActionData>({ key: "passkey-remove" });
  useActionToast(remove.data);
  const revalidator = useRevalidator();
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [adding, setAdding] = useState(false);
  const [added, setAdded] = useState<AccountSecurityActionData | undefined>(undefined);
  useActionToast(added);

  async function add(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // The schema (and Zod) loads on the click, not with the page (decision 0052).
    const { passkeyNameSchema } = await import("~/domain/validation/account-security");
    const checked = passkeyNameSchema.safeParse(name);
    if (!checked.success) {
      const message = checked.error.issues[0]?.message ?? "";
      setAdded({ ok: false, intent: "passkey-add", toast: { type: "error", title: "Could not add the passkey", description: message }, fieldErrors: { name: [message] }, at: Date.now() });
      document.getElementById("passkey-name")?.focus();
      return;
    }
    setAdding(true);
    // The ceremony (and the WebAuthn library) loads on the click, not with the page.
    const { passkeyRegister } = await import("~/components/auth/passkey-ceremony");
    const answer = await passkeyRegister(name, { password, code }).catch(
      (): AccountSecurityActionData => ({ ok: false, intent: "passkey-add", toast: { type: "error", title: "Could not add the passkey", description: "Something went wrong. Please try again." }, at: Date.now() }),
    );
    setAdded(answer);
    setAdding(false);
    // The proof is asked for each time: it is cleared whatever the answer.
    setPassword("");
    setCode("");
    if (answer.ok) {
      setName("");
      void revalidator.revalidate();
    } else if (answer.fieldErrors?.password || answer.fieldErrors?.code) {
      document.getElementById(answer.fieldErrors.password ? "passkey-password" : "passkey-code")?.focus();
    }
  }

  return (
    <div className="flex flex-col gap-3" data-testid="passkeys">
      <h3 className="text-base font-semibold text-primary">Passkeys</h3>
      <p className="text-sm text-slate-700">
        Sign in with your fingerprint, face or device PIN instead of a password. A passkey that checks your PIN or biometrics also counts as your second factor.
      </p>
      {security.passkeys.length > 0 ? (
        <ul aria-label="Your passkeys" className="flex flex-col gap-2">
          {security.passkeys.map((k) => (
            <li key={k.id} className="flex flex-wrap items-center justify-between gap-2 rounded border border-slate-200 px-3 py-2">
              <span className="text-sm text-slate-900">
                <span className="font-medium">{k.name}</span> · added {dateOnly(k.createdAt)}
                {k.lastUsedAt ? ` · last used ${dateOnly(k.lastUsedAt)}` : " · not used yet"}
              </span>
              <remove.Form method="post" action={ACCOUNT_SECURITY_PATH}>
                <input type="hidden" name="intent" value="passkey-remove" />
                <input type="hidden" name="passkeyId" value={k.id} />
                <PendingButton type="submit" variant="outline" size="sm" pending={remove.state !== "idle"} icon={<Trash2 aria-hidden="true" />} aria-label={`Remove passkey ${k.name}`}>
                  Remove
                </PendingButton>
              </remove.Form>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-700">You have no passkeys yet.</p>
      )}
      <form onSubmit={(event) => void add(event)} className="flex flex-col gap-2" noValidate>
        <Field id="passkey-name" label="Passkey Name" hint="For example “Work laptop” or “My phone”." errors={errorsOf(added, "name")} liveErrors>
          {(a11y) => <Input {...a11y} name="name" value={name} onChange={(e) => setName(e.target.value)} maxLength={60} autoComplete="off" />}
        </Field>
        <p className="text-sm text-slate-700">
          {security.totpEnabled
            ? "To add a passkey, confirm it is you: enter your password, or a current code from your authenticator app. We e-mail you when a passkey is added."
            : "To add a passkey, confirm it is you with your password. We e-mail you when a passkey is added."}
        </p>
        <Field id="passkey-password" label="Your Password" errors={errorsOf(added, "password")} liveErrors>
          {(a11y) => <Input {...a11y} type="password" name="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="current-password" />}
        </Field>
        {security.totpEnabled ? (
          <Field id="passkey-code" label="Or a Current Code" errors={errorsOf(added, "code")} liveErrors>
            {(a11y) => <Input {...a11y} name="code" value={code} onChange={(e) => setCode(e.target.value)} inputMode="numeric" autoComplete="one-time-code" maxLength={6} />}
          </Field>
        ) : null}
        <div>
          <PendingButton type="submit" pending={adding} icon={<KeyRound aria-hidden="true" />}>
            Add Passkey
          </PendingButton>
        </div>
      </form>
    </div>
  );
}
