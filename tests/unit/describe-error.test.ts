import { afterEach, describe, expect, it, vi } from "vitest";
import { describeError, logFailure } from "~/server/platform/log/describe-error.server";

/** Finding 6 of issue 16: failure logs name the cause, never the submitted values. */

class DrizzleQueryError extends Error {
  constructor(query: string, params: unknown[], cause: Error) {
    super(`Failed query: ${query}\nparams: ${params.join(",")}`, { cause });
    this.name = "DrizzleQueryError";
  }
}

function pgError(code: string, message: string, extra: Record<string, string> = {}): Error {
  return Object.assign(new Error(message), { name: "error", code, ...extra });
}

afterEach(() => vi.restoreAllMocks());

describe("describeError", () => {
  const failed = new DrizzleQueryError(
    'insert into "loan_applications" ("first_name", "date_of_birth", "address_line1") values ($1, $2, $3)',
    ["Jane", "1988-04-12", "12 Market Street"],
    pgError("22021", 'invalid byte sequence for encoding "UTF8": 0x00'),
  );

  it("names the error and the SQLSTATE, never the query's parameters", () => {
    const line = describeError(failed);
    expect(line).toContain("DrizzleQueryError");
    expect(line).toContain("sqlstate=22021");
    expect(line).not.toMatch(/Jane|1988|Market|first_name|insert/);
  });

  it("keeps constraint names but not the value a database message quotes", () => {
    const line = describeError(pgError("22P02", 'invalid input syntax for type uuid: "jane@example.com"', { table: "loan_applications" }));
    expect(line).toBe("error sqlstate=22P02 table=loan_applications");
  });

  it("says where a programming error was thrown, not its message", () => {
    const line = describeError(new SyntaxError('"Jane Doe, 12 Market Street" is not valid JSON'));
    expect(line).toMatch(/^SyntaxError at /);
    expect(line).not.toContain("Jane");
  });

  it("logFailure writes one line with a reference and the given ids", () => {
    const lines: string[] = [];
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void lines.push(args.join(" ")));
    const ref = logFailure("apply", "submission failed", failed, { user: "u1" });
    expect(lines).toEqual([`[apply] submission failed (ref ${ref} user=u1): DrizzleQueryError ← error sqlstate=22021`]);
  });
});
