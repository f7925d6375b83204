/**
 * What the account page (/account, issue 23) shows, section by section. Each section's server module
 * fills its part: profile and settings (app/server/account/settings.server.ts), security
 * (security.server.ts: two-factor and passkeys), their data (data.server.ts: Download My Data, Close
 * My Account).
 */

export type AccountSecurityView = {
  /** The optional TOTP second factor is on. */
  totpEnabled: boolean;
  passkeys: { id: string; name: string; createdAt: string; lastUsedAt: string | null }[];
};

export type AccountDataView = {
  /** The newest Download My Data request, if any. */
  latestExport: { status: "pending" | "ready" | "failed" | "expired"; requestedAt: string; expiresAt: string | null } | null;
};
