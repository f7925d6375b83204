import { createHmac, timingSafeEqual } from "node:crypto";
import { getConfig } from "~/server/platform/config.server";

/**
 * Short-lived document links for admins (docs/requirements.md §8 "a signed URL valid 60 seconds", §9).
 *
 *   /api/documents/file?d=<documentId>&exp=<unix seconds>&disposition=inline|attachment&sig=<HMAC>
 *
 * sig = base64url(HMAC-SHA256(K, "<documentId>|<exp>|<disposition>|<adminUserId>")), where K is
 * derived from APP_SECRET with a purpose label, so the key is used for nothing else. A link is bound
 * to its document, its expiry, its disposition and the admin who asked for it: changing any of them
 * (or presenting it as another user) fails the signature check. The file route still requires an
 * admin session with a verified second factor on every request; the link only narrows that.
 */

export const SIGNED_LINK_TTL_SECONDS = 60;
export const DOCUMENT_FILE_PATH = "/api/documents/file";
export const LINK_DISPOSITIONS = ["inline", "attachment"] as const;
export type LinkDisposition = (typeof LINK_DISPOSITIONS)[number];

const KEY_LABEL = "private-loans/document-links/v1";
/** A little clock skew between instances is tolerated for links from "the future", no more. */
const MAX_FUTURE_SKEW_SECONDS = 5;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SIG = /^[A-Za-z0-9_-]{43}$/;

export type LinkOptions = {
  /** Milliseconds since the epoch (tests inject the clock). */
  now?: number;
  /** The application secret (tests); getConfig().appSecret by default. */
  secret?: string;
};

export type SignedLink = {
  url: string;
  documentId: string;
  disposition: LinkDisposition;
  /** Unix seconds. */
  exp: number;
  expiresAt: string;
};

export type LinkCheck =
  | { ok: true; documentId: string; disposition: LinkDisposition; exp: number }
  | { ok: false; reason: "malformed" | "signature" | "expired" };

const keys = new Map<string, Buffer>();

function linkKey(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) {
    key = createHmac("sha256", secret).update(KEY_LABEL, "utf8").digest();
    keys.clear();
    keys.set(secret, key);
  }
  return key;
}

function signature(documentId: string, exp: number, disposition: LinkDisposition, adminUserId: string, secret: string): string {
  return createHmac("sha256", linkKey(secret))
    .update(`${documentId.toLowerCase()}|${exp}|${disposition}|${adminUserId}`, "utf8")
    .digest("base64url");
}

export function isLinkDisposition(value: unknown): value is LinkDisposition {
  return typeof value === "string" && (LINK_DISPOSITIONS as readonly string[]).includes(value);
}

/**
 * A link for `adminUserId` to `documentId`, valid SIGNED_LINK_TTL_SECONDS from now. An applicant's
 * own-document link passes a reader id with its own prefix and its own `path` (see
 * server/applications/own-documents.server.ts), so an admin's link never verifies there, nor theirs here.
 */
export function signDocumentLink(
  input: { documentId: string; disposition: LinkDisposition; adminUserId: string; path?: string },
  options: LinkOptions = {},
): SignedLink {
  if (!UUID.test(input.documentId)) throw new Error("signDocumentLink: documentId must be a UUID");
  if (!input.adminUserId) throw new Error("signDocumentLink: adminUserId is required");
  const secret = options.secret ?? getConfig().appSecret;
  const exp = Math.floor((options.now ?? Date.now()) / 1000) + SIGNED_LINK_TTL_SECONDS;
  const documentId = input.documentId.toLowerCase();
  const sig = signature(documentId, exp, input.disposition, input.adminUserId, secret);
  const query = new URLSearchParams({ d: documentId, exp: String(exp), disposition: input.disposition, sig });
  return {
    url: `${input.path ?? DOCUMENT_FILE_PATH}?${query.toString()}`,
    documentId,
    disposition: input.disposition,
    exp,
    expiresAt: new Date(exp * 1000).toISOString(),
  };
}

/**
 * Checks a link's query for `adminUserId`: well-formed, signed by us for this admin (constant-time
 * comparison), and not expired. The signature is checked before the expiry, so an altered expiry is
 * a signature failure.
 */
export function verifyDocumentLink(params: URLSearchParams, adminUserId: string, options: LinkOptions = {}): LinkCheck {
  const documentId = params.get("d") ?? "";
  const expText = params.get("exp") ?? "";
  const disposition = params.get("disposition");
  const sig = params.get("sig") ?? "";
  if (!UUID.test(documentId) || !/^\d{1,12}$/.test(expText) || !isLinkDisposition(disposition) || !SIG.test(sig) || !adminUserId) {
    return { ok: false, reason: "malformed" };
  }
  const exp = Number(expText);
  const secret = options.secret ?? getConfig().appSecret;
  const expected = Buffer.from(signature(documentId.toLowerCase(), exp, disposition, adminUserId, secret), "utf8");
  const given = Buffer.from(sig, "utf8");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: "signature" };
  const nowSeconds = (options.now ?? Date.now()) / 1000;
  if (nowSeconds > exp || exp > nowSeconds + SIGNED_LINK_TTL_SECONDS + MAX_FUTURE_SKEW_SECONDS) {
    return { ok: false, reason: "expired" };
  }
  return { ok: true, documentId: documentId.toLowerCase(), disposition, exp };
}
