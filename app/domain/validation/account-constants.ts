/**
 * What /account's forms need while the page renders, without Zod: the settings intents, each form's
 * fields (the order focus goes to the first problem) and the word that confirms closing. The schemas
 * (./account-settings, ./account-data, which re-export these) are loaded after the page has started:
 * Zod and the schemas were a third of /account's start-up script on a phone (decision 0052).
 */

/** The intents /account/settings answers (the authorization matrix walks them). */
export const ACCOUNT_SETTINGS_INTENTS = [
  "update-profile",
  "request-email-change",
  "confirm-email-change",
  "change-password",
  "revoke-other-sessions",
  "update-notifications",
] as const;
export type AccountSettingsIntent = (typeof ACCOUNT_SETTINGS_INTENTS)[number];

/** The fields of each form, in the order focus goes to the first problem. */
export const ACCOUNT_SETTINGS_FIELDS = {
  "update-profile": ["fullName", "phone"],
  "request-email-change": ["newEmail", "currentPassword"],
  "confirm-email-change": ["code"],
  "change-password": [
    "currentPassword",
    "newPassword",
    "confirmPassword",
    "removePasskeys",
  ],
  "revoke-other-sessions": ["currentPassword"],
  "update-notifications": ["paymentReminders", "productNews"],
} as const satisfies Record<AccountSettingsIntent, readonly string[]>;

/** What the applicant types to confirm closing (shown in the dialog, compared exactly). */
export const CLOSE_ACCOUNT_CONFIRMATION = "CLOSE";
