import { formatDay } from "~/domain/formats";
import { and, eq } from "drizzle-orm";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "~/domain/enums";
import { CONVERSATION_LIMITS } from "~/domain/conversation-enums";
import { isoDateAfter } from "~/domain/validation/requests";
import type { AuditActor } from "~/server/platform/audit/audit.server";
import { applicantRequestAction, staffRequestAction } from "~/server/conversation/request-actions.server";
import { answerWithReply, answerWithUpload, createRequest, listRequestItems, reviewItem } from "~/server/conversation/requests.server";
import { listTimeline } from "~/server/conversation/timeline.server";
import { applicationEvents, auditLog, emailOutbox, loanApplications, loanDocuments, requestItems } from "~/server/platform/db/schema.server";
import { createLocalStorage, type DocumentStorage } from "~/server/platform/storage/storage.server";
import { applicationRow } from "../helpers/application-rows";
import { makeExe, makePdf, makePng } from "../helpers/files";
import { setUpTestConfig } from "../helpers/temp-config";
import { useTestDatabase } from "../helpers/test-db";
import { isAppError } from "~/server/platform/http/app-error.server";
import { seedApplicant } from "../helpers/seed";

/**
 * What We Need (issue 19) against a real database: Request Documents (items, timeline, audit, the Reg B
 * notice of incompleteness e-mail), Upload and Reply by the applicant (their own items only), Accept and
 * Reject by staff, every transition and its refusals, and two people acting at once.
 */

const dataDir = setUpTestConfig("request-items", { APP_SECRET: "r".repeat(48), PUBLIC_URL: "https://loans.example.com" });

const admin: AuditActor = { id: "staff-ada", name: "Ada Admin", email: "ada@example.com" };
const jane = { id: "applicant-jane", name: "Jane Doe", email: "jane.account@example.com" };
const john = { id: "applicant-john", name: "John Roe", email: "john.account@example.com" };
const info = { ip: "203.0.113.7", userAgent: "vitest" };
const ORIGIN = "http://localhost:3000";

describe("What We Need", () => {
  const database = useTestDatabase({ global: true });
  const db = () => database().db;
  let storage: DocumentStorage;
  const due = isoDateAfter(7);

  async function newApplication(owner: { id: string }, status: "pending" | "under_review" | "approved" | "denied" = "pending") {
    const [row] = await db()
      .insert(loanApplications)
      .values(applicationRow(owner.id, { status, ...(status === "approved" || status === "denied" ? { reviewedAt: new Date(), decisionReasons: ["Credit history"] } : {}), ssnEncrypted: "enc:v1:SECRETSSN", firstName: "Janet", lastName: "Quintessa", email: "janet.quintessa@example.com" }))
      .returning({ id: loanApplications.id });
    return row!.id;
  }

  const itemsOf = (applicationId: string) => db().select().from(requestItems).where(eq(requestItems.applicationId, applicationId));
  const eventsOf = (applicationId: string) => db().select().from(applicationEvents).where(eq(applicationEvents.applicationId, applicationId));
  const pdfFile = () => ({ filename: "statement.pdf", declaredType: "application/pdf", bytes: makePdf(3000) });

  beforeAll(async () => {
    storage = createLocalStorage(path.join(dataDir, "storage"));
    for (const who of [jane, john, { id: admin.id, name: admin.name, email: admin.email }]) {
      await seedApplicant(db(), { id: who.id, name: who.name, email: who.email, profile: true });
    }
  });

  it("Request Documents: items with one request id, a timeline entry, an audit row and the notice of incompleteness", async () => {
    const appId = await newApplication(jane);
    const { requestId, itemIds } = await createRequest(
      appId,
      {
        items: [
          { kind: "pay_stub", note: "Your last two pay stubs, please (SSN 123-45-6789 visible is fine)" },
          { kind: "tax_return", note: null },
          { kind: "question", note: "Why did you change employer in 2024?" },
        ],
        dueDate: due,
      },
      { actor: admin, request: info },
    );
    expect(itemIds).toHaveLength(3);
    const items = await itemsOf(appId);
    expect(items.every((i) => i.requestId === requestId && i.status === "requested" && i.dueDate === due && i.userId === jane.id)).toBe(true);

    const events = await eventsOf(appId);
    expect(events.map((e) => [e.kind, e.summary])).toEqual([["documents_requested", `Pay Stub, Tax Return, Question · due ${due}`]]);
    const audits = await db().select().from(auditLog).where(and(eq(auditLog.action, "request.create"), eq(auditLog.recordId, appId)));
    expect(audits).toHaveLength(1);

    const [mail] = await db().select().from(emailOutbox).where(eq(emailOutbox.template, "documents-requested"));
    expect(mail!.toAddress).toBe(jane.email);
    const longDue = new Date(`${due}T00:00:00Z`).toLocaleDateString("en-US", { dateStyle: "medium", timeZone: "UTC" });
    for (const body of [mail!.textBody, mail!.htmlBody!]) {
      expect(body).toContain(longDue);
      // The applicant by first name (as on the application), and each item in plain words.
      expect(body).toContain("Hello Janet,");
      expect(body).not.toContain("Hello there");
      expect(body).toContain("Pay Stub: upload a copy (one or more files, up to 5)");
      expect(body).toContain("Tax Return: upload a copy");
      expect(body).toContain("Answer a question from your loan specialist");
      expect(body).not.toMatch(/\bQuestion\b/);
      expect(body).toContain("may close your application as incomplete");
      expect(body).toContain(`https://loans.example.com/dashboard/applications/${appId}`);
      // Nothing personal or financial beyond the first name: not the note (it may repeat details), the question, the surname, amount, SSN or e-mail.
      for (const secret of ["123-45-6789", "pay stubs, please", "employer", "Quintessa", "Jane ", "25,000", "25000", "janet.quintessa", "SECRETSSN"]) {
        expect(body).not.toContain(secret);
      }
    }
    expect(mail!.subject).not.toMatch(/Jane|Janet|\$/);

    // The applicant's view lists the items with the note; the timeline shows the lender, not a name.
    const view = await listRequestItems(appId);
    expect(view.map((i) => [i.kindLabel, i.statusLabel])).toEqual([
      ["Pay Stub", "Requested"],
      ["Tax Return", "Requested"],
      ["Question", "Requested"],
    ]);
    const timeline = await listTimeline(appId, { id: jane.id, side: "applicant" });
    expect(timeline[0]).toMatchObject({ title: "Documents Requested", actor: "Private Loans" });
  });

  it("a decided application refuses a request (409), and an unknown one is 404; nothing is written", async () => {
    for (const status of ["approved", "denied"] as const) {
      const appId = await newApplication(jane, status);
      await expect(createRequest(appId, { items: [{ kind: "id_document", note: null }], dueDate: due }, { actor: admin, request: info })).rejects.toMatchObject({ status: 409 });
      expect(await itemsOf(appId)).toHaveLength(0);
      expect(await eventsOf(appId)).toHaveLength(0);
    }
    await expect(createRequest("00000000-0000-4000-8000-000000000000", { items: [{ kind: "id_document", note: null }], dueDate: due }, { actor: admin, request: info })).rejects.toMatchObject({
      status: 404,
    });
  });

  it("requested → received (upload) → rejected with a reason → received again → accepted, each on the timeline", async () => {
    const appId = await newApplication(jane, "under_review");
    const { itemIds } = await createRequest(appId, { items: [{ kind: "bank_statement", note: null }], dueDate: due }, { actor: admin, request: info });
    const itemId = itemIds[0]!;

    const first = await answerWithUpload(appId, itemId, pdfFile(), jane, { storage });
    const [doc] = await db().select().from(loanDocuments).where(eq(loanDocuments.id, first.documentId));
    expect(doc).toMatchObject({ applicationId: appId, userId: jane.id, documentType: "bank_statement", requestItemId: itemId, mimeType: "application/pdf" });
    expect(doc!.filePath.startsWith(`${jane.id}/${appId}/bank_statement_`)).toBe(true);
    // Stored under our own key; the name the applicant gave the file is kept for display only.
    expect(doc!.filePath).not.toContain("statement.pdf");
    expect(doc!.fileName).toBe("statement.pdf");
    expect(await storage.exists(doc!.filePath)).toBe(true);
    expect((await itemsOf(appId))[0]!.status).toBe("received");

    // A second file joins the answer in review ("two most recent statements").
    await answerWithUpload(appId, itemId, pdfFile(), jane, { storage });
    expect(await db().select().from(loanDocuments).where(eq(loanDocuments.requestItemId, itemId))).toHaveLength(2);
    expect((await itemsOf(appId))[0]).toMatchObject({ status: "received", fileCount: 2 });

    await reviewItem(appId, itemId, { accept: false, reason: "The statement is cut off at the bottom" }, { actor: admin, request: info });
    let view = (await listRequestItems(appId))[0]!;
    expect(view).toMatchObject({ status: "rejected", statusLabel: "Rejected", rejectionReason: "The statement is cut off at the bottom", fileCount: 0 });
    // Both files stay on file, shown as an earlier answer.
    expect(view.documents.map((d) => d.current)).toEqual([false, false]);
    // Rejecting or accepting again is a state error.
    await expect(reviewItem(appId, itemId, { accept: true }, { actor: admin, request: info })).rejects.toMatchObject({ status: 409 });

    await answerWithUpload(appId, itemId, { filename: "scan.png", declaredType: "image/png", bytes: makePng(16, 16) }, jane, { storage });
    view = (await listRequestItems(appId))[0]!;
    expect(view.status).toBe("received");
    expect(view.documents.map((d) => d.current)).toEqual([true, false, false]);

    await reviewItem(appId, itemId, { accept: true }, { actor: admin, request: info });
    view = (await listRequestItems(appId))[0]!;
    expect(view).toMatchObject({ status: "accepted", statusLabel: "Accepted", rejectionReason: null });

    const timeline = await listTimeline(appId, { id: jane.id, side: "applicant" });
    expect(timeline.map((t) => t.title).reverse()).toEqual([
      "Documents Requested",
      "Document Received",
      "Document Received",
      "Document Rejected",
      "Document Received",
      "Document Accepted",
    ]);
    expect(timeline.find((t) => t.kind === "document_rejected")!.summary).toBe("Bank Statement: The statement is cut off at the bottom");
    const audits = await db().select().from(auditLog).where(eq(auditLog.recordId, itemId));
    expect(audits.map((a) => a.action).sort()).toEqual(["request.accept", "request.reject"]);
  });

  it("Reply answers a question item; a document item refuses a reply and a question item refuses a file", async () => {
    const appId = await newApplication(jane);
    const { itemIds } = await createRequest(
      appId,
      { items: [{ kind: "question", note: "Tell us about the property" }, { kind: "id_document", note: null }], dueDate: due },
      { actor: admin, request: info },
    );
    const [question, idDoc] = itemIds as [string, string];
    await expect(answerWithReply(appId, idDoc, "words", jane)).rejects.toMatchObject({ status: 400 });
    await expect(answerWithUpload(appId, question, pdfFile(), jane, { storage })).rejects.toMatchObject({ status: 400 });
    await answerWithReply(appId, question, "A duplex, built 1998.", jane);
    const view = await listRequestItems(appId);
    expect(view.map((i) => i.kind)).toEqual(["question", "id_document"]);
    expect(view[0]).toMatchObject({ status: "received", replyText: "A duplex, built 1998." });
    await expect(answerWithReply(appId, question, "again", jane)).rejects.toMatchObject({ status: 409 });
    expect((await eventsOf(appId)).map((e) => e.kind).sort()).toEqual(["documents_requested", "reply_received"]);
  });

  it("another applicant's item or application is not found (404), exactly like a missing one", async () => {
    const appId = await newApplication(jane);
    const { itemIds } = await createRequest(appId, { items: [{ kind: "pay_stub", note: null }, { kind: "question", note: null }], dueDate: due }, { actor: admin, request: info });
    const johnsApp = await newApplication(john);
    for (const attempt of [
      () => answerWithUpload(appId, itemIds[0]!, pdfFile(), john, { storage }),
      () => answerWithReply(appId, itemIds[1]!, "hi", john),
      // John's own application id with Jane's item id.
      () => answerWithUpload(johnsApp, itemIds[0]!, pdfFile(), john, { storage }),
      () => answerWithReply(appId, "00000000-0000-4000-8000-000000000000", "hi", jane),
    ]) {
      const error = await attempt().catch((e: unknown) => e);
      expect(error).toSatisfy((e) => isAppError(e, "request"));
      expect(error).toMatchObject({ status: 404, message: "This item could not be found." });
    }
    expect((await itemsOf(appId)).every((i) => i.status === "requested")).toBe(true);
    // Staff reviewing an item through the wrong application: 404.
    await expect(reviewItem(johnsApp, itemIds[0]!, { accept: true }, { actor: admin, request: info })).rejects.toMatchObject({ status: 404 });
  });

  it("a fake PDF is refused with the wizard's reason and nothing is stored", async () => {
    const appId = await newApplication(jane);
    const { itemIds } = await createRequest(appId, { items: [{ kind: "pay_stub", note: null }], dueDate: due }, { actor: admin, request: info });
    const fake = { filename: "paystub.pdf", declaredType: "application/pdf", bytes: makeExe() };
    await expect(answerWithUpload(appId, itemIds[0]!, fake, jane, { storage })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("Pay Stub: the file's content is not a complete PDF, JPG or PNG") as string,
    });
    const mislabelled = { filename: "paystub.png", declaredType: "image/png", bytes: makePdf() };
    await expect(answerWithUpload(appId, itemIds[0]!, mislabelled, jane, { storage })).rejects.toMatchObject({ status: 400 });
    expect(await storage.list(`${jane.id}/${appId}/`)).toEqual([]);
    expect((await itemsOf(appId))[0]!.status).toBe("requested");
  });

  it("an answer holds at most 5 files: the 6th is refused (409) and not kept", async () => {
    const appId = await newApplication(jane);
    const { itemIds } = await createRequest(appId, { items: [{ kind: "pay_stub", note: null }], dueDate: due }, { actor: admin, request: info });
    const itemId = itemIds[0]!;
    for (let i = 0; i < CONVERSATION_LIMITS.filesPerItem; i++) await answerWithUpload(appId, itemId, pdfFile(), jane, { storage });
    await expect(answerWithUpload(appId, itemId, pdfFile(), jane, { storage })).rejects.toMatchObject({
      status: 409,
      message: "This item already has 5 files, the most one answer can hold.",
    });
    expect(await db().select().from(loanDocuments).where(eq(loanDocuments.requestItemId, itemId))).toHaveLength(5);
    expect(await storage.list(`${jane.id}/${appId}/`)).toHaveLength(5);
    // The database holds the line too, whatever a writer does.
    await expect(db().update(requestItems).set({ fileCount: 6 }).where(eq(requestItems.id, itemId))).rejects.toThrow();
    // After a rejection a new answer starts with room for 5 again.
    await reviewItem(appId, itemId, { accept: false, reason: "Two of them are the same month" }, { actor: admin, request: info });
    await answerWithUpload(appId, itemId, pdfFile(), jane, { storage });
    expect((await itemsOf(appId))[0]).toMatchObject({ status: "received", fileCount: 1 });
  });

  it("parallel uploads never pass 5 files, and parallel reviews: exactly one wins, the others are told (409)", async () => {
    const appId = await newApplication(jane);
    const { itemIds } = await createRequest(appId, { items: [{ kind: "proof_of_address", note: null }], dueDate: due }, { actor: admin, request: info });
    const itemId = itemIds[0]!;
    const uploads = await Promise.allSettled(Array.from({ length: 8 }, () => answerWithUpload(appId, itemId, pdfFile(), jane, { storage })));
    expect(uploads.filter((u) => u.status === "fulfilled")).toHaveLength(5);
    expect(uploads.filter((u) => u.status === "rejected").map((u) => (u as PromiseRejectedResult).reason)).toEqual(
      Array.from({ length: 3 }, () => expect.objectContaining({ status: 409 })),
    );
    expect(await db().select().from(loanDocuments).where(eq(loanDocuments.requestItemId, itemId))).toHaveLength(5);
    expect(await storage.list(`${jane.id}/${appId}/`)).toHaveLength(5);
    expect((await itemsOf(appId))[0]!.fileCount).toBe(5);

    await db().delete(emailOutbox);
    const reviews = await Promise.allSettled([
      reviewItem(appId, itemId, { accept: true }, { actor: admin, request: info }),
      reviewItem(appId, itemId, { accept: false, reason: "Blurry" }, { actor: admin, request: info }),
      reviewItem(appId, itemId, { accept: true }, { actor: admin, request: info }),
    ]);
    expect(reviews.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect((await eventsOf(appId)).filter((e) => e.kind === "document_accepted" || e.kind === "document_rejected")).toHaveLength(1);
    // Only a rejection that won sends its e-mail.
    const rejected = (await itemsOf(appId))[0]!.status === "rejected";
    expect(await db().select().from(emailOutbox).where(eq(emailOutbox.template, "answer-rejected"))).toHaveLength(rejected ? 1 : 0);
  });

  it("a rejection e-mails the applicant by first name: which item, the staff's reason, what to do; no file name", async () => {
    const appId = await newApplication(jane, "under_review");
    const { itemIds } = await createRequest(appId, { items: [{ kind: "pay_stub", note: "SSN 123-45-6789" }, { kind: "question", note: "Why did you move?" }], dueDate: due }, { actor: admin, request: info });
    await answerWithUpload(appId, itemIds[0]!, { filename: "janet-quintessa-paystub.pdf", declaredType: "application/pdf", bytes: makePdf(2000) }, jane, { storage });
    await answerWithReply(appId, itemIds[1]!, "My landlord sold the house", jane);
    await db().delete(emailOutbox);
    await reviewItem(appId, itemIds[0]!, { accept: false, reason: "The pay period dates are cut off" }, { actor: admin, request: info });
    await reviewItem(appId, itemIds[1]!, { accept: false, reason: "Please give the month you moved" }, { actor: admin, request: info });
    const mails = await db().select().from(emailOutbox).where(eq(emailOutbox.template, "answer-rejected"));
    expect(mails).toHaveLength(2);
    const longDue = formatDay(due);
    const document = mails.find((m) => m.subject.includes("Pay Stub"))!;
    const answer = mails.find((m) => m !== document)!;
    expect(document.toAddress).toBe(jane.email);
    expect(document.subject).toBe("Private Loans: we could not accept your Pay Stub");
    for (const body of [document.textBody, document.htmlBody!]) {
      expect(body).toContain("Hello Janet,");
      expect(body).toContain("We reviewed the Pay Stub you uploaded for your application and could not accept it.");
      expect(body).toContain("The pay period dates are cut off");
      expect(body).toContain(`Please upload a new Pay Stub on your application`);
      expect(body).toContain(`s page by ${longDue}.`);
      for (const secret of ["janet-quintessa-paystub", ".pdf", "123-45-6789", "Quintessa"]) expect(body).not.toContain(secret);
    }
    expect(answer.subject).toBe("Private Loans: we could not accept your answer");
    expect(answer.textBody).toContain("Please give the month you moved");
    expect(answer.textBody).toContain("Please answer the question again on your application's page");
    for (const secret of ["landlord", "Why did you move"]) expect(answer.textBody).not.toContain(secret);
  });

  it("once the application is decided, answers and reviews are refused (409)", async () => {
    const appId = await newApplication(jane);
    const { itemIds } = await createRequest(appId, { items: [{ kind: "question", note: null }, { kind: "pay_stub", note: null }], dueDate: due }, { actor: admin, request: info });
    await answerWithReply(appId, itemIds[0]!, "answer", jane);
    await db().update(loanApplications).set({ status: "denied", reviewedAt: new Date() }).where(eq(loanApplications.id, appId));
    await expect(answerWithUpload(appId, itemIds[1]!, pdfFile(), jane, { storage })).rejects.toMatchObject({ status: 409, message: "This application is no longer under review." });
    await expect(reviewItem(appId, itemIds[0]!, { accept: true }, { actor: admin, request: info })).rejects.toMatchObject({ status: 409 });
  });

  describe("the actions' input checks (400, never 500)", () => {
    let appId: string;
    beforeAll(async () => {
      appId = await newApplication(jane);
    });
    const post = (fields: [string, string][]) => {
      const body = new URLSearchParams(fields);
      return new Request(`${ORIGIN}/admin/applications/${appId}/requests`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
        body,
      });
    };
    const staff = async (fields: [string, string][]) => staffRequestAction(post(fields), appId, { actor: admin, request: info });

    it("refuses bad kinds, notes, due dates and too many items", async () => {
      const cases: [string, [string, string][], string][] = [
        ["bad kind", [["intent", "request"], ["kind", "passport_scan"], ["note", ""], ["dueDate", due]], "Choose what you need"],
        ["no items", [["intent", "request"], ["dueDate", due]], "Add at least one item"],
        ["long note", [["intent", "request"], ["kind", "pay_stub"], ["note", "x".repeat(CONVERSATION_LIMITS.requestNoteMaxLength + 1)], ["dueDate", due]], "at most 1000"],
        ["control chars", [["intent", "request"], ["kind", "pay_stub"], ["note", "hi\u0000there"], ["dueDate", due]], "control codes"],
        ["past due", [["intent", "request"], ["kind", "pay_stub"], ["note", ""], ["dueDate", isoDateAfter(-1)]], "cannot be in the past"],
        ["far due", [["intent", "request"], ["kind", "pay_stub"], ["note", ""], ["dueDate", isoDateAfter(200)]], "within 90 days"],
        ["bad date", [["intent", "request"], ["kind", "pay_stub"], ["note", ""], ["dueDate", "2026-02-30"]], "yyyy-MM-dd"],
        [
          "eleven items",
          [["intent", "request"], ...Array.from({ length: CONVERSATION_LIMITS.requestItemsMax + 1 }, (): [string, string] => ["kind", "pay_stub"]), ["dueDate", due]],
          "at most 10 items",
        ],
        ["reject without reason", [["intent", "reject"], ["itemId", "00000000-0000-4000-8000-000000000000"], ["reason", "  "]], "Say why"],
        ["bad item id", [["intent", "accept"], ["itemId", "1; drop table"]], "could not be identified"],
        ["unknown intent", [["intent", "approve-everything"]], "Unknown action"],
      ];
      for (const [name, fields, message] of cases) {
        const result = await staff(fields);
        expect(result.status, name).toBe(400);
        expect(result.body.ok, name).toBe(false);
        expect(JSON.stringify(result.body.toast), name).toContain(message);
      }
      expect(await itemsOf(appId)).toHaveLength(0);
      const noQuestion = await staff([["intent", "request"], ["kind", "question"], ["note", " "], ["dueDate", due]]);
      expect(noQuestion.status).toBe(400);
      expect(noQuestion.body.toast?.description).toBe("Write the question you are asking");
      const ok = await staff([["intent", "request"], ["kind", "pay_stub"], ["note", ""], ["kind", "question"], ["note", "Who is your employer?"], ["dueDate", due]]);
      expect(ok.status).toBe(200);
      expect(ok.body.toast).toMatchObject({ title: "Documents requested" });
      expect((await itemsOf(appId)).map((i) => [i.kind, i.note]).sort()).toEqual([
        ["pay_stub", null],
        ["question", "Who is your employer?"],
      ]);
    });

    it("refuses an oversized or control-character reply, and uploads through multipart with the content checks", async () => {
      const items = await itemsOf(appId);
      const question = items.find((i) => i.kind === "question")!;
      const payStub = items.find((i) => i.kind === "pay_stub")!;
      const reply = (text: string) =>
        applicantRequestAction(
          new Request(`${ORIGIN}/dashboard/applications/${appId}/requests`, {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
            body: new URLSearchParams({ intent: "reply", itemId: question.id, reply: text }),
          }),
          appId,
          jane,
        );
      expect((await reply("x".repeat(CONVERSATION_LIMITS.requestReplyMaxLength + 1))).status).toBe(400);
      expect((await reply("bell\u0007")).status).toBe(400);
      expect((await reply("   ")).status).toBe(400);

      const upload = (bytes: Buffer, filename: string, type: string, extra: [string, string][] = []) => {
        const form = new FormData();
        form.set("intent", "upload");
        form.set("itemId", payStub.id);
        for (const [k, v] of extra) form.append(k, v);
        form.set("file", new Blob([new Uint8Array(bytes)], { type }), filename);
        return applicantRequestAction(new Request(`${ORIGIN}/dashboard/applications/${appId}/requests`, { method: "POST", body: form }), appId, jane);
      };
      const fake = await upload(makeExe(), "stub.pdf", "application/pdf");
      expect(fake.status).toBe(400);
      expect(fake.body.toast?.description).toContain("Pay Stub: the file's content is not a complete PDF, JPG or PNG");
      const tooBig = await upload(Buffer.alloc(LIMITS.maxDocumentBytes + 10, 1), "big.pdf", "application/pdf");
      expect(tooBig.status).toBe(413);
      const extra = await upload(makePdf(), "stub.pdf", "application/pdf", [["kind", "x"]]);
      expect(extra.status).toBe(400);
      const good = await upload(makePdf(), "stub.pdf", "application/pdf");
      expect(good.status).toBe(200);
      expect((await itemsOf(appId)).find((i) => i.id === payStub.id)!.status).toBe("received");
      // Every upload, accepted or refused, was spooled to disk and its spool folder removed afterwards.
      expect(fs.readdirSync(path.join(dataDir, "uploads"))).toEqual([]);
    });
  });
});
