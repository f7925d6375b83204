import { describe, expect, it } from "vitest";
import { z } from "~/domain/validation/zod";
import { firstFieldError, issuesToFieldErrors } from "~/domain/validation/field-errors";

const schema = z
  .object({ name: z.string().min(1, "Name?").max(3, "Too long"), email: z.string().min(1, "Email?") })
  .refine((v) => v.name !== v.email, "Name and email must differ");

describe("issuesToFieldErrors", () => {
  it("keys each message by the first path segment, an issue without a path under 'form'", () => {
    const result = schema.safeParse({ name: "abcd", email: "" });
    expect(result.success).toBe(false);
    expect(issuesToFieldErrors(result.error!)).toEqual({ name: ["Too long"], email: ["Email?"] });
    const same = schema.safeParse({ name: "ab", email: "ab" });
    expect(issuesToFieldErrors(same.error!)).toEqual({ form: ["Name and email must differ"] });
  });

  it("keeps only the listed fields and never repeats a message", () => {
    const error = { issues: [
      { path: ["name"], message: "A" },
      { path: ["name"], message: "A" },
      { path: ["other"], message: "B" },
      { path: [], message: "C" },
    ] };
    expect(issuesToFieldErrors(error, { fields: ["name"] })).toEqual({ name: ["A"] });
  });
});

describe("firstFieldError", () => {
  it("gives the first field in the order that has a message", () => {
    expect(firstFieldError({ a: undefined, b: ["x", "y"], c: ["z"] }, ["a", "c", "b"])).toEqual({ field: "c", message: "z" });
    expect(firstFieldError({}, ["a"])).toBeNull();
  });
});
