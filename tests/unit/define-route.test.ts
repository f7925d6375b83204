import { describe, expect, it } from "vitest";
import { defineAction, methodNotAllowed, postOnly } from "~/server/platform/http/define-route.server";
import { z } from "~/domain/validation/zod";
import { setUpTestConfig } from "../helpers/temp-config";

/** A route is a declaration: same origin, then the guard, then the handler; 405 with Allow for other methods. */

describe("defineAction", () => {
  setUpTestConfig("define-action", {});
  const post = (headers: Record<string, string> = {}, method = "POST") => new Request("http://localhost/x", { method, headers });

  it("checks the origin before the guard, then hands the guard's answer to the handler", async () => {
    const seen: string[] = [];
    const action = defineAction({
      guard: async () => {
        seen.push("guard");
        return { id: "u1" };
      },
      handle: (_args: { request: Request }, who) => who.id,
    });
    expect(await action({ request: post() })).toBe("u1");
    expect(seen).toEqual(["guard"]);
    const refused = await action({ request: post({ origin: "https://evil.example" }) }).catch((e: unknown) => e);
    expect(seen).toEqual(["guard"]);
    expect(refused).toMatchObject({ type: "DataWithResponseInit", init: { status: 403 } });
  });

  it("answers 405 with Allow for a method the route does not serve", async () => {
    const action = defineAction({ guard: async () => null, methods: ["POST"], notAllowedBody: { title: "Error", message: "Method Not Allowed" }, handle: () => "ran" });
    const res = (await action({ request: post({}, "PUT") })) as Response;
    expect([res.status, res.headers.get("allow"), res.headers.get("cache-control")]).toEqual([405, "POST", "no-store"]);
    expect(await res.json()).toEqual({ title: "Error", message: "Method Not Allowed" });
    const get = postOnly();
    expect([get.status, get.headers.get("allow")]).toEqual([405, "POST"]);
    expect(await get.json()).toEqual({ ok: false, message: "Method Not Allowed" });
    expect(methodNotAllowed(["GET", "HEAD"]).headers.get("allow")).toBe("GET, HEAD");
  });

  it("with a form: reads and parses it after the guard; the handler gets the input, a refusal is the action's own", async () => {
    const seen: string[] = [];
    const action = defineAction({
      guard: async () => {
        seen.push("guard");
        return { id: "u1" };
      },
      form: {
        schema: z.object({ intent: z.literal("go", { error: "Unknown action." }), note: z.string().max(3, "Too long") }),
        limitBytes: 64,
        refuse: (message: string, fieldErrors?: Record<string, string[]>) => ({ ok: false, message, fieldErrors }),
        send: (answer: { status: number; body: unknown }) => ({ sent: answer.status, body: answer.body }),
      },
      handle: (_args: { request: Request }, who, input) => `${who.id}:${input.intent}:${input.note}`,
    });
    const form = (body: string) => new Request("http://localhost/x", { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(await action({ request: form("intent=go&note=abc&note=second") })).toBe("u1:go:abc");
    expect(await action({ request: form("intent=stop&note=abcd") })).toEqual({
      sent: 400,
      body: { ok: false, message: "Unknown action.", fieldErrors: { intent: ["Unknown action."], note: ["Too long"] } },
    });
    expect(await action({ request: form(`intent=go&note=${"x".repeat(100)}`) })).toMatchObject({ sent: 413, body: { ok: false, fieldErrors: undefined } });
    expect(seen).toEqual(["guard", "guard", "guard"]);
  });
});
