import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { inspectUpload, latin1Windows } from "~/domain/upload-rules";

/**
 * The content rules read a file in overlapping windows (to keep a 5 MB upload from becoming a 5 MB
 * string). A pattern a whole-file scan finds must still be found wherever it sits: across a window's
 * edge, or as `onerror` followed by a run of spaces longer than a window.
 */

const WINDOW = 64 * 1024;

/** A PDF of `size` bytes of harmless filler, with `inserts` written at the given offsets. */
function pdfWith(size: number, inserts: { at: number; text: string }[]): Buffer {
  const buf = Buffer.alloc(size, "x");
  buf.write("%PDF-1.7\n", 0, "latin1");
  for (const { at, text } of inserts) buf.write(text, Math.min(Math.max(16, at), size - 16 - text.length), "latin1");
  buf.write("\n%%EOF\n", size - 7, "latin1");
  return buf;
}

const inspect = (bytes: Buffer) => inspectUpload({ filename: "statement.pdf", declaredType: "application/pdf", bytes }, ["application/pdf"]);

describe("upload content scan in windows", () => {
  it("finds markup and PDF actions at every offset around a window's edge", () => {
    for (const text of ["<script>", "javascript:", " onload=", "/JavaScript ", "/Launch<<", "<svg/"]) {
      for (let shift = -20; shift <= 20; shift++) {
        const verdict = inspect(pdfWith(3 * WINDOW, [{ at: WINDOW + shift, text }]));
        expect(verdict.ok, `${text} at the edge ${shift}`).toBe(false);
      }
    }
  });

  it("finds `onerror =` with more spaces between them than a window holds", () => {
    const spaces = " ".repeat(2 * WINDOW + 17);
    for (const at of [WINDOW - 10, WINDOW - 3, WINDOW + 5]) {
      const verdict = inspect(pdfWith(4 * WINDOW + 1000, [{ at, text: ` onerror${spaces}=` }]));
      expect(verdict).toEqual({ ok: false, reason: "markup" });
    }
  });

  it("accepts a clean large file and covers every byte", () => {
    const clean = pdfWith(5 * WINDOW + 123, []);
    expect(inspect(clean)).toEqual({ ok: true, type: { mime: "application/pdf", ext: "pdf" } });
    const windows = [...latin1Windows(clean)];
    expect(windows.length).toBe(6);
    expect(windows.every((w) => w.length <= WINDOW + 128)).toBe(true);
  });

  it("agrees with a whole-file scan on random placements (property)", () => {
    const needles = ["<iframe", "<!DOCTYPE", "JavaScript:", "onError =", "/JS)", "/EmbeddedFile ", "/RichMedia\n", "/JSX", "Rar!\u001a\u0007"];
    fc.assert(
      fc.property(
        fc.array(fc.record({ at: fc.integer({ min: 0, max: 3 * WINDOW }), needle: fc.constantFrom(...needles), pad: fc.nat({ max: 300 }) }), { maxLength: 3 }),
        (placements) => {
          const inserts = placements.map((p) => ({ at: p.at, text: p.needle.replace(" ", " ".repeat(p.pad + 1)) }));
          const bytes = pdfWith(3 * WINDOW + 500, inserts);
          const whole = bytes.toString("latin1");
          const expected =
            whole.includes("Rar!\u001a\u0007") ? "archive"
            : /<(?:script|iframe|object|embed|html|body|svg[\s/>]|!doctype)|javascript:|\bon(?:error|load)\s*=/i.test(whole) ? "markup"
            : /\/(?:JavaScript|JS|Launch|EmbeddedFile|RichMedia)(?![A-Za-z0-9])/.test(whole) ? "active-pdf"
            : "ok";
          const verdict = inspect(bytes);
          expect(verdict.ok ? "ok" : verdict.reason).toBe(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
