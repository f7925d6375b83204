import type { AccountSecurityActionData, PasskeyActionData } from "~/domain/validation/account-security";

/**
 * The browser's half of the passkey ceremonies: ask the server for options, hand them to the
 * authenticator through @simplewebauthn/browser, post its answer back. Loaded only when a passkey
 * button is pressed (a dynamic import), and it loads the WebAuthn library the same way: public pages
 * carry none of it.
 */

export type CeremonyResult = { ok: true; redirectTo?: string } | { ok: false; message: string };

const CANCELLED = "The passkey request was cancelled or timed out. Please try again.";
const UNSUPPORTED = "This browser cannot use passkeys. Sign in with your password instead.";

async function post<T>(path: string, fields: Record<string, string>): Promise<T> {
  const response = await fetch(path, { method: "POST", body: new URLSearchParams(fields), credentials: "same-origin" });
  const type = response.headers.get("content-type") ?? "";
  if (!type.includes("json")) return { ok: false, message: "Something went wrong. Please try again." } as T;
  return (await response.json()) as T;
}

/** Why the browser's WebAuthn call failed, in words (a cancel is the usual one). */
function browserFailure(error: unknown): string {
  const name = error instanceof Error ? error.name : "";
  if (name === "NotAllowedError" || name === "AbortError") return CANCELLED;
  if (name === "InvalidStateError") return "This passkey is already registered.";
  return error instanceof Error && error.message ? error.message : CANCELLED;
}

/** Sign In with a Passkey, or a passkey as this session's second factor (/auth/passkey). */
export async function passkeyAuthenticate(kind: "sign-in" | "second-factor", redirectTo: string): Promise<CeremonyResult> {
  const { browserSupportsWebAuthn, startAuthentication } = await import("@simplewebauthn/browser");
  if (!browserSupportsWebAuthn()) return { ok: false, message: UNSUPPORTED };
  const options = await post<PasskeyActionData>("/auth/passkey", { intent: `${kind}-options` });
  if (!options.ok) return options;
  let credential: unknown;
  try {
    credential = await startAuthentication({ optionsJSON: options.options as Parameters<typeof startAuthentication>[0]["optionsJSON"] });
  } catch (error) {
    return { ok: false, message: browserFailure(error) };
  }
  const answer = await post<PasskeyActionData>("/auth/passkey", { intent: kind, credential: JSON.stringify(credential), redirectTo });
  return answer.ok ? { ok: true, redirectTo: answer.redirectTo } : answer;
}

/**
 * Add Passkey on /account: creation options (after the fresh proof: the password, or a current code),
 * the authenticator, then the named credential.
 */
export async function passkeyRegister(name: string, proof: { password: string; code: string }): Promise<AccountSecurityActionData> {
  const failed = (message: string): AccountSecurityActionData => ({
    ok: false,
    intent: "passkey-add",
    toast: { type: "error", title: "Could not add the passkey", description: message },
    at: Date.now(),
  });
  const { browserSupportsWebAuthn, startRegistration } = await import("@simplewebauthn/browser");
  if (!browserSupportsWebAuthn()) return failed(UNSUPPORTED);
  const options = await post<AccountSecurityActionData>("/account/security", { intent: "passkey-options", password: proof.password, code: proof.code });
  if (!options.ok) return options;
  let credential: unknown;
  try {
    credential = await startRegistration({ optionsJSON: options.options as Parameters<typeof startRegistration>[0]["optionsJSON"] });
  } catch (error) {
    return failed(browserFailure(error));
  }
  return post<AccountSecurityActionData>("/account/security", { intent: "passkey-add", name, credential: JSON.stringify(credential) });
}
