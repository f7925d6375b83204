import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { encodeDocument } from "../../server/document-encoding";

const page = Buffer.from(`<!DOCTYPE html><html><body>${"<p>Loan application for Jane Doe, $25,000</p>".repeat(200)}</body></html>`);

describe("encodeDocument", () => {
  it("sends brotli when the browser takes it, and the bytes come back unchanged", () => {
    const out = encodeDocument(page, "gzip, deflate, br");
    expect(out.encoding).toBe("br");
    expect(out.body.length).toBeLessThan(page.length / 5);
    expect(zlib.brotliDecompressSync(out.body).equals(page)).toBe(true);
  });

  it("falls back to gzip, then to the plain bytes", () => {
    const gz = encodeDocument(page, "gzip;q=1.0, identity");
    expect(gz.encoding).toBe("gzip");
    expect(zlib.gunzipSync(gz.body).equals(page)).toBe(true);
    expect(encodeDocument(page, undefined)).toEqual({ body: page, encoding: null });
    expect(encodeDocument(page, "br;q=0, gzip;q=0")).toEqual({ body: page, encoding: null });
  });

  it("leaves a tiny document alone", () => {
    const tiny = Buffer.from("<p>ok</p>");
    expect(encodeDocument(tiny, "br")).toEqual({ body: tiny, encoding: null });
  });
});
