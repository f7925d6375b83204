import { deflateSync } from "node:zlib";

/** Real, small documents of each accepted type (and a few impostors) for upload tests. */

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A valid PNG of the given size (pixels are random, so it does not compress away). */
export function makePng(width = 8, height = 8): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let i = 1; i < row.length; i++) row[i] = (i * 31 + y * 17) & 0xff;
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(Buffer.concat(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A minimal valid PDF padded with a comment to about `size` bytes. */
export function makePdf(size = 2048): Buffer {
  const head = "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n";
  const tail = "trailer<</Root 1 0 R>>\n%%EOF\n";
  const pad = Math.max(0, size - head.length - tail.length - 2);
  return Buffer.from(`${head}%${"x".repeat(pad)}\n${tail}`, "latin1");
}

/** JPEG markers around filler: enough for type sniffing (SOI ... EOI). */
export function makeJpeg(size = 2048): Buffer {
  const body = Buffer.alloc(Math.max(8, size - 4), 0x11);
  return Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), body.subarray(0, body.length - 2), Buffer.from([0xff, 0xd9])]);
}

/** A Windows executable header: what a renamed .exe looks like inside. */
export function makeExe(size = 4096): Buffer {
  const buf = Buffer.alloc(size, 0);
  buf.write("MZ", 0, "latin1");
  return buf;
}
