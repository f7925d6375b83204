import type { ActionResult, Toast } from "./action-result";

/** What the /auth action answers to the page when it does not redirect (shared by route and UI). */
export const AUTH_INTENTS = ["send-code", "sign-up", "sign-in", "reset-request", "reset-password", "check-reset-link"] as const;
export type AuthIntent = (typeof AUTH_INTENTS)[number];

/** fieldErrors: the form schema's messages (the same messages the browser shows itself). */
export type AuthActionData = ActionResult<{
  intent: AuthIntent;
  toast: Toast;
  /** The captcha was spent or refused: the page must show a new challenge. */
  resetCaptcha?: boolean;
}>;
