/**
 * What the account page (/account) shows, section by section. Each section's server module
 * fills its part: profile and settings (app/server/accounts/settings.server.ts), security
 * (security.server.ts: two-factor and passkeys), their data (data.server.ts: Download My Data, Close
 * My Account).
 */

export type AccountSecurityView = {
  /** A staff account: its authenticator is mandatory and managed at /admin/mfa; passkeys only here. */
  staff: boolean;
  /** The optional TOTP second factor is on. */
  totpEnabled: boolean;
  passkeys: { id: string; name: string; createdAt: string; lastUsedAt: string | null }[];
};

export type AccountDataView = {
  /** The newest Download My Data request, if any. */
  /** `message`: why a failed request failed, when the person can do something about it (the storage cap). */
  latestExport: { status: "pending" | "ready" | "failed" | "expired"; requestedAt: string; expiresAt: string | null; message?: string } | null;
  /** Close My Account's explanation (data helper). */
  closure: AccountClosureView;
};

export type AccountClosureView = {
  /** What closing deletes at once. */
  deletedNow: string[];
  /** The retention policy's period for application records, in words ("7 years after the decision or the loan's end"). */
  keptPeriod: string;
  /** Each application kept, and until when (an ISO date, or words while a loan is still running). */
  kept: { record: string; until: string }[];
  /** Why the account cannot be closed now (an active loan, an open offer, an application under consideration), or null. */
  blocker: string | null;
  /** The application the blocker names (its page has Decline Offer or Withdraw Application), or null. */
  blockerApplicationId: string | null;
};

/** The profile, e-mail, sessions and notification sections (app/server/accounts/settings.server.ts). */
export type AccountSettingsView = {
  /** Staff see only Change Password, Active Sessions and the security section. */
  isStaff: boolean;
  email: string;
  /** Applicants only (null for staff). */
  profile: { fullName: string; phone: string | null } | null;
  /** A Change Email code sent and still valid: to which address, until when (ISO). */
  pendingEmailChange: { newEmail: string; expiresAt: string } | null;
  sessions: AccountSessionView[];
  /** Applicants only (null for staff). */
  notifications: { paymentReminders: boolean; productNews: boolean } | null;
};

export type AccountSessionView = {
  id: string;
  /** "Chrome on Windows", from the user agent; "Unknown device" when there is none. */
  device: string;
  ipAddress: string | null;
  /** When the session was last used (Better Auth's updatedAt), ISO. */
  lastSeenAt: string;
  current: boolean;
};
