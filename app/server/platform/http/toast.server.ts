import { createCookie, data, redirect, type Cookie } from "react-router";
import { z } from "zod";
import { getConfig } from "~/server/platform/config.server";

/**
 * One-time toasts across redirects (the Epic Stack pattern): an action or loader sets a short-lived,
 * signed, httpOnly cookie; the root loader reads it, clears it and hands the toast to the page, which
 * shows it once with sonner. Keep personal data out of toasts: the cookie is signed, not encrypted.
 */

export const toastSchema = z.object({
  type: z.enum(["success", "error", "info"]),
  title: z.string().min(1).max(200),
  description: z.string().max(1000).optional(),
  /** Lets the browser show a given toast once even if the effect runs twice. */
  id: z.string().max(64).optional(),
});

export type Toast = z.infer<typeof toastSchema>;
export type ToastInput = Omit<Toast, "id">;

/** ResponseInit plus, preferably, the request: its scheme decides the cookie's Secure flag. */
export type ToastInit = ResponseInit & { request?: Request };

const COOKIE_NAME = "pl_toast";

let cookie: { secret: string; cookie: Cookie } | undefined;

function toastCookie(): Cookie {
  const { appSecret } = getConfig();
  if (cookie?.secret !== appSecret) {
    cookie = {
      secret: appSecret,
      cookie: createCookie(COOKIE_NAME, {
        httpOnly: true,
        sameSite: "lax",
        path: "/",
        // A toast is meant for the very next page; a stale one is useless.
        maxAge: 60,
        secrets: [appSecret],
      }),
    };
  }
  return cookie.cookie;
}

/**
 * Whether the request reached us over HTTPS. server/fetch-bridge.ts builds the request URL with the
 * https scheme when it did (directly, or through a trusted proxy with TRUST_PROXY)
 * (overwriting any client copy), honouring TRUST_PROXY; without a request, PUBLIC_URL decides.
 */
function isSecure(request: Request | undefined): boolean {
  if (!request) return getConfig().publicUrl.startsWith("https:");
  return new URL(request.url).protocol === "https:";
}

function mergeHeaders(...sources: (HeadersInit | null | undefined)[]): Headers {
  const merged = new Headers();
  for (const source of sources) {
    if (!source) continue;
    new Headers(source).forEach((value, key) => merged.append(key, value));
  }
  return merged;
}

/** The Set-Cookie header that carries `toast` to the next page. */
export async function createToastHeaders(toast: ToastInput, request?: Request): Promise<Headers> {
  const value = toastSchema.parse({ ...toast, id: crypto.randomUUID() });
  return new Headers({ "Set-Cookie": await toastCookie().serialize(value, { secure: isSecure(request) }) });
}

/**
 * Redirects and shows `toast` on the page redirected to. The browser router re-runs every loader
 * after a redirect that sets a cookie (X-Remix-Revalidate says so explicitly), so even a redirect
 * thrown by a loader during a client-side navigation reaches the root loader, which shows the toast.
 */
export async function redirectWithToast(url: string, toast: ToastInput, init: ToastInit = {}): Promise<Response> {
  const { request, ...responseInit } = init;
  return redirect(url, {
    ...responseInit,
    headers: mergeHeaders(responseInit.headers, await createToastHeaders(toast, request), {
      "X-Remix-Revalidate": "yes",
    }),
  });
}

/** Returns `value` (an action's result) and shows `toast` once the page revalidates. */
export async function dataWithToast<T>(value: T, toast: ToastInput, init: ToastInit = {}) {
  const { request, ...responseInit } = init;
  return data(value, {
    ...responseInit,
    headers: mergeHeaders(responseInit.headers, await createToastHeaders(toast, request)),
  });
}

/**
 * Reads and clears the toast cookie. `headers` (possibly empty) must be sent with the response; a
 * cookie that is unsigned, tampered with or malformed is ignored and cleared.
 */
export async function getToast(request: Request): Promise<{ toast: Toast | null; headers: Headers }> {
  const header = request.headers.get("Cookie");
  const headers = new Headers();
  if (!header || !header.includes(`${COOKIE_NAME}=`)) return { toast: null, headers };
  const c = toastCookie();
  const raw: unknown = await c.parse(header).catch(() => null);
  const parsed = toastSchema.safeParse(raw);
  headers.append("Set-Cookie", await c.serialize("", { maxAge: 0, expires: new Date(0), secure: isSecure(request) }));
  return { toast: parsed.success ? parsed.data : null, headers };
}
