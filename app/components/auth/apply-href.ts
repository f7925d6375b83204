import { useRouteLoaderData } from "react-router";
import type { loader as rootLoader } from "~/root";

/** Apply Now for a signed-out visitor: sign in (or create an account), then on to the application. */
export const SIGNED_OUT_APPLY_HREF = "/auth?redirectTo=/apply";

/**
 * Where an Apply Now link leads. `to` is the spec's target for signed-out visitors: /auth (then /apply
 * after signing in) or /apply. A signed-in visitor goes straight to /apply. Pages with cookies are
 * rendered per request with the root loader's user already read, and the cached anonymous pages have no
 * user: the link costs no extra work either way.
 */
export function useApplyHref(to: "/auth" | "/apply" = "/auth"): string {
  const signedIn = Boolean(useRouteLoaderData<typeof rootLoader>("root")?.user);
  if (signedIn) return "/apply";
  return to === "/auth" ? SIGNED_OUT_APPLY_HREF : to;
}
