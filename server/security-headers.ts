import { randomBytes } from "node:crypto";

/** 128 bits of randomness per response; base64 is the format CSP nonces are written in. */
export function createNonce(): string {
  return randomBytes(16).toString("base64");
}

/** Extra hosts a configured third party needs (reCAPTCHA mode only; empty by default). */
export type ExtraCspSources = { scriptSrc: string[]; frameSrc: string[]; connectSrc: string[] };

export type SecurityHeaderOptions = { nonce: string; secure: boolean; dev?: boolean; extra?: ExtraCspSources };

/**
 * The headers every response carries. The CSP is enforced (not report-only) and allows scripts only
 * from our origin or carrying this response's nonce: no 'unsafe-inline' for scripts.
 */
export function securityHeaders({ nonce, secure, dev = false, extra }: SecurityHeaderOptions): Record<string, string> {
  const more = (list: string[] | undefined) => (list?.length ? ` ${list.join(" ")}` : "");
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'${more(extra?.scriptSrc)}`,
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
