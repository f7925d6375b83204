/**
 * What the user reads when the captcha is not passed (docs/requirements.md §6, §9). Shared by the actions (which
 * map verifyCaptcha's reason to a message) and the browser (which can check "solved?" before posting).
 * The spec words both in terms of reCAPTCHA; they apply unchanged to the self-hosted ALTCHA check.
 */
export const CAPTCHA_MESSAGES = {
  /** No token was submitted (reason 'missing'). */
  missing: "Please complete the reCAPTCHA verification",
  /** A token was submitted but did not verify: wrong, expired, reused or unverifiable (reason 'invalid'). */
  invalid: "Please try the reCAPTCHA again",
} as const;

export const CAPTCHA_MISSING_MESSAGE = CAPTCHA_MESSAGES.missing;
export const CAPTCHA_INVALID_MESSAGE = CAPTCHA_MESSAGES.invalid;

/** The form field the captcha component submits its token under (both providers). */
export const CAPTCHA_FIELD_NAME = "captcha";

/** What the browser needs to show the captcha (from getCaptchaConfigForBrowser() in a loader). */
export type CaptchaBrowserConfig =
  | { provider: "altcha"; challengeUrl: string }
  | { provider: "recaptcha"; siteKey: string };
