/**
 * Redirect targets that come from a request (`?redirectTo=`, a hidden form field) may only lead to a
 * page of this site. A prefix check is not enough: browsers drop tab, CR and LF anywhere in a URL and
 * read a backslash as a slash, so `/\t/evil.example` or `/\evil.example` become `//evil.example`, which
 * is another host. Characters outside Latin-1 or line breaks in a Location header make Node throw
 * (a 500). So the target is parsed as the browser would parse it against our own origin, and only its
 * normalised, percent-encoded path (plus query and fragment) is returned; anything else is `fallback`.
 */

/** A placeholder origin: only "is the result on the same origin" matters, not which one it is. */
const OWN_ORIGIN = "https://own-origin.invalid";
/** Longer targets are not links anyone follows; they only make headers and logs large. */
export const MAX_REDIRECT_LENGTH = 2048;
/** Controls, spaces of any kind (browsers strip or normalise some), and backslashes. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u0020\u007f-\u00a0\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff\\]/u;

export function safeRedirectPath(target: string | null | undefined, fallback = "/dashboard"): string {
  if (typeof target !== "string" || target.length === 0 || target.length > MAX_REDIRECT_LENGTH) return fallback;
  if (UNSAFE.test(target) || !target.startsWith("/") || target.startsWith("//")) return fallback;
  let url: URL;
  try {
    url = new URL(target, OWN_ORIGIN);
  } catch {
    return fallback;
  }
  if (url.origin !== OWN_ORIGIN) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // The serialised form is percent-encoded ASCII: always a valid header value. Checked again after
  // normalisation, since dot segments can turn `/./` prefixes into something else.
  if (!path.startsWith("/") || path.startsWith("//") || !/^[\x21-\x7e]+$/.test(path)) return fallback;
  return path;
}
