// Small real documents for the demo applications: one-page PDFs with text (bank statements, utility
// bills, collateral papers) and PNG images (ID card front and back, signature).
import { dollarsOf, formatMoney } from "~/domain/money";
import { deflateSync } from "node:zlib";
import { DOCUMENT_FIELDS, type ApplicationFields } from "~/domain/validation/application";
import type { DemoApplication } from "./data";

const pdfText = (s: string) => s.replace(/[^\x20-\x7e]/g, "?").replace(/[\\()]/g, (c) => `\\${c}`);

/** A valid one-page PDF (Helvetica text, correct xref table) marked as a demo document. */
export function demoPdf(title: string, lines: string[]): Buffer {
  const content = [
    "BT",
    "0.75 0 0 rg /F1 10 Tf 72 750 Td (DEMO DOCUMENT - NOT A REAL RECORD - PRIVATE LOANS SAMPLE DATA) Tj",
    "0.06 0.16 0.31 rg /F1 20 Tf 0 -40 Td",
    `(${pdfText(title)}) Tj`,
    "0 0 0 rg /F1 11 Tf",
    ...lines.map((line, i) => `0 ${i === 0 ? -32 : -17} Td (${pdfText(line)}) Tj`),
    "ET",
  ].join("\n");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
    `<< /Length ${Buffer.byteLength(content, "latin1")} >>\nstream\n${content}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
  ];
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, "latin1"));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, "latin1");
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

type Rgb = readonly [number, number, number];

/** An RGB PNG painted pixel by pixel. */
export function demoPng(width: number, height: number, paint: (x: number, y: number) => Rgb): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) {
      const [r, g, b] = paint(x, y);
      raw[row + 1 + x * 3] = r;
      raw[row + 2 + x * 3] = g;
      raw[row + 3 + x * 3] = b;
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", deflateSync(raw)),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

const NAVY: Rgb = [15, 42, 79];
const WHITE: Rgb = [255, 255, 255];
const inside = (v: number, from: number, to: number) => v >= from && v < to;

function idCardFront(seed: number): Buffer {
  const tint: Rgb = [219 - (seed % 4) * 6, 232, 247];
  return demoPng(300, 190, (x, y) => {
    if (y < 34) return NAVY;
    if (inside(x, 18, 98) && inside(y, 50, 160)) return [154, 165, 177];
    for (const [top, w] of [[60, 150], [80, 120], [100, 140], [120, 90], [140, 110]] as const) {
      if (inside(x, 116, 116 + w) && inside(y, top, top + 8)) return [71, 85, 105];
    }
    if (y > 176) return [230, 185, 73];
    return tint;
  });
}

function idCardBack(seed: number): Buffer {
  return demoPng(300, 190, (x, y) => {
    if (inside(y, 18, 52)) return [20, 20, 20];
    if (inside(y, 120, 172) && inside(x, 24, 276) && ((x * 7 + seed) % 11) < 4) return [30, 30, 30];
    if (inside(y, 70, 78) && inside(x, 24, 200)) return [100, 116, 139];
    return [241, 245, 249];
  });
}

function signature(seed: number): Buffer {
  const phase = seed * 0.7;
  return demoPng(320, 90, (x, y) => {
    if (x < 20 || x > 300) return WHITE;
    const curve = 45 + 20 * Math.sin(x / 13 + phase) * Math.cos(x / 41);
    if (Math.abs(y - curve) < 1.8) return NAVY;
    if (y === 78 && x > 16) return [148, 163, 184];
    return WHITE;
  });
}

const money = (n: number) => `$${n.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

function monthName(daysAgo: number, monthsBack: number): string {
  const d = new Date(Date.now() - daysAgo * 86_400_000);
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - monthsBack);
  return d.toLocaleString("en-US", { month: "long", year: "numeric", timeZone: "UTC" });
}

export type DemoFile = { type: (typeof DOCUMENT_FIELDS)[number]["type"] | "signature"; ext: "pdf" | "png"; mime: "application/pdf" | "image/png"; bytes: Buffer };

export function documentsFor(app: DemoApplication, fields: ApplicationFields, seed: number): DemoFile[] {
  const holder = `${fields.firstName} ${fields.lastName}`;
  const address = `${fields.addressLine1}${fields.addressLine2 ? `, ${fields.addressLine2}` : ""}, ${fields.city}, ${fields.state} ${fields.zipCode}`;
  const monthly = fields.monthlyIncome;
  const pdf = (type: DemoFile["type"], title: string, lines: string[]): DemoFile => ({ type, ext: "pdf", mime: "application/pdf", bytes: demoPdf(title, lines) });
  const png = (type: DemoFile["type"], bytes: Buffer): DemoFile => ({ type, ext: "png", mime: "image/png", bytes });
  const statement = (n: 1 | 2 | 3) => {
    const opening = Math.round(monthly * (0.8 + n * 0.15));
    const spent = Math.round(monthly * 0.92);
    return pdf(`bank_statement_${n}`, `${fields.bankName} - Account Statement`, [
      `Statement period: ${monthName(app.daysAgo, n)}`,
      `Account holder: ${fields.accountHolderName}`,
      `Account number: ******${fields.accountNumber.slice(-4)} (${fields.bankAccountType})`,
      `Mailing address: ${address}`,
      "",
      `Opening balance: ${formatMoney(opening)}`,
      `Deposits and credits: ${formatMoney(monthly)}`,
      `Withdrawals and debits: ${formatMoney(spent)}`,
      `Closing balance: ${formatMoney(opening + monthly - spent)}`,
    ]);
  };
  const files: DemoFile[] = [
    png("id_card_front", idCardFront(seed)),
    png("id_card_back", idCardBack(seed)),
    statement(1),
    statement(2),
    statement(3),
    pdf("utility_bill", "Metro Power & Water - Monthly Bill", [
      `Customer: ${holder}`,
      `Service address: ${address}`,
      `Billing period: ${monthName(app.daysAgo, 1)}`,
      `Electricity: ${money(84.12 + seed * 3)}   Water and sewer: ${money(41.3 + seed)}`,
      `Amount due: ${money(125.42 + seed * 4)}`,
    ]),
  ];
  if (fields.loanType === "hard-money" && fields.propertyAddress) {
    files.push(
      pdf("collateral_docs", "Collateral Summary - Subject Property", [
        `Borrower: ${holder}`,
        `Property: ${fields.propertyAddress}`,
        "Type: four-unit residential rental",
        `Purchase price: ${money(dollarsOf(fields.loanAmount) / 0.7)}   Requested loan: ${money(dollarsOf(fields.loanAmount))}`,
        "Title commitment and insurance binder to follow.",
      ]),
    );
  }
  files.push(png("signature", signature(seed)));
  return files;
}
