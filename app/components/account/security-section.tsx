import type { AccountSecurityView } from "~/domain/views/account";

/** Two-Factor Authentication and Passkeys on /account (placeholder: the passkeys helper fills it in). */
export function SecuritySection({ security }: { security: AccountSecurityView }) {
  return (
    <section aria-labelledby="account-security">
      <h2 id="account-security" className="text-lg font-semibold text-primary">
        Two-Factor Authentication
      </h2>
      <p className="text-sm text-slate-700">{security.totpEnabled ? "On" : "Off"}</p>
    </section>
  );
}
