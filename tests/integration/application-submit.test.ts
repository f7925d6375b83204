import { eq, sql } from "drizzle-orm";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { APPLICATION_MESSAGES } from "~/domain/validation/application";
import { CONTROL_CHARACTER_MESSAGE } from "~/domain/validation/text-rules";
import type { LoadContext } from "~/load-context";
import { action } from "~/routes/api/applications";
import { ENCRYPTION_PURPOSES } from "~/server/platform/crypto/encryption-purposes.server";
import { getAuth } from "~/server/accounts/auth.server";
import { loadConfig, setConfig } from "~/server/platform/config.server";
import { decryptField, isEncrypted } from "~/server/platform/crypto/field-encryption.server";
import { bankAccounts, emailOutbox, loanApplications, loanDocuments } from "~/server/platform/db/schema.server";
import { createLocalStorage, setStorage, type DocumentStorage } from "~/server/platform/storage/storage.server";
import { makeExe, makeJpeg, makePdf, makePng } from "../helpers/files";
import { validFields, validFiles } from "../helpers/applications";
import { testTargets, useTestDatabase } from "../helpers/test-db";

/** The application submission through the route's action, on each database. */

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-apply-"));
beforeAll(() => setConfig(loadConfig({ DATA_DIR: dataDir, APP_SECRET: "b".repeat(48), LENDER_NOTIFY_EMAIL: "lender@example.com" })));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

let keyCounter = 0;
const newKey = () => `wizard-key-${Date.now()}-${keyCounter++}-abcdef`;

function form(fields: Record<string, string>, files: ReturnType<typeof validFiles>, idempotencyKey: string | null = newKey()) {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  if (idempotencyKey) body.append("idempotencyKey", idempotencyKey);
  for (const [k, f] of Object.entries(files)) body.append(k, new Blob([new Uint8Array(f.bytes)], { type: f.type }), f.name);
  return body;
}

const context: LoadContext = { cspNonce: "", clientIp: "203.0.113.50", secure: false };

async function post(body: FormData, cookie?: string) {
  const request = new Request("http://localhost:3000/api/applications", {
    method: "POST",
    body,
    headers: { origin: "http://localhost:3000", ...(cookie ? { cookie } : {}) },
  });
  const response = await action({ request, context, params: {} } as never);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe.each(testTargets)("application submission on %s", (target) => {
  const database = useTestDatabase({ target, global: true });
  let storage: DocumentStorage;
  let cookie: string;
  let otherCookie: string;
  let userId: string;

  async function signUp(email: string) {
    const { headers, response } = await getAuth().api.signUpEmail({
      body: { name: "Jane Doe", email, password: "Str0ng!Passw0rd" },
      returnHeaders: true,
    });
    return { cookie: headers.getSetCookie().map((c) => c.split(";")[0]).join("; "), id: response.user.id };
  }

  beforeAll(async () => {
    storage = createLocalStorage(fs.mkdtempSync(path.join(dataDir, `storage-${target}-`)));
    setStorage(storage);
    const a = await signUp(`applicant-${target}@example.com`);
    cookie = a.cookie;
    userId = a.id;
    otherCookie = (await signUp(`other-${target}@example.com`)).cookie;
  });
  afterAll(() => setStorage(undefined));

  const rowCount = async () =>
    Number((await database().db.select({ n: sql<number>`count(*)` }).from(loanApplications))[0]!.n);

  it("stores the application, documents, bank account and both e-mails; sensitive values are ciphertext", async () => {
    const res = await post(form(validFields, validFiles()), cookie);
    expect(res.status).toBe(201);
    const id = res.body.applicationId as string;
    const db = database().db;

    const [app] = await db.select().from(loanApplications).where(eq(loanApplications.id, id));
    expect(app).toMatchObject({ userId, status: "pending", loanType: "personal", requestedAmountCents: 5_000_000, middleInitial: "Q", phone: "3025550199" });
    expect(isEncrypted(app!.ssnEncrypted)).toBe(true);
    expect(app!.ssnEncrypted).not.toContain("6789");
    expect(decryptField(app!.ssnEncrypted!, ENCRYPTION_PURPOSES.ssn)).toBe("123456789");

    const [bank] = await db.select().from(bankAccounts).where(eq(bankAccounts.applicationId, id));
    expect(bank!.accountNumber).not.toContain("123456789");
    expect(decryptField(bank!.accountNumber, ENCRYPTION_PURPOSES.accountNumber)).toBe("000123456789");
    expect(decryptField(bank!.routingNumber, ENCRYPTION_PURPOSES.routingNumber)).toBe("021000021");
    expect(bank).toMatchObject({ accountNumberLast4: "6789", routingNumberLast2: "21", isPrimary: true });

    const docs = await db.select().from(loanDocuments).where(eq(loanDocuments.applicationId, id));
    expect(docs.map((d) => d.documentType).sort()).toEqual(
      ["bank_statement_1", "bank_statement_2", "bank_statement_3", "id_card_back", "id_card_front", "signature", "utility_bill"].sort(),
    );
    for (const doc of docs) {
      // Stored under our own key (type and extension), never under the borrower's file name.
      expect(doc.filePath).toBe(`${userId}/${id}/${doc.documentType}.${doc.mimeType === "image/jpeg" ? "jpg" : doc.mimeType === "image/png" ? "png" : "pdf"}`);
      expect(await storage.exists(doc.filePath)).toBe(true);
    }
    expect(docs.find((d) => d.documentType === "id_card_front")).toMatchObject({ mimeType: "image/jpeg", fileName: "front.jpg" });
    expect(docs.find((d) => d.documentType === "signature")!.fileName).toBe("signature.png");
    // The names the borrower gave are kept for display.
    expect(docs.find((d) => d.documentType === "bank_statement_1")!.fileName).toBe("jan.pdf");

    const mails = await db.select().from(emailOutbox).where(sql`${emailOutbox.textBody} like ${`%${id}%`}`);
    expect(mails.map((m) => m.toAddress).sort()).toEqual([`applicant-${target}@example.com`, "lender@example.com"]);
    for (const mail of mails) expect(mail.textBody).not.toMatch(/6789|021000021/);

    // A second application: its bank account is not primary.
    const second = await post(form(validFields, validFiles()), cookie);
    const [bank2] = await db.select().from(bankAccounts).where(eq(bankAccounts.applicationId, second.body.applicationId as string));
    expect(bank2!.isPrimary).toBe(false);
  });

  it("the same idempotency key twice (also at once) gives one application", async () => {
    const key = newKey();
    const before = await rowCount();
    const [a, b] = await Promise.all([post(form(validFields, validFiles(), key), cookie), post(form(validFields, validFiles(), key), cookie)]);
    const c = await post(form(validFields, validFiles(), key), cookie);
    expect(new Set([a.body.applicationId, b.body.applicationId, c.body.applicationId]).size).toBe(1);
    expect(c.status).toBe(200);
    expect(await rowCount()).toBe(before + 1);
    const id = a.body.applicationId as string;
    expect((await storage.list(`${userId}/`)).filter((k) => !k.includes(id)).every((k) => !k.includes(key))).toBe(true);
  });

  it("a failure after the files are written leaves no rows and no files", async () => {
    const failing: DocumentStorage = { ...storage, put: storage.put, describe: "failing" };
    const filesBefore = await storage.list();
    const before = await rowCount();
    const { submitApplication } = await import("~/server/applications/submit.server");
    const { parseSubmission } = await import("~/server/applications/upload-parser.server");
    const request = new Request("http://localhost/api/applications", { method: "POST", body: form(validFields, validFiles()) });
    const parsed = await parseSubmission(request);
    await expect(
      submitApplication({ id: userId, name: "Jane", email: "j@example.com" }, parsed, {
        storage: failing,
        hooks: {
          afterFilesWritten: async () => {
            expect((await storage.list()).length).toBe(filesBefore.length + 7);
            throw new Error("injected failure");
          },
        },
      }),
    ).rejects.toThrow("injected failure");
    await parsed.dispose?.();
    expect(await rowCount()).toBe(before);
    expect(await storage.list()).toEqual(filesBefore);
  });

  it("a failure inside the transaction (a database constraint) rolls everything back and removes the files", async () => {
    const filesBefore = await storage.list();
    const before = await rowCount();
    await database().db.execute(sql`alter table bank_accounts add constraint test_block check (bank_name <> 'Blocked Bank')`);
    try {
      const res = await post(form({ ...validFields, bankName: "Blocked Bank" }, validFiles()), cookie);
      expect(res.status).toBe(503);
      expect(res.body.message).toBe("Failed to submit application");
    } finally {
      await database().db.execute(sql`alter table bank_accounts drop constraint test_block`);
    }
    expect(await rowCount()).toBe(before);
    expect(await storage.list()).toEqual(filesBefore);
  });

  it.each([
    ["an .exe renamed .pdf", { utilityBill: { bytes: makeExe(), name: "bill.pdf", type: "application/pdf" } }, 400, 4, "utilityBill"],
    ["a PNG missing its end", { idCardBack: { bytes: makePng().subarray(0, 40), name: "b.png", type: "image/png" } }, 400, 4, "idCardBack"],
    ["a file over 5 MB", { bankStatement1: { bytes: makePdf(5 * 1024 * 1024 + 10), name: "big.pdf", type: "application/pdf" } }, 413, 4, "bankStatement1"],
    ["a zero-byte file", { bankStatement2: { bytes: Buffer.alloc(0), name: "empty.pdf", type: "application/pdf" } }, 400, 4, "bankStatement2"],
    ["a signature that is not a PNG", { signature: { bytes: makeJpeg(), name: "signature.png", type: "image/png" } }, 400, 5, "signature"],
  ])("refuses %s with the step and field, storing nothing", async (_name, override, status, step, field) => {
    const filesBefore = await storage.list();
    const before = await rowCount();
    const res = await post(form(validFields, { ...validFiles(), ...override }), cookie);
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ ok: false, step, field });
    expect(await rowCount()).toBe(before);
    expect(await storage.list()).toEqual(filesBefore);
  });

  it.each([
    ["a missing document", () => {
      const f = validFiles();
      delete (f as Record<string, unknown>).utilityBill;
      return form(validFields, f);
    }, 400, { step: 4, field: "utilityBill", message: "Please upload all required documents" }],
    ["a routing number of 8 digits", () => form({ ...validFields, routingNumber: "12345678" }, validFiles()), 400, { step: 4, field: "routingNumber", message: "Routing number must be exactly 9 digits" }],
    ["a rate of 40 %", () => form({ ...validFields, desiredInterestRate: "40" }, validFiles()), 400, { step: 2, message: "Interest rate must be between 5.99% and 35.99%" }],
    ["a 17-year-old applicant", () => form({ ...validFields, dateOfBirth: `${new Date().getUTCFullYear() - 17}-01-01` }, validFiles()), 400, { step: 1, field: "dateOfBirth" }],
    ["terms not agreed", () => form({ ...validFields, agreeToTerms: "" }, validFiles()), 400, { step: 5, message: "Please agree to the terms and conditions" }],
    ["a user id in the body", () => {
      const f = form(validFields, validFiles());
      f.append("userId", "someone-else");
      return f;
    }, 400, { field: "userId" }],
    ["an application id in the body", () => {
      const f = form(validFields, validFiles());
      f.append("applicationId", "00000000-0000-0000-0000-000000000000");
      return f;
    }, 400, { field: "applicationId" }],
    ["no idempotency key", () => form(validFields, validFiles(), null), 400, {}],
  ])("refuses %s (4xx, nothing stored)", async (_name, build, status, expected) => {
    const before = await rowCount();
    const filesBefore = await storage.list();
    const res = await post(build(), cookie);
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ ok: false, ...expected });
    expect(await rowCount()).toBe(before);
    expect(await storage.list()).toEqual(filesBefore);
  });

  it("answers the spec's SSN message when the SSN cannot be encrypted, storing nothing", async () => {
    const { getConfig, setConfig } = await import("~/server/platform/config.server");
    const config = getConfig();
    const before = await rowCount();
    const filesBefore = await storage.list();
    setConfig({ ...config, encryptionKeys: [] });
    try {
      const res = await post(form(validFields, validFiles()), cookie);
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ ok: false, step: 1, field: "ssn", message: "Failed to securely process your SSN. Please try again." });
    } finally {
      setConfig(config);
    }
    expect(await rowCount()).toBe(before);
    expect(await storage.list()).toEqual(filesBefore);
  });

  it("refuses NUL and other control characters in any text field with a 400 naming the field, storing and logging none of it", async () => {
    const errors: string[] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void errors.push(args.map(String).join(" ")));
    try {
      await database().db.execute(sql`delete from rate_limit_hits`); // the earlier cases used this hour's submissions
      const before = await rowCount();
      for (const [field, bad] of [
        ["addressLine1", "12 Market\u0000Street"],
        ["city", "Wilmington\u0007"],
        ["loanPurpose", "Consolidating two cards\u0000 into one payment"],
        ["employerName", "Acme\u001bCorp"],
        ["bankName", "First\u0085Bank"],
        ["jobTitle", "\u0000"],
      ] as const) {
        const res = await post(form({ ...validFields, [field]: bad }, validFiles()), cookie);
        expect(res.status, field).toBe(400);
        expect(res.body).toMatchObject({ ok: false, field, message: CONTROL_CHARACTER_MESSAGE });
      }
      expect(await rowCount()).toBe(before);
      // Line breaks and tabs in a text area are ordinary text.
      const multiLine = await post(form({ ...validFields, loanPurpose: "Two cards:\r\n\tone payment instead" }, validFiles()), cookie);
      expect(multiLine.status).toBe(201);
    } finally {
      spy.mockRestore();
    }
    expect(errors.join("\n")).not.toMatch(/Wilmington|Market|Acme|Jane|1988-04-12|102,?000/);
  });

  it("refuses what the lending rules refuse with a 400 naming the step, the field and the rule; a retired applicant names no employer", async () => {
    await database().db.execute(sql`delete from rate_limit_hits`); // the earlier cases used this hour's submissions
    const before = await rowCount();
    for (const [changes, expected] of [
      [{ loanAmount: "1,000" }, { step: 2, field: "loanAmount", message: "Personal Loan amounts are from $5,000 to $5,000,000." }],
      [{ loanType: "hard-money", loanAmount: "200,000", propertyAddress: "1 Main St", loanDuration: "60" }, { step: 2, field: "loanDuration" }],
      [{ routingNumber: "123456789" }, { step: 4, field: "routingNumber", message: APPLICATION_MESSAGES.routingChecksum }],
      // The check digit is right, but the first two digits are no Federal Reserve routing symbol.
      [{ routingNumber: "501200312" }, { step: 4, field: "routingNumber", message: APPLICATION_MESSAGES.routingSymbol }],
      [{ routingNumber: "999999992" }, { step: 4, field: "routingNumber", message: APPLICATION_MESSAGES.routingSymbol }],
      [{ ssn: "000-00-0000" }, { step: 1, field: "ssn", message: APPLICATION_MESSAGES.ssnNotIssued }],
      [{ ssn: "666-12-3456" }, { step: 1, field: "ssn" }],
      [{ employerName: "" }, { step: 3, field: "employerName" }],
    ] as const) {
      const res = await post(form({ ...validFields, ...changes }, validFiles()), cookie);
      expect(res.status, JSON.stringify(changes)).toBe(400);
      expect(res.body).toMatchObject({ ok: false, ...expected });
    }
    expect(await rowCount()).toBe(before);
    const retired = await post(form({ ...validFields, employmentStatus: "retired", employerName: "" }, validFiles()), cookie);
    expect(retired.status).toBe(201);
  });

  it("refuses an unauthenticated post", async () => {
    const res = await post(form(validFields, validFiles()));
    expect(res.status).toBe(401);
    expect(res.body.message).toBe("Please sign in to submit your application");
  });

  it("files each application under its own user, whoever posts", async () => {
    const res = await post(form(validFields, validFiles()), otherCookie);
    expect(res.status).toBe(201);
    const [app] = await database().db.select().from(loanApplications).where(eq(loanApplications.id, res.body.applicationId as string));
    expect(app!.userId).not.toBe(userId);
  });

  it("keeps no spooled upload once a submission is answered: stored, refused or cut off mid-upload", async () => {
    const spool = path.join(dataDir, "uploads");
    const leftovers = () => (fs.existsSync(spool) ? fs.readdirSync(spool) : []);
    // Its own applicant: the others are near the hourly submission limit.
    const { cookie } = await signUp(`spool-${target}-${Date.now()}@example.com`);
    expect((await post(form(validFields, validFiles()), cookie)).status).toBe(201);
    const bad = { ...validFiles(), utilityBill: { bytes: makeExe(), name: "bill.pdf", type: "application/pdf" } };
    expect((await post(form(validFields, bad), cookie)).status).toBe(400);
    const huge = { ...validFiles(), bankStatement1: { bytes: makePdf(5 * 1024 * 1024 + 10), name: "big.pdf", type: "application/pdf" } };
    expect((await post(form(validFields, huge), cookie)).status).toBe(413);

    // A sender that goes away halfway through the second document.
    const whole = new Uint8Array(await new Response(form(validFields, validFiles())).arrayBuffer());
    const boundaryType = new Response(form(validFields, validFiles())).headers.get("content-type")!;
    const cut = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(whole.subarray(0, Math.floor(whole.length / 3)));
        setTimeout(() => controller.error(new Error("connection reset")), 20);
      },
    });
    const request = new Request("http://localhost:3000/api/applications", {
      method: "POST",
      body: cut,
      duplex: "half",
      headers: { origin: "http://localhost:3000", cookie, "content-type": boundaryType.replace(/boundary=.*/, `boundary=${boundaryOf(whole)}`) },
    } as RequestInit);
    const response = await action({ request, context, params: {} } as never);
    expect(response.status).toBe(400);
    expect(leftovers()).toEqual([]);
  });
});

/** The multipart boundary a serialized form starts with ("--" + boundary + CRLF). */
function boundaryOf(body: Uint8Array): string {
  const firstLine = Buffer.from(body.subarray(0, 200)).toString("latin1").split("\r\n")[0]!;
  return firstLine.slice(2);
}
