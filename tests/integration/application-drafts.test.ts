import { and, eq, sql } from "drizzle-orm";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APPLICATION_MESSAGES } from "~/domain/validation/application";
import { DRAFT_MESSAGES } from "~/domain/validation/application-draft";
import { CONTROL_CHARACTER_MESSAGE } from "~/domain/validation/text-rules";
import type { LoadContext } from "~/load-context";
import { action as draftsAction } from "~/routes/api/drafts";
import { action as applicationsAction } from "~/routes/api/applications";
import { draftAction } from "~/server/applications/draft-action.server";
import { getAuth } from "~/server/accounts/auth.server";
import { loadConfig, setConfig } from "~/server/platform/config.server";
import { ENCRYPTION_PURPOSES } from "~/server/platform/crypto/encryption-purposes.server";
import { decryptField } from "~/server/platform/crypto/field-encryption.server";
import { applicationDrafts, bankAccounts, draftDocuments, loanApplications, loanDocuments } from "~/server/platform/db/schema.server";
import { disposeExpiredRecords } from "~/server/retention/disposal.server";
import { sweepOrphans } from "~/server/platform/storage/orphan-sweep.server";
import { referencedStorageKeys } from "~/server/retention/index.server";
import { createLocalStorage, setStorage, type DocumentStorage } from "~/server/platform/storage/storage.server";
import { makeExe, makeJpeg, makePdf, makePng } from "../helpers/files";
import { validFields, validFiles, type UploadFile } from "../helpers/applications";
import { testTargets, useTestDatabase } from "../helpers/test-db";

/** Save and Finish Later (issue 23): /api/drafts and the submission that completes a draft, on each database. */

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-drafts-"));
beforeAll(() => setConfig(loadConfig({ DATA_DIR: dataDir, APP_SECRET: "d".repeat(48), LENDER_NOTIFY_EMAIL: "lender@example.com" })));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const context: LoadContext = { cspNonce: "", clientIp: "203.0.113.60", secure: false };
const ORIGIN = "http://localhost:3000";

/** Steps 1-3 as the wizard holds them, plus the bank fields of step 4 (no consent: it is given at the end). */
const DRAFT_FIELDS = Object.fromEntries(Object.entries(validFields).filter(([k]) => k !== "agreeToTerms"));

function multipart(fields: Record<string, string>, files: Record<string, UploadFile> = {}) {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  for (const [k, f] of Object.entries(files)) body.append(k, new Blob([new Uint8Array(f.bytes)], { type: f.type }), f.name);
  return body;
}

async function call(handler: typeof draftsAction | typeof applicationsAction, url: string, body: BodyInit, cookie?: string) {
  const request = new Request(`${ORIGIN}${url}`, { method: "POST", body, headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}) } });
  const response = (await handler({ request, context, params: {} } as never)) as Response;
  return { status: response.status, text: await response.text() };
}

const saveDraft = async (cookie: string, fields: Record<string, string>, files: Record<string, UploadFile> = {}) => {
  const res = await call(draftsAction, "/api/drafts", multipart({ intent: "save", step: "4", ...fields }, files), cookie);
  return { ...res, body: JSON.parse(res.text) as { ok: boolean; field?: string; message: string; draft?: { files: { field: string }[]; kept: Record<string, string>; step: number } } };
};

describe.each(testTargets)("Save and Finish Later on %s", (target) => {
  const database = useTestDatabase({ target, global: true });
  let storage: DocumentStorage;
  const users: Record<"a" | "b", { cookie: string; id: string }> = {} as never;

  async function signUp(email: string) {
    const { headers, response } = await getAuth().api.signUpEmail({ body: { name: "Jane Doe", email, password: "Str0ng!Passw0rd" }, returnHeaders: true });
    return { cookie: headers.getSetCookie().map((c) => c.split(";")[0]).join("; "), id: response.user.id };
  }

  beforeAll(async () => {
    storage = createLocalStorage(fs.mkdtempSync(path.join(dataDir, `storage-${target}-`)));
    setStorage(storage);
    users.a = await signUp(`draft-a-${target}@example.com`);
    users.b = await signUp(`draft-b-${target}@example.com`);
  });
  afterAll(() => setStorage(undefined));

  const draftsOf = (userId: string) => database().db.select().from(applicationDrafts).where(eq(applicationDrafts.userId, userId));
  const docsOf = (userId: string) => database().db.select().from(draftDocuments).where(eq(draftDocuments.userId, userId));
  const discard = (cookie: string, loanType: string) => call(draftsAction, "/api/drafts", multipart({ intent: "discard", loanType }), cookie);

  it("20 saves of one draft at once leave one row, pushed to 30 days from now", async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => saveDraft(users.a.cookie, { ...DRAFT_FIELDS, firstName: i % 2 ? "Jane" : "Janet", step: String((i % 5) + 1) })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const rows = await draftsOf(users.a.id);
    expect(rows).toHaveLength(1);
    const days = (rows[0]!.expiresAt.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
  });

  it("keeps the SSN and bank numbers encrypted: not in the row, not in the answer; a save without them keeps them", async () => {
    const res = await saveDraft(users.a.cookie, DRAFT_FIELDS);
    expect(res.status).toBe(200);
    expect(res.text).not.toMatch(/123-?45-?6789|000123456789|021000021/);
    expect(res.body.draft!.kept).toEqual({ ssn: "•••••6789", accountNumber: "•••••6789", routingNumber: "•••••••21" });
    const result = await database().db.execute(sql`select t::text as text from application_drafts t where user_id = ${users.a.id}`);
    const text = (result as unknown as { rows: { text: string }[] }).rows[0]!.text;
    expect(text).not.toMatch(/123-?45-?6789|123456789|000123456789|021000021/);
    expect(text).toContain("Doe-Smith");

    // The wizard sends them empty when the applicant left them untouched: the stored ones stay.
    const again = await saveDraft(users.a.cookie, { ...DRAFT_FIELDS, ssn: "", accountNumber: "", routingNumber: "", city: "Dover" });
    expect(again.body.draft!.kept).toEqual({ ssn: "•••••6789", accountNumber: "•••••6789", routingNumber: "•••••••21" });
    const [row] = await draftsOf(users.a.id);
    expect(row!.data.city).toBe("Dover");
    expect(row!.data.ssn).toBeUndefined();
  });

  it("refuses wrong values, control characters, oversized and unknown fields with a 400 naming the field, changing nothing", async () => {
    const before = JSON.stringify(await draftsOf(users.a.id));
    const cases: [Record<string, string>, string, string | RegExp][] = [
      [{ loanAmount: "lots" }, "loanAmount", "Please enter a valid loan amount"],
      [{ firstName: "Jane\u0000" }, "firstName", CONTROL_CHARACTER_MESSAGE],
      [{ city: "Dover\u001b[2J" }, "city", CONTROL_CHARACTER_MESSAGE],
      [{ firstName: "J".repeat(51) }, "firstName", "Please fill in all required fields"],
      [{ loanPurpose: "x".repeat(5000) }, "loanPurpose", /too long/],
      [{ ssn: "000-12-3456" }, "ssn", /not a Social Security Number/],
      // Checksum right, but 50 is no Federal Reserve routing symbol.
      [{ routingNumber: "501200312" }, "routingNumber", APPLICATION_MESSAGES.routingSymbol],
      [{ routingNumber: "021000022" }, "routingNumber", APPLICATION_MESSAGES.routingChecksum],
      [{ hasOutstandingLoans: "maybe" }, "hasOutstandingLoans", /Unexpected value/],
      [{ agreeToTerms: "true" }, "agreeToTerms", /Unexpected field/],
      [{ loanType: "yacht" }, "loanType", DRAFT_MESSAGES.loanType],
      [{ loanType: "" }, "loanType", DRAFT_MESSAGES.loanType],
      [{ step: "9" }, "step", DRAFT_MESSAGES.step],
    ];
    for (const [fields, field, message] of cases) {
      const res = await saveDraft(users.a.cookie, { ...DRAFT_FIELDS, ...fields });
      expect(res.status, JSON.stringify(fields).slice(0, 60)).toBe(400);
      expect(res.body.field).toBe(field);
      expect(res.body.message).toMatch(message instanceof RegExp ? message : new RegExp(message.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
    }
    const wrongIntent = await call(draftsAction, "/api/drafts", multipart({ intent: "publish", loanType: "personal" }), users.a.cookie);
    expect(wrongIntent.status).toBe(400);
    const urlencoded = await call(draftsAction, "/api/drafts", new URLSearchParams({ intent: "save", loanType: "personal", step: "1" }), users.a.cookie);
    expect(urlencoded.status).toBe(415);
    const signature = await saveDraft(users.a.cookie, DRAFT_FIELDS, { signature: { bytes: makePng(), name: "s.png", type: "image/png" } });
    expect(signature.status).toBe(400);
    const exe = await saveDraft(users.a.cookie, DRAFT_FIELDS, { idCardFront: { bytes: makeExe(), name: "id.pdf", type: "application/pdf" } });
    expect(exe.status).toBe(400);
    expect(exe.body.field).toBe("idCardFront");
    const huge = await saveDraft(users.a.cookie, DRAFT_FIELDS, { idCardFront: { bytes: makePdf(5 * 1024 * 1024 + 1), name: "big.pdf", type: "application/pdf" } });
    expect(huge.status).toBe(413);
    expect(huge.body.field).toBe("idCardFront");
    expect(JSON.stringify(await draftsOf(users.a.id))).toBe(before);
    expect(await docsOf(users.a.id)).toEqual([]);
  });

  it("keeps uploaded files with the draft; a new file of the same document replaces the row and removes the old file", async () => {
    const first = await saveDraft(users.a.cookie, DRAFT_FIELDS, { idCardFront: { bytes: makeJpeg(3000), name: "front.jpg", type: "image/jpeg" } });
    expect(first.status).toBe(200);
    expect(first.body.draft!.files.map((f) => f.field)).toEqual(["idCardFront"]);
    const [old] = await docsOf(users.a.id);
    expect(await storage.exists(old!.storageKey)).toBe(true);
    expect(old!.storageKey).toMatch(new RegExp(`^${users.a.id}/draft-personal/id_card_front_[0-9a-f]{12}\\.jpg$`));

    const second = await saveDraft(users.a.cookie, DRAFT_FIELDS, { idCardFront: { bytes: makePng(30, 20), name: "front.png", type: "image/png" } });
    expect(second.status).toBe(200);
    const docs = await docsOf(users.a.id);
    expect(docs).toHaveLength(1);
    expect(docs[0]!).toMatchObject({ documentType: "id_card_front", mimeType: "image/png", fileName: "front.png" });
    expect(docs[0]!.storageKey).not.toBe(old!.storageKey);
    expect(await storage.exists(old!.storageKey)).toBe(false);
    expect(await storage.exists(docs[0]!.storageKey)).toBe(true);

    // The orphan sweep knows a draft's files are not orphans.
    const sweep = await sweepOrphans({ db: database().db, storage, olderThan: new Date(Date.now() + 60_000), reason: "test", referenced: referencedStorageKeys });
    expect(sweep.removed).not.toContain(docs[0]!.storageKey);
    expect(await storage.exists(docs[0]!.storageKey)).toBe(true);
  });

  it("another user can neither discard nor use A's draft; staff are refused", async () => {
    expect((await discard(users.b.cookie, "personal")).status).toBe(404);
    expect(await draftsOf(users.a.id)).toHaveLength(1);
    // B submits without documents: A's draft files are not B's to use.
    const body = multipart({ ...validFields, idempotencyKey: `b-key-${Date.now()}-abcdef` }, { signature: validFiles().signature! });
    const res = await call(applicationsAction, "/api/applications", body, users.b.cookie);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).field).toBe("idCardFront");
    expect(await docsOf(users.a.id)).toHaveLength(1);

    const staff = await draftAction(new Request(`${ORIGIN}/api/drafts`, { method: "POST", body: multipart({ intent: "save" }) }), { id: users.a.id, isStaff: true });
    expect(staff.status).toBe(403);
    const visitor = await call(draftsAction, "/api/drafts", multipart({ intent: "save", loanType: "personal", step: "1" }));
    expect(visitor.status).toBe(401);
  });

  it("a submission that fails keeps the draft; one that succeeds becomes the application in the same transaction", async () => {
    const files = validFiles();
    const { signature, idCardFront: _front, ...rest } = files;
    // Everything but the ID front (saved above) goes with the draft now.
    expect((await saveDraft(users.a.cookie, DRAFT_FIELDS, rest)).status).toBe(200);
    const draftDocs = await docsOf(users.a.id);
    expect(draftDocs).toHaveLength(6);

    // Blank SSN and bank numbers (kept with the draft), no documents but the signature.
    const fields = { ...validFields, ssn: "", accountNumber: "", routingNumber: "" };
    const submit = (key: string) => call(applicationsAction, "/api/applications", multipart({ ...fields, idempotencyKey: key }, { signature: signature! }), users.a.cookie);

    await database().db.execute(sql`alter table bank_accounts add constraint test_block_drafts check (bank_name <> 'First Bank')`);
    try {
      expect((await submit(`fail-key-${Date.now()}-abcdef`)).status).toBe(503);
    } finally {
      await database().db.execute(sql`alter table bank_accounts drop constraint test_block_drafts`);
    }
    expect(await draftsOf(users.a.id)).toHaveLength(1);
    expect(await docsOf(users.a.id)).toHaveLength(6);
    for (const d of draftDocs) expect(await storage.exists(d.storageKey)).toBe(true);

    const ok = await submit(`ok-key-${Date.now()}-abcdef`);
    expect(ok.status).toBe(201);
    const id = JSON.parse(ok.text).applicationId as string;
    const db = database().db;
    const [app] = await db.select().from(loanApplications).where(eq(loanApplications.id, id));
    expect(decryptField(app!.ssnEncrypted!, ENCRYPTION_PURPOSES.ssn)).toBe("123456789");
    const [bank] = await db.select().from(bankAccounts).where(eq(bankAccounts.applicationId, id));
    expect(decryptField(bank!.accountNumber, ENCRYPTION_PURPOSES.accountNumber)).toBe("000123456789");
    expect(decryptField(bank!.routingNumber, ENCRYPTION_PURPOSES.routingNumber)).toBe("021000021");
    const docs = await db.select().from(loanDocuments).where(eq(loanDocuments.applicationId, id));
    expect(docs).toHaveLength(7);
    for (const d of draftDocs) expect(docs.map((x) => x.filePath)).toContain(d.storageKey);
    for (const d of docs) expect(await storage.exists(d.filePath)).toBe(true);
    expect(await draftsOf(users.a.id)).toEqual([]);
    expect(await docsOf(users.a.id)).toEqual([]);
  });

  it("moves the draft when the loan type changes, and discards it with its files", async () => {
    const saved = await saveDraft(users.b.cookie, { ...DRAFT_FIELDS, loanType: "business" }, { utilityBill: { bytes: makePdf(1500), name: "bill.pdf", type: "application/pdf" } });
    expect(saved.status).toBe(200);
    const moved = await saveDraft(users.b.cookie, { ...DRAFT_FIELDS, loanType: "auto-loans", fromLoanType: "business" });
    expect(moved.status).toBe(200);
    expect(moved.body.draft!.files.map((f) => f.field)).toEqual(["utilityBill"]);
    expect((await draftsOf(users.b.id)).map((d) => d.loanType)).toEqual(["auto-loans"]);
    const [doc] = await docsOf(users.b.id);
    expect((await discard(users.b.cookie, "auto-loans")).status).toBe(200);
    expect(await draftsOf(users.b.id)).toEqual([]);
    expect(await docsOf(users.b.id)).toEqual([]);
    expect(await storage.exists(doc!.storageKey)).toBe(false);
  });

  it("the retention job removes expired drafts and their files, and leaves live ones", async () => {
    await saveDraft(users.b.cookie, { ...DRAFT_FIELDS, loanType: "private" }, { utilityBill: { bytes: makePdf(1500), name: "bill.pdf", type: "application/pdf" } });
    await saveDraft(users.b.cookie, { ...DRAFT_FIELDS, loanType: "personal" });
    const db = database().db;
    await db
      .update(applicationDrafts)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(and(eq(applicationDrafts.userId, users.b.id), eq(applicationDrafts.loanType, "private")));
    const [file] = await docsOf(users.b.id);
    const result = await disposeExpiredRecords({ db, storage });
    expect(result.counts.applicationDrafts).toBe(1);
    expect(result.files).toContain(file!.storageKey);
    expect(await storage.exists(file!.storageKey)).toBe(false);
    expect((await draftsOf(users.b.id)).map((d) => d.loanType)).toEqual(["personal"]);
    expect(await docsOf(users.b.id)).toEqual([]);
  });
});
