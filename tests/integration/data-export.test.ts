import path from "node:path";
import { and, eq } from "drizzle-orm";
import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { maskAccountNumber, maskLast4, maskSsn, openDataExport, processPendingExports, requestDataExport } from "~/server/accounts/data-export.server";
import { encryptField } from "~/server/platform/crypto/field-encryption.server";
import { ENCRYPTION_PURPOSES } from "~/server/platform/crypto/encryption-purposes.server";
import { encryptSensitive } from "~/server/applications/drafts.server";
import {
  applicationDrafts,
  applicationMessages,
  auditLog,
  dataExports,
  draftDocuments,
  emailOutbox,
  loanApplications,
  loanDocuments,
  privacyAcceptances,
} from "~/server/platform/db/schema.server";
import { disposeExpiredRecords } from "~/server/retention/disposal.server";
import { createLocalStorage, draftDocumentKey } from "~/server/platform/storage/storage.server";
import { makePng } from "../helpers/files";
import { rejectionOf } from "../helpers/rejection";
import { activeLoan, servicingAdmin } from "../helpers/servicing-loans";
import { setUpTestConfig } from "../helpers/temp-config";
import { useTestDatabase } from "../helpers/test-db";
import { AppError, isAppError } from "~/server/platform/http/app-error.server";
import { seedApplicant } from "../helpers/seed";

/**
 * Download My Data (issue 23): the request (one pending per person), the background build (ZIP
 * entries, masked SSN and bank numbers, documents included, saved drafts with their fields, step,
 * dates and files), the e-mailed link (the link only), and
 * the download (same person only, 24 hours, audited), then retention removing the expired file.
 */

const dataDir = setUpTestConfig("data-export", { APP_SECRET: "d".repeat(48), PUBLIC_URL: "https://loans.example.com" });
let getDb: ReturnType<typeof useTestDatabase>;

const SSN = "123456789";
const ACCOUNT = "000987654321";
const ROUTING = "021000021";
// A saved draft's own numbers, different from the submitted ones: each must leave masked too.
const DRAFT_SSN = "234567891";
const DRAFT_ACCOUNT = "4455667788";
const DRAFT_ROUTING = "011000015";

async function readBody(body: NodeJS.ReadableStream): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk as Buffer));
  return new Uint8Array(Buffer.concat(chunks));
}

describe("Download My Data", () => {
  getDb = useTestDatabase({ global: true });

  it("builds a ZIP of everything held, masks the SSN and bank numbers, links it by e-mail for 24 hours to its owner only", async () => {
    const db = getDb().db;
    const storage = createLocalStorage(path.join(dataDir, "storage"));
    const admin = await servicingAdmin(db);
    const loan = await activeLoan(db, dataDir, admin, { account: ACCOUNT, routing: ROUTING });
    const owner = { ...loan.owner };
    await db.update(loanApplications).set({ ssnEncrypted: encryptField(SSN, ENCRYPTION_PURPOSES.ssn) }).where(eq(loanApplications.id, loan.applicationId));
    const key = `${owner.id}/${loan.applicationId}/utility_bill.png`;
    const png = makePng();
    await storage.put(key, png, "image/png");
    await db.insert(loanDocuments).values({ applicationId: loan.applicationId, userId: owner.id, documentType: "utility_bill", fileName: "bill.png", filePath: key, fileSize: png.byteLength, mimeType: "image/png" });
    await db.insert(applicationMessages).values({ applicationId: loan.applicationId, userId: owner.id, authorId: owner.id, authorSide: "applicant", body: "When is my first payment due?" });
    await db.insert(privacyAcceptances).values({ userId: owner.id, noticeVersion: "2026-11", ipAddress: "203.0.113.9" });
    // A saved draft (Save and Finish Later) with its numbers encrypted apart and one uploaded file.
    const savedAt = new Date("2026-11-20T15:30:00Z");
    const draftExpires = new Date("2026-12-20T15:30:00Z");
    const [draft] = await db
      .insert(applicationDrafts)
      .values({
        userId: owner.id,
        loanType: "auto-loans",
        step: 4,
        data: { firstName: "Dana", lastName: "Whitfield", loanAmount: "18500", bankName: "First Draft Bank", employerName: "Harbor Freight Lines" },
        sensitiveEncrypted: encryptSensitive({ ssn: DRAFT_SSN, accountNumber: DRAFT_ACCOUNT, routingNumber: DRAFT_ROUTING }),
        createdAt: new Date("2026-11-18T09:00:00Z"),
        updatedAt: savedAt,
        expiresAt: draftExpires,
      })
      .returning({ id: applicationDrafts.id });
    const draftKey = draftDocumentKey(owner.id, "auto-loans", "id_card_front", "png");
    const draftPng = makePng();
    await storage.put(draftKey, draftPng, "image/png");
    await db.insert(draftDocuments).values({ draftId: draft!.id, userId: owner.id, documentType: "id_card_front", storageKey: draftKey, fileName: "id_card_front.png", mimeType: "image/png", fileSize: draftPng.byteLength });
    const stranger = { id: "stranger-1", name: "Sam Stranger", email: "stranger@example.com" };
    await seedApplicant(db, stranger);

    // One pending request per person.
    const first = await requestDataExport(db, storage, owner, { ip: "203.0.113.9" });
    const again = await rejectionOf(requestDataExport(db, storage, owner));
    expect(again).toSatisfy((e) => isAppError(e, "data_export"));
    expect((again as AppError).status).toBe(409);
    expect(again.message).toBe("Your file is already being prepared.");
    const [requested] = await db.select().from(auditLog).where(and(eq(auditLog.action, "data_export.request"), eq(auditLog.recordId, first.id)));
    expect(requested?.actorId).toBe(owner.id);

    const at = new Date();
    const run = await processPendingExports({ db, storage, baseUrl: "https://loans.example.com", now: () => at });
    expect(run).toEqual({ ready: 1, failed: 0 });
    const [row] = await db.select().from(dataExports).where(eq(dataExports.id, first.id));
    expect(row?.status).toBe("ready");
    expect(row?.expiresAt?.getTime()).toBe(at.getTime() + 24 * 3600 * 1000);
    expect(row?.storageKey).toBe(`exports/${first.id}/data_export.zip`);
    // A second run finds nothing to do.
    expect(await processPendingExports({ db, storage, baseUrl: "https://loans.example.com" })).toEqual({ ready: 0, failed: 0 });

    // The e-mail: the link only; the token is stored only as its hash.
    const [mail] = await db.select().from(emailOutbox).where(and(eq(emailOutbox.template, "data-export-ready"), eq(emailOutbox.toAddress, owner.email)));
    const token = /\/account\/data\/download\/([A-Za-z0-9_-]{43})/.exec(mail!.textBody)?.[1];
    expect(token).toBeTruthy();
    expect(row?.tokenHash).not.toContain(token!);
    for (const secret of [SSN, ACCOUNT, ROUTING]) expect(mail!.textBody + (mail!.htmlBody ?? "")).not.toContain(secret);
    const [ready] = await db.select().from(auditLog).where(and(eq(auditLog.action, "data_export.ready"), eq(auditLog.recordId, first.id)));
    expect(ready).toBeTruthy();

    // Another person's session, an unknown token: the same 404. Nothing audited for them.
    for (const [who, t] of [
      [stranger, token!],
      [owner, "A".repeat(43)],
      [owner, "../../etc/passwd"],
    ] as const) {
      const refused = await rejectionOf(openDataExport(db, storage, t, who));
      expect((refused as AppError).status).toBe(404);
    }

    const download = await openDataExport(db, storage, token!, owner, { ip: "203.0.113.9" }, new Date(at.getTime() + 60_000));
    expect(download.fileName).toMatch(/^private-loans-data-\d{4}-\d{2}-\d{2}\.zip$/);
    const zip = unzipSync(await readBody(download.body));
    const names = Object.keys(zip).sort();
    for (const expected of ["README.txt", "profile.json", "applications.json", "messages.json", "consents.json", "payments.json"]) expect(names).toContain(expected);
    expect(names).toContain(`documents/${loan.applicationId}/utility_bill.png`);
    expect(names).toContain(`documents/${loan.applicationId}/signed_loan_agreement.pdf`);
    expect(Buffer.from(zip[`documents/${loan.applicationId}/utility_bill.png`]!).equals(png)).toBe(true);

    const text = (name: string) => strFromU8(zip[name]!);
    const applications = JSON.parse(text("applications.json")) as { id: string; ssn: string; bankAccounts: { accountNumber: string; routingNumber: string }[]; documents: { file: string }[] }[];
    expect(applications).toHaveLength(1);
    expect(applications[0]!.ssn).toBe("***-**-6789");
    expect(applications[0]!.bankAccounts[0]).toMatchObject({ accountNumber: "****4321", routingNumber: "*****0021" });
    expect(JSON.parse(text("profile.json"))).toMatchObject({ email: owner.email, name: "Dana Whitfield" });
    expect(JSON.parse(text("messages.json"))).toEqual([expect.objectContaining({ body: "When is my first payment due?", from: "applicant" })]);
    const consents = JSON.parse(text("consents.json")) as { esignConsents: unknown[]; privacyAcceptances: { noticeVersion: string }[] };
    expect(consents.esignConsents).toHaveLength(1);
    expect(consents.privacyAcceptances[0]?.noticeVersion).toBe("2026-11");
    const payments = JSON.parse(text("payments.json")) as { loans: { id: string }[] };
    expect(payments.loans.map((l) => l.id)).toEqual([loan.loanId]);
    expect(text("README.txt")).toContain("last 4 digits");
    expect(text("README.txt")).toContain("drafts.json");
    // The saved draft: its fields, the step reached, its dates, its file; numbers masked as the application's.
    expect(JSON.parse(text("drafts.json"))).toEqual([
      {
        loanType: "auto-loans",
        stepReached: 4,
        stepTitle: expect.any(String),
        startedAt: "2026-11-18T09:00:00.000Z",
        savedAt: savedAt.toISOString(),
        expiresAt: draftExpires.toISOString(),
        fields: { firstName: "Dana", lastName: "Whitfield", loanAmount: "18500", bankName: "First Draft Bank", employerName: "Harbor Freight Lines" },
        ssn: "***-**-7891",
        bankAccount: { accountNumber: "****7788", routingNumber: "*****0015" },
        documents: [{ type: "id_card_front", fileName: "id_card_front.png", mimeType: "image/png", bytes: draftPng.byteLength, uploadedAt: expect.any(String), file: "drafts/auto-loans/id_card_front.png" }],
      },
    ]);
    expect(Buffer.from(zip["drafts/auto-loans/id_card_front.png"]!).equals(draftPng)).toBe(true);
    // Never a full number, in any entry (files included), in any usual spelling.
    const secrets = [SSN, "123-45-6789", ACCOUNT, ROUTING, DRAFT_SSN, "234-56-7891", DRAFT_ACCOUNT, DRAFT_ROUTING];
    for (const name of names) {
      for (const secret of secrets) expect(Buffer.from(zip[name]!).includes(secret), `${name} holds ${secret}`).toBe(false);
    }
    const downloads = await db.select().from(auditLog).where(and(eq(auditLog.action, "data_export.download"), eq(auditLog.recordId, first.id)));
    expect(downloads).toHaveLength(1);
    expect(downloads[0]?.actorId).toBe(owner.id);

    // After 24 hours: 410, then the retention job removes the row and the file.
    const late = new Date(at.getTime() + 24 * 3600 * 1000 + 1000);
    expect(((await rejectionOf(openDataExport(db, storage, token!, owner, {}, late))) as AppError).status).toBe(410);
    const disposal = await disposeExpiredRecords({ db, storage, now: new Date(late.getTime() + 1000) });
    expect(disposal.counts.dataExports).toBe(1);
    expect(await storage.exists(row!.storageKey!)).toBe(false);
    expect(await db.select().from(dataExports).where(eq(dataExports.id, first.id))).toHaveLength(0);
    // A new request is possible again.
    await requestDataExport(db, storage, owner);
  });

  it("masks keep the last 4 digits only", () => {
    expect(maskSsn("123-45-6789")).toBe("***-**-6789");
    expect(maskSsn(null)).toBeNull();
    expect(maskLast4("021000021")).toBe("*****0021");
    expect(maskLast4("12")).toBe("**");
    expect(maskAccountNumber("000987654321")).toBe("****4321");
    expect(maskAccountNumber(null)).toBeNull();
  });
});
