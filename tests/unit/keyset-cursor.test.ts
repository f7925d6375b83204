import { describe, expect, it } from "vitest";
import { parsePageRequest, setPageTarget } from "~/domain/paging";
import { decodeCursor, encodeCursor, type KeyColumn } from "~/server/platform/db/paging.server";
import { loanApplications, approvedLoans } from "~/server/platform/db/schema.server";

/** Decision 0050: the tokens of the keyset pages, and the page part of a list's URL. */

const applications = {
  scope: "applications:pending",
  keys: [
    { column: loanApplications.submittedAt, order: "desc", type: "timestamptz" },
    { column: loanApplications.id, order: "desc", type: "uuid" },
  ] satisfies KeyColumn[],
};
const loans = {
  scope: "loans:all",
  keys: [
    { column: approvedLoans.nextDueDate, order: "asc", type: "date", nullable: true },
    { column: approvedLoans.approvalDate, order: "desc", type: "timestamptz" },
    { column: approvedLoans.id, order: "asc", type: "uuid" },
  ] satisfies KeyColumn[],
};
const ID = "0b5c1f0e-2d3a-4c5b-8e9f-0a1b2c3d4e5f";

describe("keyset cursors", () => {
  it("round-trips a key to the microsecond, and NULL where the column may hold one", () => {
    const cursor = { scope: "applications:pending", page: 7, key: ["2026-11-27 18:35:06.123456+00", ID] };
    const token = encodeCursor(cursor);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(token, applications)).toEqual(cursor);
    const loan = { scope: "loans:all", page: 2, key: [null, "2025-01-01 00:00:00+05:30", ID] };
    expect(decodeCursor(encodeCursor(loan), loans)).toEqual(loan);
    expect(decodeCursor(encodeCursor({ ...loan, key: ["2026-02-28", "1950-01-01 00:00:00-00:53:28", ID] }), loans)).not.toBeNull();
  });

  it("refuses another list's or tab's token, a forged key and anything that is not a token", () => {
    const valid = { scope: "applications:pending", page: 2, key: ["2026-11-27 18:35:06+00", ID] };
    const bad = [
      encodeCursor({ ...valid, scope: "applications:approved" }),
      encodeCursor({ ...valid, scope: "queue:pending" }),
      encodeCursor({ ...valid, key: ["2026-13-27 18:35:06+00", ID] }),
      encodeCursor({ ...valid, key: ["2026-02-30 18:35:06+00", ID] }),
      encodeCursor({ ...valid, key: ["2026-11-27 24:00:00+00", ID] }),
      encodeCursor({ ...valid, key: ["2026-11-27", ID] }),
      encodeCursor({ ...valid, key: ["2026-11-27 18:35:06+00", "not-a-uuid"] }),
      encodeCursor({ ...valid, key: ["2026-11-27 18:35:06+00", ID.toUpperCase()] }),
      encodeCursor({ ...valid, key: [null, ID] }),
      encodeCursor({ ...valid, key: ["2026-11-27 18:35:06+00"] }),
      encodeCursor({ ...valid, key: ["2026-11-27 18:35:06+00", ID, ID] }),
      encodeCursor({ ...valid, page: 0 }),
      encodeCursor({ ...valid, page: 1.5 }),
      Buffer.from(JSON.stringify({ s: valid.scope, p: 2, k: valid.key, x: 1 })).toString("base64url"),
      Buffer.from("{").toString("base64url"),
      Buffer.from("null").toString("base64url"),
      "A".repeat(600),
      "a+b/c=",
      "tab\u0000",
      "",
      null,
      undefined,
    ];
    for (const token of bad) expect(decodeCursor(token, applications)).toBeNull();
    expect(decodeCursor(encodeCursor({ scope: "loans:all", page: 2, key: ["2026-11-27 00:00:00+00", "2026-11-27 00:00:00+00", ID] }), loans)).toBeNull();
  });
});

describe("the page part of a list URL", () => {
  const parse = (search: string) => parsePageRequest(new URLSearchParams(search));

  it("keeps one of after, before and last, a valid page number, and ignores the rest", () => {
    expect(parse("")).toEqual({ page: 1 });
    expect(parse("page=3")).toEqual({ page: 3 });
    for (const page of ["-2", "abc", "9999999", "0", "1.5", "1e3"]) expect(parse(`page=${page}`)).toEqual({ page: 1 });
    expect(parse("after=abc_-D")).toEqual({ page: 1, after: "abc_-D" });
    expect(parse("before=abc")).toEqual({ page: 1, before: "abc" });
    expect(parse("last=1")).toEqual({ page: 1, last: true });
    expect(parse("last=yes")).toEqual({ page: 1 });
    // Not a token: the first page, not an error.
    expect(parse(`after=${"A".repeat(513)}`)).toEqual({ page: 1 });
    expect(parse("after=a%00b")).toEqual({ page: 1 });
    expect(parse("after=a%2Bb")).toEqual({ page: 1 });
    expect(parse("after=x&before=y&last=1")).toEqual({ page: 1, after: "x" });
  });

  it("builds links with no deep page numbers: First has no page part", () => {
    const href = (target: Parameters<typeof setPageTarget>[1]) => setPageTarget(new URLSearchParams({ status: "pending" }), target).toString();
    expect(href({ page: 1 })).toBe("status=pending");
    expect(href({ after: "tok" })).toBe("status=pending&after=tok");
    expect(href({ before: "tok" })).toBe("status=pending&before=tok");
    expect(href({ last: true })).toBe("status=pending&last=1");
  });
});
