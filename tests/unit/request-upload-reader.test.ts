import { describe, expect, it } from "vitest";
import { parseSubmission } from "~/server/applications/upload-parser.server";
import { REQUEST_UPLOAD_SHAPE } from "~/server/conversation/request-actions.server";
import { setUpTestConfig } from "../helpers/temp-config";

/** A document request's upload goes through the wizard's streaming reader, with its own limits and words. */

setUpTestConfig("request-upload", {});

const pdf = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x34, 0x0a]);

function upload(parts: (form: FormData) => void, headers: Record<string, string> = {}): Request {
  const form = new FormData();
  parts(form);
  return new Request("http://localhost/dashboard/applications/x/requests", { method: "POST", body: form, headers });
}

async function refusal(request: Request) {
  const error = (await parseSubmission(request, { shape: REQUEST_UPLOAD_SHAPE }).catch((e: unknown) => e)) as { code: string; status: number; message: string; field?: string };
  return { code: error.code, status: error.status, message: error.message, field: error.field };
}

describe("the document request's upload reader", () => {
  it("reads the item's id and one file", async () => {
    const parsed = await parseSubmission(upload((f) => {
      f.set("intent", "upload");
      f.set("itemId", "abc");
      f.set("file", new File([pdf], "stub.pdf", { type: "application/pdf" }));
    }), { shape: REQUEST_UPLOAD_SHAPE });
    expect(parsed.fields).toEqual({ intent: "upload", itemId: "abc" });
    const file = parsed.files.get("file")!;
    expect([file.filename, file.declaredType, (await file.read()).length]).toEqual(["stub.pdf", "application/pdf", pdf.length]);
    await parsed.dispose?.();
  });

  it("refuses with the upload's own words, on no field", async () => {
    const two = upload((f) => {
      f.append("file", new File([pdf], "a.pdf", { type: "application/pdf" }));
      f.append("file", new File([pdf], "b.pdf", { type: "application/pdf" }));
    });
    expect(await refusal(two)).toEqual({ code: "upload", status: 400, message: "Upload one file at a time.", field: undefined });
    expect(await refusal(upload((f) => f.set("x".repeat(20), "1")))).toEqual({ code: "upload", status: 400, message: `Unexpected field: ${"x".repeat(20)}`, field: undefined });
    expect(await refusal(upload((f) => f.set("itemId", "y".repeat(300))))).toMatchObject({ status: 400, message: "Unexpected field: itemId" });
    expect(await refusal(upload((f) => f.set("other", new File([pdf], "a.pdf"))))).toMatchObject({ status: 400, message: "Unexpected file: other" });
    const notMultipart = new Request("http://localhost/x", { method: "POST", body: "intent=upload", headers: { "content-type": "application/x-www-form-urlencoded" } });
    // A urlencoded post reads as fields without a file: the action answers "Choose a file to upload."
    const fieldsOnly = await parseSubmission(notMultipart, { shape: REQUEST_UPLOAD_SHAPE });
    expect([fieldsOnly.fields, fieldsOnly.files.size]).toEqual([{ intent: "upload" }, 0]);
    await fieldsOnly.dispose?.();
    const broken = new Request("http://localhost/x", { method: "POST", body: "x", headers: { "content-type": "text/plain" } });
    expect(await refusal(broken)).toMatchObject({ status: 400, message: "The upload could not be read." });
    expect(await refusal(upload(() => undefined, { "content-length": String(6 * 1024 * 1024) }))).toMatchObject({ status: 413, message: expect.stringContaining("too large") });
  });
});
