import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "~/server/platform/db/unavailable.server";

/** Which failures become "503, try again in a moment" rather than "500, something is broken". */

const withCode = (message: string, code: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(message), { code, ...extra });
/** How Drizzle reports a failed query: its own error, the driver's as the cause. */
const drizzleWrapped = (cause: unknown) => new Error("Failed query: select 1\nparams: ", { cause });

describe("isDatabaseUnavailable", () => {
  it.each([
    ["a refused connection", withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED")],
    ["a reset connection", withCode("read ECONNRESET", "ECONNRESET")],
    ["a unix socket that is gone", withCode("connect ENOENT /tmp/pg/.s.PGSQL.5432", "ENOENT", { syscall: "connect" })],
    ["an administrator shutdown (57P01)", withCode("terminating connection due to administrator command", "57P01")],
    ["a crash shutdown (57P02)", withCode("terminating connection because of crash of another server process", "57P02")],
    ["a server starting up (57P03)", withCode("the database system is starting up", "57P03")],
    ["a connection exception (08006)", withCode("connection failure", "08006")],
    ["too many connections (53300)", withCode("sorry, too many clients already", "53300")],
    ["a dropped connection (node-postgres)", new Error("Connection terminated unexpectedly")],
    ["a pool that cannot connect in time", new Error("timeout exceeded when trying to connect")],
    ["a client after a connection error", new Error("Client has encountered a connection error and is not queryable")],
  ])("%s, also when wrapped by Drizzle or an AggregateError", (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(isDatabaseUnavailable(drizzleWrapped(error))).toBe(true);
    expect(isDatabaseUnavailable(new Error("getSession failed", { cause: drizzleWrapped(error) }))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([new Error("other"), error], "connect failed"))).toBe(true);
  });

  it.each([
    ["a unique violation (23505)", withCode('duplicate key value violates unique constraint "user_email_key"', "23505")],
    ["a syntax error (42601)", withCode('syntax error at or near "selec"', "42601")],
    ["a check violation (23514)", withCode("new row violates check constraint", "23514")],
    ["a missing file", withCode("ENOENT: no such file or directory, open '/data/x.pdf'", "ENOENT", { syscall: "open" })],
    ["a plain bug", new TypeError("Cannot read properties of undefined (reading 'id')")],
    ["a thrown string", "boom"],
    ["nothing", undefined],
  ])("not %s", (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
    expect(isDatabaseUnavailable(drizzleWrapped(error))).toBe(false);
  });

  it("survives a cause cycle", () => {
    const a = new Error("a") as Error & { cause?: unknown };
    const b = new Error("b", { cause: a });
    a.cause = b;
    expect(isDatabaseUnavailable(a)).toBe(false);
  });
});
