import { z } from "zod";
import type { AuthActionData, AuthIntent } from "~/domain/auth-action";
import {
  authProblemTitle,
  resetLinkSchema,
  resetPasswordSchema,
  resetRequestSchema,
  sendCodeSchema,
  signInSchema,
  signUpSchema,
} from "~/domain/validation/auth";
import { issuesToFieldErrors } from "~/domain/validation/field-errors";
import { readActionForm, type ServiceAnswer } from "~/server/platform/http/action-answer.server";
import { captchaTokenFromForm } from "~/server/platform/security/captcha.server";

/** Reads and validates one /auth form post with the same schema the page uses. */

const schemas = {
  "send-code": sendCodeSchema,
  "sign-up": signUpSchema,
  "sign-in": signInSchema,
  "reset-request": resetRequestSchema,
  "reset-password": resetPasswordSchema,
  "check-reset-link": resetLinkSchema,
} as const;

type Values = { [K in AuthIntent]: z.output<(typeof schemas)[K]> };
export type ParsedAuthForm =
  | { [K in AuthIntent]: { ok: true; intent: K; value: Values[K]; captcha: string | null; redirectTo: string | null } }[AuthIntent]
  | { ok: false; answer: ServiceAnswer<AuthActionData> };

export function authFormError(intent: AuthIntent, title: string, description: string, fieldErrors?: AuthActionData["fieldErrors"]): AuthActionData {
  return { intent, ok: false, toast: { type: "error", title, description }, fieldErrors };
}

export async function parseAuthForm(request: Request): Promise<ParsedAuthForm> {
  const read = await readActionForm(request, (message) => authFormError("sign-in", "Error", message));
  if (!read.ok) return read;
  const form = read.form;
  const intent = form.get("intent");
  // An own key only: "toString" or "constructor" is in every object through its prototype.
  if (typeof intent !== "string" || !Object.hasOwn(schemas, intent)) {
    return { ok: false, answer: { status: 400, body: authFormError("sign-in", "Error", "Unknown action.") } };
  }
  const key = intent as AuthIntent;
  const raw: Record<string, unknown> = {};
  for (const [name, value] of form) if (typeof value === "string") raw[name] = value;
  const result = schemas[key].safeParse(raw);
  if (!result.success) {
    const first = result.error.issues[0]!.message;
    return { ok: false, answer: { status: 400, body: authFormError(key, authProblemTitle(key, first), first, issuesToFieldErrors(result.error)) } };
  }
  const captchaValue = captchaTokenFromForm(form);
  const redirectTo = form.get("redirectTo");
  return {
    ok: true,
    intent: key,
    value: result.data,
    captcha: captchaValue,
    redirectTo: typeof redirectTo === "string" ? redirectTo : null,
  } as ParsedAuthForm;
}
