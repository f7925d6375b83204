import { randomBytes, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signDocumentLink } from "~/server/applications/signed-links.server";
import { makeExe, makeJpeg, makePdf, makePng } from "../helpers/files";
import { TEST_DATABASE_URL } from "../helpers/test-db";
import { validFields, validFiles } from "../helpers/applications";
import { hostileWorldForSuite, type HostileWorld } from "./helpers/hostile-world";
import { refusalProblems } from "./helpers/refusal";
import { storedFiles } from "./helpers/submissions";

/**
 * Hostile files in an otherwise valid submission by a signed-in applicant (docs/decisions/0016):
 * disguised types, polyglots, empty and oversized files are refused with a message naming the
 * document, and nothing is stored: no rows, no queued e-mail, no file in storage. File names are
 * never used: hostile names either fail the extension rule or vanish behind the server's own key.
 */

const APP_SECRET = randomBytes(32).toString("base64url");
const FILE_RULE = "File must be PDF, JPG, or PNG and under 5MB";

type Part = { bytes: Buffer; name: string; type: string };

let world: HostileWorld;

/**
 * The multipart body written byte for byte: FormData would percent-escape the names (NUL, quotes,
 * line breaks) that these tests are about.
 */
function multipart(overrides: Record<string, Part>): { body: Buffer; type: string } {
  const boundary = `----hostile${randomUUID()}`;
  const chunks: Buffer[] = [];
  const fields: Record<string, string> = { ...validFields, idempotencyKey: randomUUID() };
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`, "utf8"));
  }
  for (const [field, file] of Object.entries({ ...validFiles(), ...overrides })) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`, "utf8"),
      file.bytes,
      Buffer.from("\r\n"),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

async function submit(overrides: Record<string, Part>) {
  await world.resetThrottles();
  const { body, type } = multipart(overrides);
  const res = await fetch(`${world.server.url}/api/applications`, {
    method: "POST",
    body: new Uint8Array(body),
    headers: { cookie: world.cookies.applicantA, origin: world.server.url, "content-type": type },
  });
  const text = await res.text();
  return { status: res.status, text, contentType: res.headers.get("content-type") ?? "", json: JSON.parse(text) as Record<string, unknown> };
}

const pdfWith = (inside: string) => {
  const pdf = makePdf(3000).toString("latin1");
  return Buffer.from(pdf.replace("%PDF-1.4\n", `%PDF-1.4\n${inside}\n`), "latin1");
};
const html = Buffer.from("<!DOCTYPE html><html><body><script>window.__pwned=1</script></body></html>");
/** A ZIP's local header and an end-of-central-directory record whose comment ends in a JPEG's EOI. */
const zipTail = Buffer.concat([
  Buffer.from("PK\x03\x04\x14\x00\x00\x00\x00\x00", "latin1"),
  Buffer.alloc(20, 0),
  Buffer.from([0x50, 0x4b, 0x05, 0x06, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0xff, 0xd9]),
]);
/** A PNG whose text chunk (before IEND, so the PNG is complete) holds a web page. */
function pngWithTextChunk(text: string): Buffer {
  const png = makePng(8, 8);
  const iend = png.length - 12;
  const data = Buffer.from(`Comment\0${text}`, "latin1");
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  // The CRC is not checked by the sniffer; a browser sniffing for HTML would not check it either.
  return Buffer.concat([png.subarray(0, iend), len, Buffer.from("tEXt"), data, Buffer.alloc(4), png.subarray(iend)]);
}

/** `unreadable`: the multipart reader stops at the part header itself, before any field is known. */
type RefusedCase = { name: string; field: string; part: Part; status?: number; says: RegExp; unreadable?: true };

const REFUSED: RefusedCase[] = [
  { name: "an HTML page named .pdf", field: "utilityBill", part: { bytes: html, name: "bill.pdf", type: "application/pdf" }, says: /not a complete PDF, JPG or PNG/ },
  { name: "a ZIP named .pdf", field: "bankStatement1", part: { bytes: Buffer.concat([zipTail, Buffer.alloc(64)]), name: "s.pdf", type: "application/pdf" }, says: /not a complete/ },
  { name: "an EXE declared application/pdf", field: "bankStatement2", part: { bytes: makeExe(), name: "s.pdf", type: "application/pdf" }, says: /not a complete/ },
  { name: "a real PNG sent as x.pdf (application/pdf)", field: "bankStatement3", part: { bytes: makePng(), name: "x.pdf", type: "application/pdf" }, says: /extension does not match/ },
  { name: "a real PNG named .png but declared application/pdf", field: "idCardBack", part: { bytes: makePng(), name: "b.png", type: "application/pdf" }, says: /declared type does not match/ },
  { name: "a real PDF declared text/html", field: "utilityBill", part: { bytes: makePdf(), name: "bill.pdf", type: "text/html" }, says: /declared type does not match/ },
  { name: "a PDF with <script> near its start", field: "bankStatement1", part: { bytes: pdfWith("<script>window.__pwned=1</script>"), name: "s.pdf", type: "application/pdf" }, says: /web page or script/ },
  { name: "a PDF with an <html> page inside", field: "bankStatement2", part: { bytes: pdfWith("<HTML><BODY>hi</BODY></HTML>"), name: "s.pdf", type: "application/pdf" }, says: /web page or script/ },
  { name: "a PDF that runs JavaScript when opened", field: "bankStatement3", part: { bytes: pdfWith("3 0 obj<</S/JavaScript/JS(app.alert(1))>>endobj"), name: "s.pdf", type: "application/pdf" }, says: /scripts, actions or attached files/ },
  { name: "a JPEG with a ZIP appended after its end", field: "idCardFront", part: { bytes: Buffer.concat([makeJpeg(3000), zipTail]), name: "f.jpg", type: "image/jpeg" }, says: /archive/ },
  { name: "a JPEG with HTML appended after its end", field: "idCardFront", part: { bytes: Buffer.concat([makeJpeg(3000), Buffer.from("<script>window.__pwned=1</script>"), Buffer.from([0xff, 0xd9])]), name: "f.jpg", type: "image/jpeg" }, says: /web page or script/ },
  { name: "a PNG with HTML appended after IEND", field: "idCardBack", part: { bytes: Buffer.concat([makePng(), html]), name: "b.png", type: "image/png" }, says: /not a complete/ },
  { name: "a complete PNG carrying an <svg onload> in a text chunk", field: "idCardBack", part: { bytes: pngWithTextChunk('<svg onload="window.__pwned=1">'), name: "b.png", type: "image/png" }, says: /web page or script/ },
  { name: "a zero-byte required file", field: "bankStatement2", part: { bytes: Buffer.alloc(0), name: "empty.pdf", type: "application/pdf" }, says: /the file is empty/ },
  { name: "a zero-byte optional file", field: "collateralDocs", part: { bytes: Buffer.alloc(0), name: "deed.pdf", type: "application/pdf" }, says: /the file is empty/ },
  { name: "a file one byte over 5 MB", field: "bankStatement1", part: { bytes: makePdf(5 * 1024 * 1024 + 1), name: "big.pdf", type: "application/pdf" }, status: 413, says: /too large/ },
  { name: "the name '../../etc/passwd'", field: "utilityBill", part: { bytes: makePdf(), name: "../../etc/passwd", type: "application/pdf" }, says: /extension does not match/ },
  { name: "a name of only dots", field: "utilityBill", part: { bytes: makePdf(), name: "....", type: "application/pdf" }, says: /extension does not match/ },
  { name: "a right-to-left override hiding .exe ('bill\u202Efdp.exe')", field: "utilityBill", part: { bytes: makePdf(), name: "bill\u202Efdp.exe", type: "application/pdf" }, says: /extension does not match/ },
  // No browser sends a raw NUL (no file system allows one in a name): the part header is malformed.
  { name: "a NUL before a second extension ('bill.pdf\\0.exe')", field: "utilityBill", part: { bytes: makePdf(), name: "bill.pdf\0.exe", type: "application/pdf" }, says: /could not be read/, unreadable: true },
  { name: "terminal escapes in a name ('\\x1b[31m\\x07.pdf')", field: "bankStatement2", part: { bytes: makePdf(), name: "\u001b[31m\u0007.pdf", type: "application/pdf" }, says: /could not be read/, unreadable: true },
  { name: "a NUL in an otherwise good name ('a\\0b.pdf')", field: "bankStatement1", part: { bytes: makePdf(), name: "a\0b.pdf", type: "application/pdf" }, says: /could not be read/, unreadable: true },
  { name: "a signature that is a JPEG named signature.png", field: "signature", part: { bytes: makeJpeg(), name: "signature.png", type: "image/png" }, says: /Please provide your signature/ },
];

// Needs a PostgreSQL server (TEST_DATABASE_URL) to read what was stored while the server runs.
describe.runIf(TEST_DATABASE_URL)("hostile uploads", () => {
  hostileWorldForSuite({ APP_SECRET }, 180_000, (started) => (world = started));

  it.each(REFUSED)("refuses $name with a message naming the document, storing nothing", async ({ field, part, status, says, unreadable }) => {
    const before = await world.fingerprint();
    const filesBefore = storedFiles(world.server.dataDir);
    const res = await submit({ [field]: part });

    expect(res.status).toBe(status ?? 400);
    expect(refusalProblems({ status: res.status, body: res.text, contentType: res.contentType })).toEqual([]);
    const message = String(res.json.message);
    expect(message).toMatch(says);
    if (unreadable) expect(res.json).toMatchObject({ ok: false });
    else expect(res.json).toMatchObject({ ok: false, field, step: field === "signature" ? 5 : 4 });
    if (field !== "signature" && !unreadable) {
      const label = { idCardFront: "ID Card (Front)", idCardBack: "ID Card (Back)", bankStatement1: "Bank Statement (Month 1)", bankStatement2: "Bank Statement (Month 2)", bankStatement3: "Bank Statement (Month 3)", utilityBill: "Utility Bill", collateralDocs: "Collateral Documents" }[field];
      expect(message.startsWith(`${label}: `)).toBe(true);
      expect(message).toContain(FILE_RULE);
    }
    // The client's file name is not echoed back.
    if (part.name.length > 4) expect(message).not.toContain(part.name);

    expect(await world.fingerprint()).toEqual(before);
    expect(storedFiles(world.server.dataDir)).toEqual(filesBefore);
  }, 60_000);

  it("accepts valid files under hostile names, storing them only under keys the server made and showing only the cleaned last part of the name", async () => {
    const userId = (await world.db.query<{ id: string }>(`select id from "user" where email = $1`, [world.applicantA.email])).rows[0]!.id;
    const names = {
      idCardFront: { bytes: makeJpeg(3000), name: "..\\..\\windows\\system32\\evil.jpg", type: "image/jpeg" },
      idCardBack: { bytes: makePng(), name: "../../etc/passwd.png", type: "image/png" },
      bankStatement1: { bytes: makePdf(), name: "\tcontrol\tchars.PDF", type: "application/pdf" },
      bankStatement2: { bytes: makePdf(), name: `${"L".repeat(320)}.pdf`, type: "application/pdf" },
      bankStatement3: { bytes: makePdf(), name: "gpj\u202Ereport.pdf", type: "application/pdf" },
      utilityBill: { bytes: makePdf(), name: "<img src=x onerror=alert(1)>.pdf", type: "application/octet-stream" },
    };
    const res = await submit(names);
    expect(res.status, res.text).toBe(201);
    const appId = String(res.json.applicationId);

    const { rows } = await world.db.query<{ document_type: string; file_name: string; file_path: string }>(
      `select document_type, file_name, file_path from loan_documents where application_id = $1`,
      [appId],
    );
    expect(rows).toHaveLength(7);
    const clientParts = ["..", "\\", "windows", "system32", "evil", "etc", "passwd", "control", "\t", "PDF", "LLLL", "\u202E", "gpj", "report", "chars", "<", "img", "onerror"];
    for (const row of rows) {
      // The storage key is ours: the document's type and the extension its content was found to be.
      expect(row.file_path).toMatch(new RegExp(`^${userId}/${appId}/${row.document_type}\\.(jpg|png|pdf)$`));
      for (const part of clientParts) expect(row.file_path.split("/")[2]).not.toContain(part);
      // The name shown to people is what the borrower gave, reduced to its last path segment, without
      // control or direction-changing characters, at most 120 characters, ending in the content's type.
      // eslint-disable-next-line no-control-regex -- a stored name must hold no control character
      expect(row.file_name).not.toMatch(/[\\/\u0000-\u001f\u007f\u202e]/u);
      expect(row.file_name.length).toBeLessThanOrEqual(120);
      expect(row.file_name).toMatch(/\.(jpg|png|pdf|PDF)$/);
    }
    const shown = new Map(rows.map((r) => [r.document_type, r.file_name]));
    expect(shown.get("id_card_front")).toBe("evil.jpg");
    expect(shown.get("id_card_back")).toBe("passwd.png");
    expect([...shown.values()]).toEqual(expect.arrayContaining(["control chars.PDF", "gpjreport.pdf", "<img src=x onerror=alert(1)>.pdf", `${"L".repeat(116)}.pdf`]));
    const onDisk = storedFiles(world.server.dataDir).filter((key) => key.startsWith(`${userId}/${appId}/`));
    expect(onDisk.sort()).toEqual(rows.map((r) => r.file_path).sort());
  }, 60_000);

  it("serves a stored document with its sniffed type, nosniff, a sandbox CSP and the server's own file name", async () => {
    const adminId = (await world.db.query<{ id: string }>(`select id from "user" where email = $1`, [world.admin.email])).rows[0]!.id;
    const { rows } = await world.db.query<{ id: string; mime_type: string; file_name: string }>(
      `select id, mime_type, file_name from loan_documents where application_id = $1`,
      [world.appA],
    );
    for (const doc of rows) {
      for (const disposition of ["inline", "attachment"] as const) {
        const link = signDocumentLink({ documentId: doc.id, disposition, adminUserId: adminId }, { secret: APP_SECRET }).url;
        const res = await fetch(new URL(link, world.server.url), { headers: { cookie: world.cookies.admin } });
        expect(res.status).toBe(200);
        await res.arrayBuffer();
        expect(res.headers.get("content-type")).toBe(doc.mime_type);
        expect(["application/pdf", "image/jpeg", "image/png"]).toContain(doc.mime_type);
        expect(res.headers.get("x-content-type-options")).toBe("nosniff");
        const csp = res.headers.get("content-security-policy") ?? "";
        expect(csp).toMatch(/(^|;\s*)sandbox(;|$)/);
        expect(csp).toContain("default-src 'none'");
        expect(csp).not.toMatch(/script-src/);
        const contentDisposition = res.headers.get("content-disposition") ?? "";
        expect(contentDisposition.startsWith(disposition)).toBe(true);
        expect(contentDisposition).toContain(doc.file_name);
      }
    }
  }, 60_000);
});
