/**
 * Whether a request comes from this machine itself, for the development-only pages (/dev/mailbox).
 * The address is the load context's client IP: the socket's, or the trusted proxy's X-Forwarded-For
 * entry when TRUST_PROXY is on.
 */

/** 127.0.0.0/8, ::1, and IPv4 loopback written as an IPv4-mapped IPv6 address (::ffff:127.x.y.z). */
export function isLoopbackAddress(address: string): boolean {
  const ip = address.trim().toLowerCase();
  if (ip === "::1" || ip === "0:0:0:0:0:0:0:1") return true;
  const v4 = ip.startsWith("::ffff:") ? ip.slice("::ffff:".length) : ip;
  const parts = v4.split(".");
  return parts.length === 4 && parts[0] === "127" && parts.every((part) => /^\d{1,3}$/.test(part) && Number(part) <= 255);
}

const FORWARDING_HEADERS = ["x-forwarded-for", "forwarded", "x-real-ip"];

/**
 * A loopback client that is really on this machine. Without TRUST_PROXY a reverse proxy on the same
 * host makes every visitor look like 127.0.0.1; the headers such a proxy adds give it away, so a
 * request carrying them is not taken for a local one.
 */
export function isLocalRequest(request: Request, clientIp: string, trustProxy: boolean): boolean {
  if (!isLoopbackAddress(clientIp)) return false;
  return trustProxy || FORWARDING_HEADERS.every((name) => !request.headers.has(name));
}
