import { formatDay } from "~/domain/formats";

/**
 * The version of the privacy notice (/privacy) people accept. Sign-up records the version
 * accepted; a user whose newest accepted version is older than the current one is shown the notice
 * once at their next sign-in (/account/privacy). Versions are the effective dates (YYYY-MM-DD), so a
 * newer notice is simply a later string.
 *
 * When the notice's content changes in a way people must be told about: set `version` to the new
 * effective date, and describe the change in `changes` (what the sign-in page lists under "What changed").
 */
export type PrivacyNoticeVersion = {
  /** The effective date, YYYY-MM-DD. */
  version: string;
  /** What changed from the version before, in plain words. */
  changes: readonly string[];
};

/**
 * The version current when acceptances started being recorded (migration 0010). Accounts created before
 * then have no acceptance row and count as having accepted this one.
 */
export const PRIVACY_NOTICE_BASELINE_VERSION = "2026-11-24";

export const currentPrivacyNotice: PrivacyNoticeVersion = {
  version: PRIVACY_NOTICE_BASELINE_VERSION,
  changes: [
    "We now record which version of this notice you accepted, and when, and show you a changed notice the next time you sign in.",
    "Your account settings let you choose the optional e-mails you receive (payment reminders and news); notices about your applications and loans always go.",
    "Download My Data gives you a copy of everything we hold about you, and Close My Account explains what we must keep and for how long.",
  ],
};

/** The notice in brief, shown with the changes (the full text is on /privacy). */
export const PRIVACY_NOTICE_SUMMARY: readonly string[] = [
  "We collect what you give us to apply for and service a loan: identity, contact, income, employment and bank details, and documents.",
  "We use it to decide on and service your loan, to meet our legal duties and to prevent fraud. We do not share it with other companies for their marketing.",
  "Your Social Security number and bank account and routing numbers are encrypted; staff who can see customer data use multi-factor authentication, and every access is logged.",
  "We keep application and loan records for about 7 years after the decision or the loan's end, as the law requires, then delete them securely.",
];

/** Whether `accepted` (the newest version a person accepted, or none) is older than `current`. */
export function privacyNoticeChanged(accepted: string | null | undefined, current: string): boolean {
  return (accepted ?? PRIVACY_NOTICE_BASELINE_VERSION) < current;
}

/** "Nov 24, 2026" for a version (an ISO date). */
export function privacyNoticeDate(version: string): string {
  return formatDay(version);
}
