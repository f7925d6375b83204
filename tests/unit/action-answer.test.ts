import { describe, expect, it } from "vitest";
import { stampedResult } from "~/domain/action-result";
import { jsonAnswer, readActionForm, respond } from "~/server/platform/http/action-answer.server";
import { BODY_MESSAGES, SMALL_FORM_MAX_BYTES } from "~/server/platform/http/read-body.server";

/** The one way an action reads its form and hands a service's answer on. */

const post = (body: string, type = "application/x-www-form-urlencoded") =>
  new Request("http://localhost/admin/messages", { method: "POST", body, headers: { "content-type": type } });

const refuse = (message: string) => ({ ok: false, message });

describe("readActionForm", () => {
  it("reads a small form", async () => {
    const read = await readActionForm(post("id=1&status=read"), refuse);
    expect(read.ok && read.form.get("status")).toBe("read");
  });

  it("answers 413 in the action's shape when the form is too large", async () => {
    const read = await readActionForm(post(`note=${"x".repeat(SMALL_FORM_MAX_BYTES)}`), refuse);
    expect(read).toEqual({ ok: false, answer: { status: 413, body: { ok: false, message: BODY_MESSAGES.tooLarge } } });
  });

  it("answers 400 for an unreadable body, or reads it as an empty form when the action asks", async () => {
    const broken = () => post("--x\r\nnot a part", "multipart/form-data; boundary=x");
    expect(await readActionForm(broken(), refuse)).toEqual({ ok: false, answer: { status: 400, body: { ok: false, message: BODY_MESSAGES.unreadable } } });
    const lenient = await readActionForm(broken(), refuse, { unreadableAsEmpty: true });
    expect(lenient.ok && [...lenient.form.keys()]).toEqual([]);
  });
});

describe("answers", () => {
  it("jsonAnswer keeps the status, the headers and no-store", async () => {
    const res = jsonAnswer({ status: 429, body: { title: "Error", message: "Too many attempts." }, headers: { "Retry-After": "60" } });
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("60");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual({ title: "Error", message: "Too many attempts." });
  });

  it("respond hands the body and status to the route's data()", () => {
    const answer = respond({ status: 409, body: stampedResult(false, "Already Moderated", "Decided elsewhere.") });
    expect(answer.init?.status).toBe(409);
    expect(answer.data).toMatchObject({ ok: false, toast: { type: "error", title: "Already Moderated", description: "Decided elsewhere." } });
  });
});
