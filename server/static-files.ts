import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import serveStatic from "serve-static";

/**
 * Built browser assets. Files under /assets/ carry a content hash in their name, so they can be
 * cached for a year; anything else (favicon, robots.txt) for an hour.
 */
export function createStaticHandler(clientDir: string) {
  const serve = serveStatic(clientDir, {
    index: false,
    redirect: false,
    dotfiles: "ignore",
    setHeaders(res, filePath) {
      const relative = path.relative(clientDir, filePath).split(path.sep).join("/");
      res.setHeader(
        "Cache-Control",
        relative.startsWith("assets/") ? "public, max-age=31536000, immutable" : "public, max-age=3600",
      );
    },
  });
  return (req: IncomingMessage, res: ServerResponse, next: () => void) => serve(req, res, next);
}
