/**
 * What a file really is, by its bytes (magic numbers and trailers), never by its name or the type
 * the browser declared. Only complete PDF, JPEG and PNG files pass.
 */

export type SniffedType = { mime: "application/pdf" | "image/jpeg" | "image/png"; ext: "pdf" | "jpg" | "png" };

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PNG_IEND = Buffer.from([0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);

export function sniffDocumentType(bytes: Uint8Array): SniffedType | null {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < 16) return null;
  if (buf.subarray(0, 5).toString("latin1") === "%PDF-") {
    // A PDF ends with %%EOF (allowing trailing whitespace); a truncated or disguised file does not.
    return buf.subarray(Math.max(0, buf.length - 1024)).toString("latin1").includes("%%EOF")
      ? { mime: "application/pdf", ext: "pdf" }
      : null;
  }
  if (buf.subarray(0, 8).equals(PNG_SIGNATURE)) {
    // IHDR must come first and IEND last.
    const ihdr = buf.subarray(12, 16).toString("latin1") === "IHDR";
    const iend = buf.subarray(buf.length - 8).equals(PNG_IEND);
    return ihdr && iend ? { mime: "image/png", ext: "png" } : null;
  }
  if (buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) {
    // JPEG ends with the EOI marker (some writers pad after it).
    const tail = buf.subarray(Math.max(0, buf.length - 64));
    for (let i = tail.length - 2; i >= 0; i--) if (tail[i] === 0xff && tail[i + 1] === 0xd9) return { mime: "image/jpeg", ext: "jpg" };
    return null;
  }
  return null;
}
