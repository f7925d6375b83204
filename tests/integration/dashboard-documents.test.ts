import { desc, eq } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { signDocumentLink } from "~/server/applications/signed-links.server";
import type { AuditActor } from "~/server/platform/audit/audit.server";
import { getDashboard } from "~/server/applications/dashboard.server";
import { createOwnDocumentLink, OWN_DOCUMENT_FILE_PATH, serveOwnDocument } from "~/server/applications/own-documents.server";
import { auditLog, loanApplications, loanDocuments } from "~/server/platform/db/schema.server";
import { THROTTLES } from "~/server/platform/security/throttle.server";
import { createLocalStorage, documentKey, type DocumentStorage } from "~/server/platform/storage/storage.server";
import { makePdf } from "../helpers/files";
import { applicationRow } from "../helpers/application-rows";
import { setUpTestConfig } from "../helpers/temp-config";
import { useTestDatabase } from "../helpers/test-db";
import { seedApplicant } from "../helpers/seed";

/**
 * An applicant's own documents from the dashboard (issue 18 item 12): a 60-second link only to a
 * document of their own (another user's is 404, like a missing one), served only to them on the
 * applicant path, audited, throttled; an admin's link does not open there.
 */

const dataDir = setUpTestConfig("dashboard-documents", { APP_SECRET: "e".repeat(48) });

const jane: AuditActor = { id: "applicant-jane", name: "Jane Doe", email: "jane@example.com" };
const john: AuditActor = { id: "applicant-john", name: "John Roe", email: "john@example.com" };
const info = { ip: "203.0.113.8", userAgent: "vitest" };

describe("an applicant's own documents", () => {
  const database = useTestDatabase({ global: true });
  let storage: DocumentStorage;
  let janeDoc: string;
  let johnDoc: string;
  const pdf = makePdf(2000);

  beforeAll(async () => {
    const db = database().db;
    storage = createLocalStorage(path.join(dataDir, "storage"));
    for (const who of [jane, john]) {
      await seedApplicant(db, { id: who.id, name: who.name, email: who.email, profile: true });
      const applicationId = randomUUID();
      await db.insert(loanApplications).values(applicationRow(who.id, { id: applicationId }));
      const key = documentKey(who.id, applicationId, "utility_bill", "pdf");
      await storage.put(key, pdf, "application/pdf");
      const [row] = await db
        .insert(loanDocuments)
        .values({ applicationId, userId: who.id, documentType: "utility_bill", fileName: "utility_bill.pdf", filePath: key, fileSize: pdf.length, mimeType: "application/pdf" })
        .returning({ id: loanDocuments.id });
      if (who === jane) janeDoc = row!.id;
      else johnDoc = row!.id;
    }
  });

  const serve = (url: string, who: AuditActor) => serveOwnDocument(new URL(url, "http://localhost:3000"), { actor: who, request: info }, { storage });

  it("gives a 60-second download link to the applicant's own document, audited, and serves it to them", async () => {
    const result = await createOwnDocumentLink(janeDoc, { actor: jane, request: info });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.link.url.startsWith(`${OWN_DOCUMENT_FILE_PATH}?`)).toBe(true);
    expect(result.link.fileName).toBe("utility_bill.pdf");
    const [audit] = await database().db.select().from(auditLog).where(eq(auditLog.action, "document.link")).orderBy(desc(auditLog.id)).limit(1);
    expect(audit).toMatchObject({ actorId: jane.id, recordId: janeDoc });

    const res = await serve(result.link.url, jane);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toContain("attachment");
    expect(res.headers.get("cache-control")).toContain("no-store");
    expect(Buffer.from(await res.arrayBuffer()).equals(pdf)).toBe(true);
  });

  it("answers 404 for another user's document and 400 for a malformed id", async () => {
    expect(await createOwnDocumentLink(johnDoc, { actor: jane, request: info })).toMatchObject({ ok: false, status: 404 });
    expect(await createOwnDocumentLink(randomUUID(), { actor: jane, request: info })).toMatchObject({ ok: false, status: 404 });
    expect(await createOwnDocumentLink("../etc/passwd", { actor: jane, request: info })).toMatchObject({ ok: false, status: 400 });
    expect(await createOwnDocumentLink(`${janeDoc}\u0000`, { actor: jane, request: info })).toMatchObject({ ok: false, status: 400 });
  });

  it("serves a link to no one else, and an admin's link does not open on the applicant path", async () => {
    const result = await createOwnDocumentLink(janeDoc, { actor: jane, request: info });
    if (!result.ok) throw new Error("no link");
    expect((await serve(result.link.url, john)).status).toBe(403);
    const adminLink = signDocumentLink({ documentId: janeDoc, disposition: "attachment", adminUserId: jane.id });
    expect((await serve(adminLink.url.replace(/^[^?]*/, OWN_DOCUMENT_FILE_PATH), jane)).status).toBe(403);
    // John's own link to his own document still works for him only.
    const johns = await createOwnDocumentLink(johnDoc, { actor: john, request: info });
    if (!johns.ok) throw new Error("no link");
    expect((await serve(johns.link.url, john)).status).toBe(200);
    expect((await serve(johns.link.url, jane)).status).toBe(403);
  });

  it("throttles links per applicant", async () => {
    const busy: AuditActor = { ...jane, id: "applicant-busy" };
    let last: Awaited<ReturnType<typeof createOwnDocumentLink>> | undefined;
    for (let i = 0; i <= THROTTLES.documentLinkPerApplicant.limit; i++) last = await createOwnDocumentLink(randomUUID(), { actor: busy, request: info });
    expect(last).toMatchObject({ ok: false, status: 429 });
  });

  it("the dashboard lists the document by id for the download button", async () => {
    const dashboard = await getDashboard(jane.id, jane.name);
    expect(dashboard.applications[0]!.documents.map((d) => d.id)).toEqual([janeDoc]);
    expect(dashboard.approvedLoans).toEqual([]);
  });
});
