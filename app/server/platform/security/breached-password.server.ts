import { createHash } from "node:crypto";
import { getConfig } from "~/server/platform/config.server";

/**
 * The breached-password check (docs/requirements.md §6, §8): one GET to a k-anonymity range API (Have I Been
 * Pwned's by default) with the first 5 hex characters of the password's SHA-1 and the Add-Padding
 * header, so neither the password nor its full hash, nor the real size of the answer, leaves the server.
 *
 * It fails open on purpose: a timeout, a network error or a bad answer gives 'unavailable' and the
 * caller accepts the password (the spec says so). Better Auth's haveIBeenPwned plugin fails closed,
 * which is why this lives here.
 */

export type BreachedPasswordResult =
  | { status: "breached"; count: number }
  | { status: "clean" }
  | { status: "unavailable"; reason: string };

export type BreachedPasswordOptions = {
  /** Base URL; the 5-character prefix is appended. null or "" (or "off") disables the check. */
  url?: string | null;
  timeoutMs?: number;
  fetch?: typeof fetch;
};

/** Upper-case hex SHA-1, split into the 5 characters sent and the 35 kept. */
export function passwordHashParts(password: string): { prefix: string; suffix: string } {
  const hash = createHash("sha1").update(password, "utf8").digest("hex").toUpperCase();
  return { prefix: hash.slice(0, 5), suffix: hash.slice(5) };
}

/** Finds `suffix` in a range answer (`SUFFIX:COUNT` per line); padding lines have count 0. */
export function countInRange(body: string, suffix: string): number {
  const wanted = suffix.toUpperCase();
  for (const raw of body.split("\n")) {
    const line = raw.trim();
    const colon = line.indexOf(":");
    if (colon < 0 || line.slice(0, colon).toUpperCase() !== wanted) continue;
    const count = Number.parseInt(line.slice(colon + 1).replace(/,/g, ""), 10);
    return Number.isFinite(count) && count > 0 ? count : 0;
  }
  return 0;
}

export async function checkBreachedPassword(
  password: string,
  options: BreachedPasswordOptions = {},
): Promise<BreachedPasswordResult> {
  let url = options.url;
  let timeoutMs = options.timeoutMs;
  if (url === undefined || timeoutMs === undefined) {
    const config = getConfig();
    if (url === undefined) url = config.pwnedPasswordsUrl;
    if (timeoutMs === undefined) timeoutMs = config.pwnedTimeoutMs;
  }
  if (!url || url.trim() === "" || url.trim().toLowerCase() === "off") return { status: "unavailable", reason: "disabled" };

  const { prefix, suffix } = passwordHashParts(password);
  const doFetch = options.fetch ?? fetch;
  // One signal covers connecting, the headers and the body: a server that trickles its answer times out too.
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await doFetch(`${url}${prefix}`, {
      method: "GET",
      headers: { "Add-Padding": "true", Accept: "text/plain", "User-Agent": "private-loans-portal" },
      signal,
      redirect: "error",
    });
    if (response.status !== 200) {
      await response.body?.cancel().catch(() => undefined);
      return { status: "unavailable", reason: `HTTP ${response.status}` };
    }
    const body = await response.text();
    const count = countInRange(body, suffix);
    return count > 0 ? { status: "breached", count } : { status: "clean" };
  } catch (error) {
    const e = error as Error;
    const timedOut = signal.aborted || e.name === "TimeoutError" || e.name === "AbortError";
    return { status: "unavailable", reason: timedOut ? `timeout after ${timeoutMs} ms` : `network error: ${e.message}` };
  }
}

/** The 'Compromised Password' toast's text (docs/requirements.md §6: says how many times it was seen). */
export function breachedPasswordMessage(count: number): string {
  const times = count === 1 ? "1 data breach" : `${count.toLocaleString("en-US")} data breaches`;
  return `This password has appeared in ${times}. Please choose a different password.`;
}

export const BREACHED_PASSWORD_TITLE = "Compromised Password";
