import { desc, eq } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { contentDisposition, createDocumentLink, listDocuments, serveSignedDocument } from "~/server/applications/documents.server";
import { SIGNED_LINK_TTL_SECONDS, signDocumentLink, verifyDocumentLink } from "~/server/applications/signed-links.server";
import type { AuditActor } from "~/server/platform/audit/audit.server";
import { auditLog, loanApplications, loanDocuments } from "~/server/platform/db/schema.server";
import { createLocalStorage, documentKey, type DocumentStorage } from "~/server/platform/storage/storage.server";
import { makePdf, makePng } from "../helpers/files";
import { applicationRow } from "../helpers/application-rows";
import { setUpTestConfig } from "../helpers/temp-config";
import { useTestDatabase } from "../helpers/test-db";
import { seedApplicant } from "../helpers/seed";

/**
 * 60-second document links (docs/requirements.md §8, §10): bound to the document, the expiry, the disposition
 * and the admin; refused once expired or altered; the file served with no-store, its type, its
 * disposition, nosniff, a restrictive CSP and same-origin framing, and audited.
 */

const dataDir = setUpTestConfig("signed-links", { APP_SECRET: "d".repeat(48) });

const SECRET = "s".repeat(48);
const ADMIN = "admin-one";
const DOC = randomUUID();
/** A fixed clock, on a whole second. */
const T = Date.UTC(2026, 10, 22, 12, 0, 0);

function params(url: string): URLSearchParams {
  return new URL(url, "http://localhost").searchParams;
}
function altered(url: string, name: string, value: string): URLSearchParams {
  const p = params(url);
  p.set(name, value);
  return p;
}

describe("signed document links", () => {
  const link = signDocumentLink({ documentId: DOC, disposition: "inline", adminUserId: ADMIN }, { now: T, secret: SECRET });
  const verify = (p: URLSearchParams, now: number, admin = ADMIN, secret = SECRET) => verifyDocumentLink(p, admin, { now, secret });

  it("is a query-string link to the file route, valid 60 seconds", () => {
    expect(link.url.startsWith("/api/documents/file?")).toBe(true);
    expect(link.exp).toBe(T / 1000 + SIGNED_LINK_TTL_SECONDS);
    expect(link.expiresAt).toBe(new Date(T + 60_000).toISOString());
    expect([...params(link.url).keys()].sort()).toEqual(["d", "disposition", "exp", "sig"]);
  });

  it("accepts a fresh link, up to its 60th second", () => {
    expect(verify(params(link.url), T)).toEqual({ ok: true, documentId: DOC, disposition: "inline", exp: link.exp });
    expect(verify(params(link.url), T + 30_000).ok).toBe(true);
    expect(verify(params(link.url), T + 60_000).ok).toBe(true);
  });

  it("refuses it after 60 seconds", () => {
    expect(verify(params(link.url), T + 60_001)).toEqual({ ok: false, reason: "expired" });
    expect(verify(params(link.url), T + 3_600_000)).toEqual({ ok: false, reason: "expired" });
  });

  it("refuses it for another document, or with an altered signature, expiry or disposition", () => {
    expect(verify(altered(link.url, "d", randomUUID()), T)).toEqual({ ok: false, reason: "signature" });
    const sig = params(link.url).get("sig")!;
    const flipped = `${sig[0] === "A" ? "B" : "A"}${sig.slice(1)}`;
    expect(verify(altered(link.url, "sig", flipped), T)).toEqual({ ok: false, reason: "signature" });
    expect(verify(altered(link.url, "exp", String(link.exp + 3600)), T)).toEqual({ ok: false, reason: "signature" });
    expect(verify(altered(link.url, "exp", String(link.exp - 1)), T)).toEqual({ ok: false, reason: "signature" });
    expect(verify(altered(link.url, "disposition", "attachment"), T)).toEqual({ ok: false, reason: "signature" });
  });

  it("refuses it for another admin, or under another secret", () => {
    expect(verify(params(link.url), T, "admin-two")).toEqual({ ok: false, reason: "signature" });
    expect(verify(params(link.url), T, ADMIN, "t".repeat(48))).toEqual({ ok: false, reason: "signature" });
  });

  it("refuses malformed links", () => {
    expect(verify(new URLSearchParams(), T)).toEqual({ ok: false, reason: "malformed" });
    expect(verify(altered(link.url, "d", "../../etc/passwd"), T).ok).toBe(false);
    expect(verify(altered(link.url, "exp", "1e12"), T)).toEqual({ ok: false, reason: "malformed" });
    expect(verify(altered(link.url, "disposition", "inline; evil"), T)).toEqual({ ok: false, reason: "malformed" });
    expect(verify(altered(link.url, "sig", "short"), T)).toEqual({ ok: false, reason: "malformed" });
    expect(verify(params(link.url), T, "")).toEqual({ ok: false, reason: "malformed" });
  });

  it("refuses a validly signed link that would live longer than 60 seconds", () => {
    // Signed "in the future" (a clock far ahead): its expiry is beyond now + 60 s (+ 5 s skew).
    const future = signDocumentLink({ documentId: DOC, disposition: "inline", adminUserId: ADMIN }, { now: T + 120_000, secret: SECRET });
    expect(verify(params(future.url), T)).toEqual({ ok: false, reason: "expired" });
  });
});

describe("serving a document through its link", () => {
  const database = useTestDatabase({ global: true });
  const admin: AuditActor = { id: "admin-a", name: "Ada Admin", email: "ada@example.com" };
  const otherAdmin: AuditActor = { id: "admin-b", name: "Bo Admin", email: "bo@example.com" };
  const info = { ip: "203.0.113.7", userAgent: "vitest" };
  let storage: DocumentStorage;
  let pngId: string;
  let pdfId: string;
  const png = makePng(16, 16);
  const pdf = makePdf(3000);

  beforeAll(async () => {
    const db = database().db;
    storage = createLocalStorage(path.join(dataDir, "storage"));
    await seedApplicant(db, { id: "applicant-1", name: "Jane Doe", email: "jane@example.com", profile: true });
    const applicationId = randomUUID();
    await db.insert(loanApplications).values(applicationRow("applicant-1", { id: applicationId, purpose: "Kitchen renovation costs" }));
    const pngKey = documentKey("applicant-1", applicationId, "id_card_back", "png");
    const pdfKey = documentKey("applicant-1", applicationId, "utility_bill", "pdf");
    await storage.put(pngKey, png, "image/png");
    await storage.put(pdfKey, pdf, "application/pdf");
    const rows = await db
      .insert(loanDocuments)
      .values([
        { applicationId, userId: "applicant-1", documentType: "id_card_back", fileName: "id_card_back.png", filePath: pngKey, fileSize: png.length, mimeType: "image/png", uploadedAt: new Date(T) },
        { applicationId, userId: "applicant-1", documentType: "utility_bill", fileName: "utility_bill.pdf", filePath: pdfKey, fileSize: pdf.length, mimeType: "application/pdf", uploadedAt: new Date(T + 1000) },
      ])
      .returning({ id: loanDocuments.id, type: loanDocuments.documentType });
    pngId = rows.find((r) => r.type === "id_card_back")!.id;
    pdfId = rows.find((r) => r.type === "utility_bill")!.id;
  });

  const lastAudit = async (action: string) => {
    const [row] = await database().db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(desc(auditLog.id)).limit(1);
    return row;
  };
  const serve = (url: string, who: AuditActor, now = Date.now()) =>
    serveSignedDocument(new URL(url, "http://localhost:3000"), { actor: who, request: info }, { storage, now });

  it("lists documents newest first with the applicant, and audits the read", async () => {
    const list = await listDocuments({ page: 1 }, { actor: admin, request: info });
    expect(list.documents.map((d) => [d.fileName, d.applicantName, d.documentType])).toEqual([
      ["utility_bill.pdf", "Jane Doe", "utility_bill"],
      ["id_card_back.png", "Jane Doe", "id_card_back"],
    ]);
    expect(JSON.stringify(list)).not.toContain("applicant-1/");
    expect((await listDocuments({ page: 1, clientId: "someone-else" }, { actor: admin, request: info })).documents).toEqual([]);
    expect((await lastAudit("document.list"))!.details).toMatchObject({ page: 1, count: 0, total: 0, clientId: "someone-else" });
  });

  it("creates a link for the requesting admin and records it (document.link)", async () => {
    const result = await createDocumentLink({ documentId: pngId, disposition: "inline" }, { actor: admin, request: info });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.link).toMatchObject({ documentId: pngId, disposition: "inline", fileName: "id_card_back.png", mimeType: "image/png", applicantName: "Jane Doe" });
    const row = await lastAudit("document.link");
    expect(row).toMatchObject({ actorId: admin.id, tableName: "loan_documents", recordId: pngId, ipAddress: info.ip });
    expect(row!.details).toMatchObject({ disposition: "inline", expiresAt: result.link.expiresAt });
    expect((await createDocumentLink({ documentId: randomUUID(), disposition: "inline" }, { actor: admin, request: info })).ok).toBe(false);
    expect((await createDocumentLink({ documentId: pngId, disposition: "download" }, { actor: admin, request: info })).ok).toBe(false);
  });

  it("serves a fresh inline image with no-store, its type, nosniff, a sandboxing CSP and same-origin framing", async () => {
    const result = await createDocumentLink({ documentId: pngId, disposition: "inline" }, { actor: admin, request: info });
    if (!result.ok) throw new Error("no link");
    const res = await serve(result.link.url, admin);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(png)).toBe(true);
    expect(Object.fromEntries(res.headers)).toMatchObject({
      "content-type": "image/png",
      "content-length": String(png.length),
      "cache-control": "no-store, private",
      "x-content-type-options": "nosniff",
      "x-frame-options": "SAMEORIGIN",
      "content-disposition": `inline; filename="id_card_back.png"; filename*=UTF-8''id_card_back.png`,
    });
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("img-src 'self'");
    expect(csp).toContain("style-src 'unsafe-inline'");
    expect(csp).toContain("sandbox");
    expect(csp).toContain("frame-ancestors 'self'");
    const row = await lastAudit("document.download");
    expect(row).toMatchObject({ actorId: admin.id, recordId: pngId, tableName: "loan_documents" });
    expect(row!.details).toMatchObject({ disposition: "inline", bytes: png.length });
  });

  it("serves a download as an attachment", async () => {
    const result = await createDocumentLink({ documentId: pdfId, disposition: "attachment" }, { actor: admin, request: info });
    if (!result.ok) throw new Error("no link");
    const res = await serve(result.link.url, admin);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="utility_bill.pdf"/);
    expect(Buffer.from(await res.arrayBuffer()).equals(pdf)).toBe(true);
  });

  it("refuses with 403 a link used after 60 seconds, altered, for another document, or by another admin; nothing is audited", async () => {
    const created = T;
    const link = signDocumentLink({ documentId: pngId, disposition: "inline", adminUserId: admin.id }, { now: created });
    const downloadsBefore = (await database().db.select().from(auditLog).where(eq(auditLog.action, "document.download"))).length;
    expect((await serve(link.url, admin, created + 5_000)).status).toBe(200);
    const refused = [
      await serve(link.url, admin, created + 61_000),
      await serve(link.url, otherAdmin, created + 5_000),
      await serve(link.url.replace(pngId, pdfId), admin, created + 5_000),
      await serve(link.url.replace("disposition=inline", "disposition=attachment"), admin, created + 5_000),
      await serve(link.url.replace(/exp=\d+/, `exp=${link.exp + 600}`), admin, created + 5_000),
      await serve(link.url.replace(/sig=[^&]+/, "sig=" + "A".repeat(43)), admin, created + 5_000),
    ];
    for (const res of refused) {
      expect(res.status).toBe(403);
      expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    }
    expect(await refused[0]!.text()).toContain("expired");
    const downloadsAfter = (await database().db.select().from(auditLog).where(eq(auditLog.action, "document.download"))).length;
    expect(downloadsAfter).toBe(downloadsBefore + 1);
  });

  it("answers 404 when the stored file is gone", async () => {
    const db = database().db;
    const [doc] = await db.select().from(loanDocuments).where(eq(loanDocuments.id, pdfId));
    await storage.delete(doc!.filePath);
    const link = signDocumentLink({ documentId: pdfId, disposition: "inline", adminUserId: admin.id });
    expect((await serve(link.url, admin)).status).toBe(404);
  });

  it("keeps the Content-Disposition file name to safe characters", () => {
    expect(contentDisposition("attachment", 'a"b\r\nc.pdf')).toBe(`attachment; filename="a_b__c.pdf"; filename*=UTF-8''a%22b%0D%0Ac.pdf`);
  });
});
