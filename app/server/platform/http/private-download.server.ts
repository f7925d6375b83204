/**
 * Headers for a private file download (a signed agreement, a payoff letter, a statement): an
 * attachment that no cache keeps, that no browser sniffs or renders inline as a page, and that no other
 * site can embed or fetch.
 */
export function privateDownloadHeaders(fileName: string, size: number, contentType = "application/pdf"): Headers {
  return new Headers({
    "Content-Type": contentType,
    "Content-Length": String(size),
    "Content-Disposition": `attachment; filename="${fileName}"`,
    "Cache-Control": "no-store, private",
    Pragma: "no-cache",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; sandbox; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Resource-Policy": "same-origin",
  });
}
