import http from "node:http";

/**
 * The plain-HTTP listener of a server that terminates TLS itself: every request is answered with a
 * redirect to the same path on PUBLIC_URL, so the first hop from http:// goes to https:// on the same
 * host (where HSTS can take over). The target host comes from PUBLIC_URL, never from the Host header,
 * so a forged Host cannot turn this into an open redirect.
 */
export function createHttpsRedirectServer(publicUrl: string): http.Server {
  const origin = new URL(publicUrl).origin;
  const server = http.createServer((req, res) => {
    const target = req.url?.startsWith("/") ? req.url : "/";
    // 308 keeps a form post a post; GET and HEAD use the long-understood 301.
    res.statusCode = req.method === "GET" || req.method === "HEAD" ? 301 : 308;
    // String concatenation, not new URL(path, origin): a path like //evil.example must stay on our host.
    res.setHeader("Location", origin + target);
    res.setHeader("Cache-Control", "no-store");
    res.setHeader("Content-Length", "0");
    res.setHeader("Connection", "close");
    res.end();
  });
  server.keepAliveTimeout = 5000;
  return server;
}
