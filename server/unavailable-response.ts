import type { IncomingMessage, ServerResponse } from "node:http";
import { DATABASE_UNAVAILABLE_MESSAGE } from "~/server/platform/db/unavailable.server";

/**
 * The answer while the database is unreachable: 503 with Retry-After, the same short message for
 * people and programs, nothing about the cause. A self-contained page (no scripts, no data, inline
 * styles are not needed) because rendering the app's layout needs the database it is missing.
 */

const RETRY_AFTER_SECONDS = "5";

function wantsJson(req: IncomingMessage): boolean {
  const url = req.url ?? "/";
  if (url.startsWith("/api/") || /\.data(\?|$)/.test(url)) return true;
  const accept = String(req.headers.accept ?? "");
  return accept.includes("application/json") && !accept.includes("text/html");
}

const page = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Service temporarily unavailable | Private Loans</title></head>
<body>
<main>
<h1>Service temporarily unavailable</h1>
<p>${DATABASE_UNAVAILABLE_MESSAGE}</p>
<p><a href="/">Home</a></p>
</main>
</body>
</html>
`;

export function sendUnavailable(req: IncomingMessage, res: ServerResponse): void {
  res.statusCode = 503;
  res.setHeader("Retry-After", RETRY_AFTER_SECONDS);
  res.setHeader("Cache-Control", "no-store");
  if (wantsJson(req)) {
    res.setHeader("Content-Type", "application/json; charset=utf-8");
    res.end(JSON.stringify({ ok: false, message: DATABASE_UNAVAILABLE_MESSAGE }));
    return;
  }
  res.setHeader("Content-Type", "text/html; charset=utf-8");
  res.end(req.method === "HEAD" ? undefined : page);
}
