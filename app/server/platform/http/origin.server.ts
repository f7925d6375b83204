import { data } from "react-router";
import { getConfig } from "~/server/platform/config.server";

/**
 * Cross-site request forgery guard for our own actions. Browsers send Origin (and Sec-Fetch-Site) on
 * every cross-origin POST; a post whose origin is neither ours nor PUBLIC_URL's is refused with 403.
 * Some privacy tools strip Origin but keep a Referer, so without an Origin a foreign Referer is refused
 * too. Requests with none of these headers come from non-browser clients, which carry no ambient
 * cookies to abuse.
 */
export function assertSameOrigin(request: Request): void {
  const allowed = new Set([new URL(request.url).origin, new URL(getConfig().publicUrl).origin]);
  const origin = request.headers.get("origin");
  const site = request.headers.get("sec-fetch-site");
  const referer = request.headers.get("referer");
  const badOrigin = origin !== null && !allowed.has(origin);
  const badSite = site !== null && site !== "same-origin" && site !== "none";
  const badReferer = origin === null && referer !== null && !allowed.has(originOf(referer));
  if (badOrigin || badSite || badReferer) {
    throw data({ ok: false, message: "Cross-origin requests are not allowed." }, { status: 403 });
  }
}

/** The origin of a URL, or "null" (never allowed) when it is not one. */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "null";
  }
}
