import { randomBytes } from "node:crypto";

/** 128 bits of randomness per response; base64 is the format CSP nonces are written in. */
export function createNonce(): string {
  return randomBytes(16).toString("base64");
}

/** Extra hosts a configured third party needs (reCAPTCHA mode only; empty by default). */
export type ExtraCspSources = { scriptSrc: string[]; frameSrc: string[]; connectSrc: string[] };

/**
 * Inline scripts are allowed by this response's nonce, or — for a page served from the public page
 * cache, whose bytes are the same for every visitor — by the SHA-256 hashes of exactly its scripts.
 */
export type ScriptPermit = { nonce: string } | { hashes: readonly string[] };

export type SecurityHeaderOptions = ScriptPermit & { secure: boolean; dev?: boolean; extra?: ExtraCspSources };

/**
 * The headers every response carries. The CSP is enforced (not report-only) and allows scripts only
 * from our origin or inline ones carrying this response's nonce or hash: no 'unsafe-inline' for scripts.
 */
export function securityHeaders(options: SecurityHeaderOptions): Record<string, string> {
  const { secure, dev = false, extra } = options;
  const more = (list: readonly string[] | undefined) => (list?.length ? ` ${list.join(" ")}` : "");
  const inline = "nonce" in options ? [`'nonce-${options.nonce}'`] : options.hashes.map((hash) => `'sha256-${hash}'`);
  const csp = [
    "default-src 'self'",
    `script-src 'self'${more(inline)}${more(extra?.scriptSrc)}`,
    // Inline style attributes (React style props, Radix positioning) need this; scripts never do.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self'${dev ? " ws: wss:" : ""}${more(extra?.connectSrc)}`,
    "media-src 'self'",
    "worker-src 'self' blob:",
    `frame-src 'self'${more(extra?.frameSrc)}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "manifest-src 'self'",
    ...(secure ? ["upgrade-insecure-requests"] : []),
  ].join("; ");

  const headers: Record<string, string> = {
    "Content-Security-Policy": csp,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Permissions-Policy":
      "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=(), interest-cohort=()",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "X-Permitted-Cross-Domain-Policies": "none",
  };
  if (secure) headers["Strict-Transport-Security"] = "max-age=63072000; includeSubDomains";
  return headers;
}
