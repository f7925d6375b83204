import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "~/domain/enums";
import { CONVERSATION_LIMITS } from "~/domain/conversation-enums";
import { isoDateAfter } from "~/domain/validation/requests";
import { signInAdminWithMfa } from "../helpers/admins";
import { signUpOverHttp } from "../helpers/applicants";
import { submitApplication } from "../helpers/applications";
import { makeExe, makePdf, makePng } from "../helpers/files";
import type { SmtpSink } from "../helpers/smtp-sink";
import type { TestServer } from "./harness";
import { startServerWithMail, stopStack } from "./helpers/stack";
import { handPost } from "./helpers/chunked-post";
import { leaksInternals, refusalProblems } from "./helpers/refusal";

/**
 * Hostile input to every field of What We Need (issue 19), each posted by the actor the action is for
 * (so the refusal comes from validation, not from the guard): oversized notes, reasons and replies,
 * control characters, unknown kinds, due dates in the past or far ahead, too many items, fake and
 * disguised files, too large a file, extra parts. Every answer is a 4xx with a readable message and no
 * server internals, and nothing changes: the items stay as requested, until a proper answer goes through.
 */

const ADMIN = { email: "hostile.requests.admin@example.com", password: "Adm1n!Secret" };
const CONTROL = ["nul\u0000", "bell\u0007", "esc\u001b[31m", "csi\u009b"];

describe("hostile input to What We Need", () => {
  let sink: SmtpSink;
  let server: TestServer;
  let applicant: string;
  let admin: string;
  let appId: string;
  let payStub: string;
  let question: string;

  const staffPath = () => `/admin/applications/${appId}/requests`;
  const applicantPath = () => `/dashboard/applications/${appId}/requests`;
  const post = async (path: string, cookie: string, body: BodyInit) => {
    const res = await fetch(`${server.url}${path}`, { method: "POST", body, headers: { cookie, origin: server.url }, redirect: "manual" });
    return { status: res.status, body: await res.text(), contentType: res.headers.get("content-type") ?? "" };
  };
  const fields = (pairs: [string, string][]) => new URLSearchParams(pairs);
  const upload = (itemId: string, bytes: Buffer, name: string, type: string, extra: (f: FormData) => void = () => undefined) => {
    const f = new FormData();
    f.append("intent", "upload");
    f.append("itemId", itemId);
    extra(f);
    f.append("file", new Blob([new Uint8Array(bytes)], { type }), name);
    return f;
  };

  /** The items as the staff page shows them: kind, status. */
  async function itemsOnPage(): Promise<[string, string][]> {
    const html = await (await fetch(`${server.url}/admin/applications/${appId}`, { headers: { cookie: admin } })).text();
    return [...html.matchAll(/data-status="(\w+)" data-kind="(\w+)"/g)].map((m) => [m[2]!, m[1]!]);
  }

  beforeAll(async () => {
    ({ sink, server } = await startServerWithMail({ TRUST_PROXY: "true", ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password }));
    applicant = await signUpOverHttp(server.url, sink, "hostile.requests@example.com", "198.18.21.1");
    appId = await submitApplication(server.url, applicant);
    admin = (await signInAdminWithMfa(server.url, ADMIN.email, ADMIN.password, "198.18.21.2")).cookie;
    const made = await post(
      staffPath(),
      admin,
      fields([
        ["intent", "request"],
        ["kind", "pay_stub"],
        ["note", ""],
        ["kind", "question"],
        ["note", "Where do you work?"],
        ["dueDate", isoDateAfter(10)],
      ]),
    );
    expect(made.status).toBe(200);
    const html = await (await fetch(`${server.url}/admin/applications/${appId}`, { headers: { cookie: admin } })).text();
    const ids = Object.fromEntries([...html.matchAll(/data-kind="(\w+)"[^>]*aria-labelledby="request-item-([0-9a-f-]{36})"/g)].map((m) => [m[1]!, m[2]!]));
    payStub = ids.pay_stub!;
    question = ids.question!;
    expect(payStub).toMatch(/^[0-9a-f-]{36}$/);
    expect(question).toMatch(/^[0-9a-f-]{36}$/);
  });
  afterAll(() => stopStack({ sink, server }));

  it("refuses every hostile staff field with a readable 400, and nothing is requested", async () => {
    const due = isoDateAfter(10);
    const cases: [string, [string, string][]][] = [
      ["unknown kind", [["intent", "request"], ["kind", "passport_selfie"], ["note", ""], ["dueDate", due]]],
      ["kind with markup", [["intent", "request"], ["kind", "<script>alert(1)</script>"], ["note", ""], ["dueDate", due]]],
      ["oversized note", [["intent", "request"], ["kind", "pay_stub"], ["note", "n".repeat(CONVERSATION_LIMITS.requestNoteMaxLength + 1)], ["dueDate", due]]],
      ...CONTROL.map((c): [string, [string, string][]] => [`note with ${JSON.stringify(c)}`, [["intent", "request"], ["kind", "pay_stub"], ["note", c], ["dueDate", due]]]),
      ["due date in the past", [["intent", "request"], ["kind", "pay_stub"], ["note", ""], ["dueDate", isoDateAfter(-1)]]],
      ["due date far ahead", [["intent", "request"], ["kind", "pay_stub"], ["note", ""], ["dueDate", isoDateAfter(3650)]]],
      ["due date not a date", [["intent", "request"], ["kind", "pay_stub"], ["note", ""], ["dueDate", "2026-13-45"]]],
      ["due date injection", [["intent", "request"], ["kind", "pay_stub"], ["note", ""], ["dueDate", "2026-01-01'; drop table request_items;--"]]],
      ["no items", [["intent", "request"], ["dueDate", due]]],
      ["too many items", [["intent", "request"], ...Array.from({ length: CONVERSATION_LIMITS.requestItemsMax + 1 }, (): [string, string] => ["kind", "pay_stub"]), ["dueDate", due]]],
      ["reject without a reason", [["intent", "reject"], ["itemId", payStub], ["reason", " \n "]]],
      ["oversized reason", [["intent", "reject"], ["itemId", payStub], ["reason", "r".repeat(CONVERSATION_LIMITS.requestNoteMaxLength + 1)]]],
      ...CONTROL.map((c): [string, [string, string][]] => [`reason with ${JSON.stringify(c)}`, [["intent", "reject"], ["itemId", payStub], ["reason", c]]]),
      ["item id not a uuid", [["intent", "accept"], ["itemId", "../../etc/passwd"]]],
      ["unknown intent", [["intent", "delete-everything"]]],
    ];
    const problems: string[] = [];
    for (const [name, pairs] of cases) {
      const res = await post(staffPath(), admin, fields(pairs));
      if (res.status !== 400) problems.push(`${name}: status ${res.status}`);
      for (const p of refusalProblems(res)) problems.push(`${name}: ${p}`);
    }
    expect(problems).toEqual([]);
    expect((await itemsOnPage()).sort()).toEqual([
      ["pay_stub", "requested"],
      ["question", "requested"],
    ]);
  });

  it("refuses every hostile answer (replies and files) with a readable 4xx, and the items stay requested", async () => {
    const cases: [string, BodyInit, number][] = [
      ["oversized reply", fields([["intent", "reply"], ["itemId", question], ["reply", "x".repeat(CONVERSATION_LIMITS.requestReplyMaxLength + 1)]]), 400],
      ["blank reply", fields([["intent", "reply"], ["itemId", question], ["reply", "   "]]), 400],
      ...CONTROL.map((c): [string, BodyInit, number] => [`reply with ${JSON.stringify(c)}`, fields([["intent", "reply"], ["itemId", question], ["reply", c]]), 400]),
      ["reply to a document item", fields([["intent", "reply"], ["itemId", payStub], ["reply", "words"]]), 400],
      ["a fake PDF (an executable)", upload(payStub, makeExe(), "paystub.pdf", "application/pdf"), 400],
      ["a PDF named .png", upload(payStub, makePdf(), "paystub.png", "image/png"), 400],
      ["a PNG declared as PDF", upload(payStub, makePng(), "paystub.png", "application/pdf"), 400],
      ["a PDF with a script", upload(payStub, Buffer.from("%PDF-1.4\n1 0 obj << /OpenAction << /S /JavaScript /JS (app.alert(1)) >> >> endobj\n" + " ".repeat(64) + "\n%%EOF\n", "latin1"), "paystub.pdf", "application/pdf"), 400],
      ["an empty file", upload(payStub, Buffer.alloc(0), "paystub.pdf", "application/pdf"), 400],
      ["too large a file", upload(payStub, Buffer.concat([makePdf(), Buffer.alloc(LIMITS.maxDocumentBytes, 0x20)]), "paystub.pdf", "application/pdf"), 413],
      ["a file for a question", upload(question, makePdf(), "answer.pdf", "application/pdf"), 400],
      ["an extra field", upload(payStub, makePdf(), "paystub.pdf", "application/pdf", (f) => f.append("documentType", "signature")), 400],
      ["two files", upload(payStub, makePdf(), "paystub.pdf", "application/pdf", (f) => f.append("file", new Blob([new Uint8Array(makePdf())]), "two.pdf")), 400],
      ["an item id that is not a uuid", upload("1 or 1=1", makePdf(), "paystub.pdf", "application/pdf"), 400],
    ];
    const problems: string[] = [];
    for (const [name, body, status] of cases) {
      const res = await post(applicantPath(), applicant, body);
      if (res.status !== status) problems.push(`${name}: status ${res.status}, expected ${status}: ${res.body.slice(0, 200)}`);
      for (const p of refusalProblems(res)) problems.push(`${name}: ${p}`);
    }
    expect(problems).toEqual([]);
    expect((await itemsOnPage()).sort()).toEqual([
      ["pay_stub", "requested"],
      ["question", "requested"],
    ]);

    // The same forms with proper content go through: the refusals above were about the content.
    // A 3 MB scan: above the server's 1 MB ceiling for ordinary forms, within the 5 MB document limit.
    expect((await post(applicantPath(), applicant, upload(payStub, makePdf(3 * 1024 * 1024), "paystub.pdf", "application/pdf"))).status).toBe(200);
    expect((await post(applicantPath(), applicant, fields([["intent", "reply"], ["itemId", question], ["reply", "Acme, since 2019."]]))).status).toBe(200);
    expect((await itemsOnPage()).sort()).toEqual([
      ["pay_stub", "received"],
      ["question", "received"],
    ]);
  });

  it("stops reading a 20 MB chunked body early on both routes (413), the server stays up", async () => {
    const MB = 1024 * 1024;
    const targets = [
      { path: staffPath(), cookie: admin, type: "application/x-www-form-urlencoded" },
      { path: applicantPath(), cookie: applicant, type: "multipart/form-data; boundary=xyz" },
    ];
    for (const t of targets) {
      const res = await handPost({
        url: server.url,
        path: t.path,
        headers: { origin: server.url, cookie: t.cookie, "content-type": t.type },
        length: "chunked",
        bodyBytes: 20 * MB,
        fill: t.type.startsWith("multipart") ? '--xyz\r\ncontent-disposition: form-data; name="file"; filename="a.pdf"\r\ncontent-type: application/pdf\r\n\r\n%PDF-' : undefined,
      });
      expect([413, 0], `${t.path}: ${res.bodyBytesWritten} bytes written; ${res.body.slice(0, 400)}`).toContain(res.status);
      expect(leaksInternals(res.body)).toBeNull();
      expect(res.bodyBytesWritten).toBeLessThan(12 * MB);
    }
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  }, 60_000);
});
