import { describe, expect, it } from "vitest";
import { actionRefusal, AppError, isAppError, jsonRefusal } from "~/server/platform/http/app-error.server";

/** One error for every refusal, one mapper to a page's answer and to a JSON API's answer. */

describe("AppError", () => {
  it("carries a code, a status, the user's message and, when given, a field and Retry-After", () => {
    const error = new AppError("account_settings", 429, "Too many attempts.", { retryAfterSeconds: 60 });
    expect(error).toBeInstanceOf(Error);
    expect([error.code, error.status, error.message, error.retryAfterSeconds, error.field]).toEqual(["account_settings", 429, "Too many attempts.", 60, undefined]);
    expect(isAppError(error)).toBe(true);
    expect(isAppError(error, "account_settings")).toBe(true);
    expect(isAppError(error, "servicing")).toBe(false);
    expect(isAppError(new Error("x"))).toBe(false);
  });

  it("maps to a page's answer: status, error toast, the message on its field, Retry-After", () => {
    const onField = actionRefusal(new AppError("account_closure", 400, "Wrong password.", { field: "password" }), { title: "Could not close" }, { intent: "close-account" });
    expect(onField).toEqual({
      status: 400,
      body: { ok: false, intent: "close-account", toast: { type: "error", title: "Could not close", description: "Wrong password." }, fieldErrors: { password: ["Wrong password."] } },
    });
    const throttled = actionRefusal(new AppError("data_export", 429, "Wait.", { retryAfterSeconds: 30 }), { title: "No export", stamped: true }, { intent: "request-export" });
    expect(throttled.headers).toEqual({ "Retry-After": "30" });
    expect(typeof throttled.body.at).toBe("number");
    expect(throttled.body.fieldErrors).toBeUndefined();
  });

  it("maps to a JSON API's answer with the API's own field names", () => {
    const error = new AppError("submission", 400, "Upload the pay stub.", { field: "payStub", details: { step: 4 } });
    expect(jsonRefusal(error)).toEqual({ status: 400, body: { ok: false, step: 4, field: "payStub", message: "Upload the pay stub." } });
    expect(JSON.stringify(jsonRefusal(error).body)).toBe('{"ok":false,"step":4,"field":"payStub","message":"Upload the pay stub."}');
    expect(jsonRefusal(new AppError("passkey", 400, "Refused."))).toEqual({ status: 400, body: { ok: false, message: "Refused." } });
  });
});
