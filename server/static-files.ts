import fs from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import serveStatic from "serve-static";

/**
 * Built browser assets. Files under /assets/ carry a content hash in their name, so they can be
 * cached for a year; anything else (favicon, robots.txt) for an hour.
 *
 * The build does not change while the server runs, so its file list is read once: a page request is
 * handed on at once instead of costing a file-system lookup (it was a tenth of a signed-in page's time).
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
  const files = listFiles(clientDir);
  return (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const pathname = (req.url ?? "/").split("?")[0]!;
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return next();
    }
    if (!files.has(decoded)) return next();
    serve(req, res, next);
  };
}

/** Every file under `root` as a URL path ("/assets/app-x.js"), dot-files left out as serve-static does. */
function listFiles(root: string): Set<string> {
  const found = new Set<string>();
  const visit = (dir: string, prefix: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.name.startsWith(".")) continue;
      const urlPath = `${prefix}/${entry.name}`;
      if (entry.isDirectory()) visit(path.join(dir, entry.name), urlPath);
      else if (entry.isFile()) found.add(urlPath);
    }
  };
  visit(root, "");
  return found;
}
