import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { PageCursors, PageRequest } from "~/domain/paging";
import { REVIEW_PAGE_SIZE, REVIEW_TABS } from "~/domain/validation/review";
import { listApplicationsPage } from "~/server/applications/staff-applications.server";
import { DOCUMENTS_PAGE_SIZE, listDocuments } from "~/server/applications/documents.server";
import { listContactMessages, MESSAGES_PAGE_SIZE } from "~/server/public-site/contact-inbox.server";
import { encodeCursor } from "~/server/platform/db/paging.server";
import type { AuditActor } from "~/server/platform/audit/audit.server";
import { todayUtc } from "~/domain/dates";
import { listLoans, LOANS_PAGE_SIZE } from "~/server/loans/staff-loans.server";
import { seedScale, type ScaleSeedResult } from "../../bench/seed-scale";
import { setUpTestConfig } from "../helpers/temp-config";
import { testTargets, useTestDatabase } from "../helpers/test-db";

/**
 * Issue 24 (decision 0050): every admin list walked by its Next tokens from the first page and by its
 * Previous tokens from the last equals the whole list in its order, read directly: no row lost or
 * shown twice, with many rows tied on every timestamp and date (the id breaks the tie), with NULL due
 * dates, and with rows inserted and deleted between page loads.
 */

setUpTestConfig("keyset-paging", { APP_SECRET: "s".repeat(48), PUBLIC_URL: "https://loans.example.com" });

type Shown = { ids: string[]; page: number; pageCount: number; cursors: PageCursors };
type Load = (request: PageRequest) => Promise<Shown>;

/** Every page by Next from the first; the pages' numbers as shown. */
async function forward(load: Load, between?: (step: number) => Promise<void>): Promise<{ ids: string[]; pages: number[] }> {
  const ids: string[] = [];
  const pages: number[] = [];
  let shown = await load({ page: 1 });
  for (let step = 0; ; step++) {
    ids.push(...shown.ids);
    pages.push(shown.page);
    if (!shown.cursors.next) break;
    if (step > 500) throw new Error("no end");
    await between?.(step);
    shown = await load({ page: 1, after: shown.cursors.next });
  }
  return { ids, pages };
}

/** Every page by Previous from the last, put back in the list's order. */
async function backward(load: Load): Promise<{ ids: string[]; pages: number[] }> {
  const chunks: string[][] = [];
  const pages: number[] = [];
  let shown = await load({ page: 1, last: true });
  for (let step = 0; ; step++) {
    chunks.unshift(shown.ids);
    pages.unshift(shown.page);
    if (!shown.cursors.prev) break;
    if (step > 500) throw new Error("no end");
    shown = await load({ page: 1, before: shown.cursors.prev });
  }
  return { ids: chunks.flat(), pages };
}

describe.each(testTargets)("keyset paging of the admin lists (%s)", (target) => {
  const database = useTestDatabase({ target, global: true });
  const db = () => database().db;
  const ids = async (text: string) => ((await db().execute(sql.raw(text))) as unknown as { rows: { id: string }[] }).rows.map((r) => r.id);
  let seeded: ScaleSeedResult;
  let staff: AuditActor;
  const today = todayUtc();

  async function seed() {
    if (seeded) return;
    seeded = await seedScale(database(), { applicants: 40, applications: 260, admins: 2, password: "Str0ng!Passw0rd" });
    staff = seeded.admins[0]!;
    // Ties everywhere: applications in groups of 7 on one instant, documents of different
    // applications on one instant, loans on five due dates (and none) and one approval instant.
    const statements = [
      `update loan_applications set submitted_at = date_trunc('day', submitted_at) where ('x' || substr(md5(id::text), 1, 4))::bit(16)::int % 2 = 0`,
      `update loan_applications set assigned_to = '${staff.id}' where ('x' || substr(md5(id::text), 5, 4))::bit(16)::int % 3 = 0`,
      `update loan_documents set uploaded_at = date_trunc('month', uploaded_at)`,
      `update approved_loans set approval_date = date_trunc('year', approval_date),
         next_due_date = case when ('x' || substr(md5(id::text), 1, 4))::bit(16)::int % 6 = 5 then null
                              else (now() at time zone 'utc')::date + (('x' || substr(md5(id::text), 1, 4))::bit(16)::int % 6 - 2) end,
         status = case when ('x' || substr(md5(id::text), 9, 4))::bit(16)::int % 4 = 0 then 'paid_off' else status end`,
      `insert into contact_messages (name, email, subject, message, status, created_at)
         select 'Visitor ' || i, 'visitor' || i || '@example.com', 'Question ' || i, 'Hello', (array['new', 'read', 'archived'])[1 + i % 3],
                date_trunc('hour', now()) - (i / 4) * interval '1 hour'
         from generate_series(1, 130) i`,
    ];
    for (const statement of statements) await db().execute(sql.raw(statement));
  }

  it("the admin list, every tab and My Queue: Next from the first page and Previous from the last give the whole tab in order", async () => {
    await seed();
    for (const mine of [false, true]) {
      for (const tab of REVIEW_TABS) {
        const load: Load = async (request) => {
          const list = await listApplicationsPage({ tab, mine, ...request }, db(), staff);
          return { ids: list.applications.map((a) => a.id), page: list.page, pageCount: list.pageCount, cursors: list.cursors };
        };
        const expected = await ids(
          `select id::text as id from loan_applications where status = '${tab}' ${mine ? `and assigned_to = '${staff.id}'` : ""} order by submitted_at desc, id desc`,
        );
        const pageCount = Math.max(1, Math.ceil(expected.length / REVIEW_PAGE_SIZE));
        const next = await forward(load);
        expect(next.ids).toEqual(expected);
        expect(next.pages).toEqual(Array.from({ length: pageCount }, (_, i) => i + 1));
        const prev = await backward(load);
        expect(prev.ids).toEqual(expected);
        expect(prev.pages).toEqual(Array.from({ length: pageCount }, (_, i) => i + 1));
      }
    }
  });

  it("the loans list, every filter, NULL due dates last: both ways equal the list", async () => {
    await seed();
    const filters = {
      all: "true",
      current: `status <> 'paid_off' and (next_due_date is null or next_due_date >= '${today}')`,
      late: `status <> 'paid_off' and next_due_date < '${today}'`,
      paid_in_full: "status = 'paid_off'",
    } as const;
    for (const [filter, where] of Object.entries(filters) as [keyof typeof filters, string][]) {
      const load: Load = async (request) => {
        const list = await listLoans({ filter, q: "", ...request }, { actor: staff, request: {} }, db(), today);
        return { ids: list.loans.map((l) => l.id), page: list.page, pageCount: list.pageCount, cursors: list.cursors! };
      };
      const expected = await ids(`select id::text as id from approved_loans where ${where} order by next_due_date asc nulls last, approval_date desc, id asc`);
      expect(expected.length).toBeGreaterThan(LOANS_PAGE_SIZE / 5);
      expect((await forward(load)).ids).toEqual(expected);
      expect((await backward(load)).ids).toEqual(expected);
    }
  });

  it("the contact messages (both views) and the documents (all, one client's): both ways equal the list", async () => {
    await seed();
    for (const view of ["inbox", "archived"] as const) {
      const load: Load = async (request) => {
        const list = await listContactMessages({ view, ...request }, { actor: staff, request: {} }, db());
        return { ids: list.items.map((m) => m.id), page: list.page, pageCount: list.pageCount, cursors: list.cursors };
      };
      const expected = await ids(`select id::text as id from contact_messages where status ${view === "archived" ? "=" : "<>"} 'archived' order by created_at desc, id desc`);
      expect(expected.length).toBeGreaterThan(MESSAGES_PAGE_SIZE * 2);
      expect((await forward(load)).ids).toEqual(expected);
      expect((await backward(load)).ids).toEqual(expected);
    }
    const documentOrder = "order by uploaded_at desc, application_id asc, document_type asc, id asc";
    const [client] = await ids(`select user_id as id from loan_documents group by user_id order by count(*) desc, user_id limit 1`);
    for (const clientId of [null, client!]) {
      const load: Load = async (request) => {
        const list = await listDocuments({ ...request, clientId }, { actor: staff, request: {} }, db());
        return { ids: list.documents.map((d) => d.id), page: list.page, pageCount: list.pageCount, cursors: list.cursors };
      };
      const expected = await ids(`select id::text as id from loan_documents ${clientId ? `where user_id = '${clientId}'` : ""} ${documentOrder}`);
      if (!clientId) expect(expected.length).toBeGreaterThan(DOCUMENTS_PAGE_SIZE * 3);
      expect((await forward(load)).ids).toEqual(expected);
      expect((await backward(load)).ids).toEqual(expected);
    }
  });

  it("rows inserted and deleted between page loads: Next never repeats or skips a row that stayed", async () => {
    await seed();
    const load: Load = async (request) => {
      const list = await listContactMessages({ view: "inbox", ...request }, { actor: staff, request: {} }, db());
      return { ids: list.items.map((m) => m.id), page: list.page, pageCount: list.pageCount, cursors: list.cursors };
    };
    const before = await ids(`select id::text as id from contact_messages where status <> 'archived' order by created_at desc, id desc`);
    let deleted = "";
    const walked = await forward(load, async (step) => {
      if (step !== 1) return;
      // A newer message (before the token: not shown), an older one (shown at the end), and a row further down deleted.
      await db().execute(sql`insert into contact_messages (name, email, subject, message, status, created_at) values ('New', 'n@example.com', 'Newest', 'Hi', 'new', now() + interval '1 day')`);
      await db().execute(sql`insert into contact_messages (name, email, subject, message, status, created_at) values ('Old', 'o@example.com', 'Oldest', 'Hi', 'new', now() - interval '20 years')`);
      deleted = before.at(-3)!;
      await db().execute(sql`delete from contact_messages where id = ${deleted}::uuid`);
    });
    const [oldest] = await ids(`select id::text as id from contact_messages where subject = 'Oldest'`);
    expect(walked.ids).toEqual([...before.filter((id) => id !== deleted), oldest]);
    expect(new Set(walked.ids).size).toBe(walked.ids.length);
  });

  it("a token from another tab, list or client, a forged or damaged one: the first page, never an error", async () => {
    await seed();
    const first = await listApplicationsPage({ tab: "pending" }, db(), staff);
    expect(first.cursors.prev).toBeNull();
    const second = await listApplicationsPage({ tab: "pending", after: first.cursors.next }, db(), staff);
    expect(second.page).toBe(2);
    const firstIds = first.applications.map((a) => a.id);
    const asFirst = async (request: PageRequest) => {
      const list = await listApplicationsPage({ tab: "pending", ...request }, db(), staff);
      expect(list.page).toBe(1);
      expect(list.applications.map((a) => a.id)).toEqual(firstIds);
    };
    // Another tab's token, My Queue's, the loans list's: ignored.
    const approved = await listApplicationsPage({ tab: "approved" }, db(), staff);
    await asFirst({ page: 1, after: approved.cursors.next });
    const queue = await listApplicationsPage({ tab: "pending", mine: true }, db(), staff);
    await asFirst({ page: 1, after: queue.cursors.next });
    const loans = await listLoans({ filter: "all", q: "" }, { actor: staff, request: {} }, db(), today);
    await asFirst({ page: 1, after: loans.cursors!.next });
    // Forged: values the columns cannot hold, wrong arity, a month 13, a text where a uuid goes, not JSON, huge.
    const forged = [
      encodeCursor({ scope: "applications:pending", page: 3, key: ["2026-13-01 00:00:00+00", "00000000-0000-0000-0000-000000000000"] }),
      encodeCursor({ scope: "applications:pending", page: 3, key: ["2026-02-30 00:00:00+00", "00000000-0000-0000-0000-000000000000"] }),
      encodeCursor({ scope: "applications:pending", page: 3, key: ["2026-01-01 00:00:00+00", "'; drop table loan_applications; --"] }),
      encodeCursor({ scope: "applications:pending", page: 3, key: ["2026-01-01 00:00:00+00"] }),
      encodeCursor({ scope: "applications:pending", page: 3, key: [null, null] }),
      Buffer.from("not json").toString("base64url"),
      Buffer.from(JSON.stringify({ s: "applications:pending", p: 2, k: ["x", "y"], extra: 1 })).toString("base64url"),
      "A".repeat(10_000),
      "abc\u0000def",
      "",
    ];
    for (const token of forged) {
      await asFirst({ page: 1, after: token });
      await asFirst({ page: 1, before: token });
    }
    // A token past the end (every row after it gone): the last page; one before the start: the first.
    const beyond = encodeCursor({ scope: "applications:pending", page: 9, key: ["1901-01-01 00:00:00+00", "00000000-0000-0000-0000-000000000000"] });
    const last = await listApplicationsPage({ tab: "pending", after: beyond }, db(), staff);
    expect(last.page).toBe(last.pageCount);
    expect(last.cursors.next).toBeNull();
    const future = encodeCursor({ scope: "applications:pending", page: 9, key: ["2999-01-01 00:00:00+00", "ffffffff-ffff-ffff-ffff-ffffffffffff"] });
    await asFirst({ page: 1, before: future });
    // Old bookmarks by number: page 2 by OFFSET, a page past the end is the last page.
    expect((await listApplicationsPage({ tab: "pending", page: 2 }, db(), staff)).applications.map((a) => a.id)).toEqual(second.applications.map((a) => a.id));
    expect((await listApplicationsPage({ tab: "pending", page: 99_999 }, db(), staff)).applications.map((a) => a.id)).toEqual(
      (await listApplicationsPage({ tab: "pending", last: true }, db(), staff)).applications.map((a) => a.id),
    );
  });
});
