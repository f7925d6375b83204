import { describe, expect, it } from "vitest";
import { parseAuthForm } from "~/server/accounts/auth-form.server";

/**
 * The sign-in page's action takes only its own intents: a name every object has through its
 * prototype ("toString", "constructor", "__proto__") is an unknown action (400 with a message), never
 * a schema lookup that throws into a 500.
 */
describe("the auth form's intent", () => {
  for (const intent of ["toString", "constructor", "__proto__", "hasOwnProperty", "valueOf"]) {
    it(`"${intent}" is an unknown action`, async () => {
      const body = new FormData();
      body.append("intent", intent);
      body.append("email", "@example.com");
      const parsed = await parseAuthForm(new Request("http://localhost/auth", { method: "POST", body }));
      expect(parsed.ok).toBe(false);
      if (parsed.ok) return;
      expect(parsed.answer.status).toBe(400);
      expect(parsed.answer.body.toast?.description).toBe("Unknown action.");
    });
  }
});
