import type http from "node:http";

/** Who is asking, and over what: read from the socket, or from a trusted proxy's headers. */

export function clientIp(req: http.IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = req.headers["x-forwarded-for"];
    // The right-most address is the one our proxy added; anything left of it came from the client,
    // which could otherwise pick its own IP to dodge throttles or forge the audit log.
    const header = Array.isArray(forwarded) ? forwarded.join(",") : forwarded;
    const last = header?.split(",").map((part) => part.trim()).filter(Boolean).at(-1);
    if (last) return last;
  }
  return req.socket.remoteAddress ?? "unknown";
}

export function isSecure(req: http.IncomingMessage, trustProxy: boolean): boolean {
  if ((req.socket as { encrypted?: boolean }).encrypted) return true;
  return trustProxy && String(req.headers["x-forwarded-proto"] ?? "").split(",")[0]?.trim() === "https";
}
