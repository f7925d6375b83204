import { describe, expect, it } from "vitest";
import { defineAction, methodNotAllowed, postOnly } from "~/server/platform/http/define-route.server";
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
});
