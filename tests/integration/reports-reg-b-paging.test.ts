import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { readRegBPage, regBPageHref } from "~/domain/validation/reports";
import type { PipelineReport } from "~/domain/views/pipeline-report";
import { encodeCursor } from "~/server/platform/db/paging.server";
import { loanApplications } from "~/server/platform/db/schema.server";
import { pipelineReport } from "~/server/staff/pipeline-report.server";
import { REG_B_PAGE_SIZE } from "~/server/applications/reg-b-list.server";
import { applicationRow } from "../helpers/application-rows";
import { setUpTestConfig } from "../helpers/temp-config";
import { useTestDatabase } from "../helpers/test-db";
import { seedApplicant } from "../helpers/seed";

/**
 * The reports page's Reg B list in pages of 25 (keyset: First / Previous / Next / Last under its own
 * parameters, regbAfter / regbBefore / regbLast), against PGlite: the pages hold every flagged
 * application once, oldest first, whichever way they are walked; the count sentence's number stays the
 * whole list's; a token that is not the list's shows its first page.
 */

setUpTestConfig("reports-reg-b-paging", { APP_SECRET: "b".repeat(48) });

const NOW = new Date("2026-06-30T12:00:00Z");
const RANGE = { from: "2026-04-01", to: "2026-06-30" };
const DAY = 86_400_000;
const FLAGGED = 61; // 25 + 25 + 11
const applicantId = "regb-applicant";

describe("unit: the Reg B list's parameters", () => {
  it("reads only its own names, and its links keep every other parameter", () => {
    const token = encodeCursor({ scope: "reports:reg-b", page: 2, key: ["2026-01-01 00:00:00+00", "00000000-0000-4000-8000-000000000000"] });
    expect(readRegBPage(new URLSearchParams(`regbAfter=${token}`))).toEqual({ page: 1, after: token });
    expect(readRegBPage(new URLSearchParams(`regbBefore=${token}`))).toEqual({ page: 1, before: token });
    expect(readRegBPage(new URLSearchParams("regbLast=1"))).toEqual({ page: 1, last: true });
    // The admin lists' names, a page number, a malformed token: the first page.
    expect(readRegBPage(new URLSearchParams(`after=${token}&last=1&page=7&regbPage=7&regbAfter=%00`))).toEqual({ page: 1 });

    const href = regBPageHref(`from=2026-01-01&to=2026-03-31&regbBefore=${token}&keep=x`, { after: "NEXT" });
    expect(href).toBe("?from=2026-01-01&to=2026-03-31&keep=x&regbAfter=NEXT#report-reg-b");
    expect(regBPageHref("?from=2026-01-01&to=2026-03-31&regbAfter=A", { last: true })).toBe("?from=2026-01-01&to=2026-03-31&regbLast=1#report-reg-b");
    expect(regBPageHref("from=2026-01-01&to=2026-03-31&regbLast=1", { page: 1 })).toBe("?from=2026-01-01&to=2026-03-31#report-reg-b");
  });
});

describe("the Reg B list in pages on pglite", () => {
  const database = useTestDatabase({ global: true });
  const db = () => database().db;
  let expected: string[] = [];

  const report = (regBPage: Parameters<typeof pipelineReport>[3] = {}) => pipelineReport(RANGE, db(), NOW, regBPage);
  const ids = (r: PipelineReport) => r.regB.items.map((i) => i.id);

  beforeAll(async () => {
    await seedApplicant(db(), { id: applicantId, name: "Applicant", email: "regb.applicant@example.com" });
    const rows = [];
    for (let i = 0; i < FLAGGED; i++) {
      // Eleven share one instant at a page boundary (rows 20–30): the id orders them, and no page may
      // repeat or skip one of them.
      const at = i >= 20 && i <= 30 ? new Date(NOW.getTime() - 60 * DAY) : new Date(NOW.getTime() - (100 - i) * DAY);
      rows.push(applicationRow(applicantId, { firstName: `Flagged${i}`, lastName: "Tester", status: i % 2 ? "pending" : "under_review", submittedAt: at }));
    }
    // Not flagged: decided, or complete for fewer than 25 days.
    rows.push(applicationRow(applicantId, { firstName: "Decided", status: "approved", submittedAt: new Date(NOW.getTime() - 90 * DAY), reviewedAt: new Date(NOW.getTime() - 80 * DAY) }));
    rows.push(applicationRow(applicantId, { firstName: "Recent", status: "pending", submittedAt: new Date(NOW.getTime() - 10 * DAY) }));
    await db().insert(loanApplications).values(rows);
    const result = (await db().execute(sql`select id from loan_applications where status in ('pending', 'under_review') and complete_since <= ${new Date(NOW.getTime() - 25 * DAY).toISOString()}::timestamptz order by complete_since, id`)) as unknown as { rows: { id: string }[] };
    expected = result.rows.map((r) => r.id);
    expect(expected).toHaveLength(FLAGGED);
  });

  it("Next walks every flagged application once, oldest first, 25 a page; Previous walks back over the same pages", async () => {
    const forward: PipelineReport[] = [await report()];
    // Bounded: a list whose Next led nowhere new would otherwise walk forever.
    while (forward.at(-1)!.regB.cursors.next && forward.length < 10) forward.push(await report({ after: forward.at(-1)!.regB.cursors.next! }));
    expect(forward.map((r) => [r.regB.page, r.regB.pageCount, r.regB.items.length])).toEqual([
      [1, 3, 25],
      [2, 3, 25],
      [3, 3, 11],
    ]);
    expect(forward.flatMap(ids)).toEqual(expected);
    expect(forward[0]!.regB.cursors.prev).toBeNull();
    expect(forward.every((r) => r.regB.count === FLAGGED)).toBe(true);
    expect(forward[0]!.regB.items[0]).toMatchObject({ applicantName: "Flagged0 Tester", daysLeft: -70 });

    const backward: PipelineReport[] = [forward.at(-1)!];
    while (backward.at(-1)!.regB.cursors.prev && backward.length < 10) backward.push(await report({ before: backward.at(-1)!.regB.cursors.prev! }));
    expect(backward.map((r) => r.regB.page)).toEqual([3, 2, 1]);
    expect(backward.map(ids).reverse()).toEqual(forward.map(ids));
    expect(backward.every((r) => r.regB.count === FLAGGED)).toBe(true);
  });

  it("Last shows the final page oldest first; the rest of the report is the same on every page", async () => {
    const first = await report();
    const last = await report({ last: true });
    expect(last.regB).toMatchObject({ page: 3, pageCount: 3, count: FLAGGED });
    expect(ids(last)).toEqual(expected.slice(50));
    expect(last.regB.cursors.next).toBeNull();
    const { regB: _a, ...restFirst } = first;
    const { regB: _b, ...restLast } = last;
    expect(restLast).toEqual(restFirst);
    // Previous from Last lands on the page Next reaches from the first.
    const previous = await report({ before: last.regB.cursors.prev! });
    const next = await report({ after: first.regB.cursors.next! });
    expect(ids(previous)).toEqual(ids(next));
  });

  it("another list's token, forged keys and page numbers show the first page, never an error", async () => {
    const firstIds = expected.slice(0, REG_B_PAGE_SIZE);
    const key = ["2026-01-01 00:00:00+00", "00000000-0000-4000-8000-000000000000"];
    const tokens = [
      encodeCursor({ scope: "applications:pending", page: 2, key }),
      encodeCursor({ scope: "reports:reg-b", page: 2, key: ["2026-13-45 99:00:00+00", "x'; drop table loan_applications; --"] }),
      encodeCursor({ scope: "reports:reg-b", page: 2, key: [null, null] }),
      encodeCursor({ scope: "reports:reg-b", page: 2, key: [key[0]!] }),
      "A".repeat(5000),
      "\u0000\u001b",
      "'--",
    ];
    for (const token of tokens) {
      for (const ask of [{ after: token }, { before: token }]) {
        const r = await report(ask);
        expect(r.regB.page, token.slice(0, 40)).toBe(1);
        expect(ids(r), token.slice(0, 40)).toEqual(firstIds);
      }
    }
    // A page number is never read (no OFFSET): the first page.
    expect(ids(await report({ page: 3 }))).toEqual(firstIds);
    // A well-formed token before every row: Previous from it has nothing, so the first page.
    const early = encodeCursor({ scope: "reports:reg-b", page: 2, key });
    expect(ids(await report({ before: early }))).toEqual(firstIds);
  });
});
