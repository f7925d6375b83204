/** What the /auth action answers to the page when it does not redirect (shared by route and UI). */
export const AUTH_INTENTS = ["send-code", "sign-up", "sign-in", "reset-request", "reset-password"] as const;
export type AuthIntent = (typeof AUTH_INTENTS)[number];

export type AuthActionData = {
  intent: AuthIntent;
  ok: boolean;
  toast: { type: "success" | "error" | "info"; title: string; description?: string };
  /** Per-field messages from the form's schema (the same messages the browser shows itself). */
  fieldErrors?: Record<string, string[]>;
  /** The captcha was spent or refused: the page must show a new challenge. */
  resetCaptcha?: boolean;
};
