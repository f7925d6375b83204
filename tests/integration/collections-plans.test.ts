import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { servicingTermsFrom } from "~/domain/servicing-terms";
import { getConfig, loadConfig, setConfig } from "~/server/platform/config.server";
import { approvedLoans, loanApplications } from "~/server/platform/db/schema.server";
import { collectionsQueuePage } from "~/server/loans/collections-queue.server";
import { sendCollectionsNotices } from "~/server/loans/collections-notices.server";
import { applicationRow } from "../helpers/application-rows";
import { captureStatements, expectBounded } from "../helpers/query-plans";
import { openTestDatabase, TEST_DATABASE_URL, type TestDatabase } from "../helpers/test-db";
import { seedApplicants, seedStaff } from "../helpers/seed";

/**
 * The collections queue and the collections notices at flat cost (decision 0098), on PostgreSQL (its
 * planner's choices are production's): a lender with thousands of current and paid-off loans and a few
 * hundred late ones, some assigned. Every statement a queue page sends (All, Assigned to Me, Unassigned,
 * a later page) and every statement of a notices pass is EXPLAIN ANALYZEd with its own parameters: no
 * growing table is read whole, and no scan hands up more than a page's worth of rows.
 */

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-collections-plans-"));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const TODAY = "2026-06-15";
const day = (offset: number) => {
  const d = new Date(`${TODAY}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
};

describe.skipIf(!TEST_DATABASE_URL)("the collections queue's and notices' plans on a seeded PostgreSQL database", () => {
  let database: TestDatabase;
  const pool = () => database.pool!;
  let viewer = { id: "", name: "", email: "" };

  beforeAll(async () => {
    setConfig(loadConfig({ DATA_DIR: dataDir, APP_SECRET: "q".repeat(48), PWNED_PASSWORDS_URL: "off" }));
    database = await openTestDatabase({ target: "postgres", global: true, poolSize: 2 });
    const db = database.db;
    const officer = await seedStaff(db, { id: "plan-officer", name: "Pat Officer", email: "pat@example.com", role: "loan_officer" });
    const other = await seedStaff(db, { id: "plan-officer-2", name: "Quinn Officer", email: "quinn@example.com", role: "loan_officer" });
    viewer = { id: officer.id, name: officer.name, email: officer.email };
    const users = Array.from({ length: 500 }, (_, i) => ({ id: `coll-borrower-${i}`, name: `Borrower ${i}`, email: `coll.borrower.${i}@example.com`, emailVerified: true }));
    await seedApplicants(db, users);
    type Shape = { status: "active" | "paid_off"; nextDueDate: string | null; collectorId: string | null };
    const shapes: Shape[] = [];
    const add = (n: number, shape: (i: number) => Shape) => {
      for (let i = 0; i < n; i++) shapes.push(shape(i));
    };
    add(9000, (i) => ({ status: "active", nextDueDate: day(1 + (i % 28)), collectorId: null }));
    add(2000, () => ({ status: "paid_off", nextDueDate: null, collectorId: null }));
    // Late: the oldest 300 are worked by someone else (Unassigned steps over them), 60 by the viewer.
    add(1000, (i) => ({ status: "active", nextDueDate: day(-1 - (i % 150)), collectorId: i < 300 ? other.id : i < 360 ? officer.id : null }));
    const order = shapes.map((_, i) => i).sort((a, b) => ((a * 7919) % 9973) - ((b * 7919) % 9973) || a - b);
    for (let start = 0; start < order.length; start += 1000) {
      const chunk = order.slice(start, start + 1000);
      const apps = await db
        .insert(loanApplications)
        .values(chunk.map((i) => applicationRow(users[i % users.length]!.id, { status: "approved", reviewedAt: new Date(`${day(-400)}T15:00:00Z`) })))
        .returning({ id: loanApplications.id, userId: loanApplications.userId });
      await db.insert(approvedLoans).values(
        chunk.map((i, k) => ({
          userId: apps[k]!.userId,
          applicationId: apps[k]!.id,
          obligorName: "Ann Applicant",
          ...shapes[i]!,
          balanceCents: 1_000_000,
          termMonths: 24,
          amountCents: 1_000_000,
          noteRateMilli: 12_000,
          paymentCents: 47_073,
          startDate: day(-200),
          servicingTerms: servicingTermsFrom(getConfig().lateFeePolicy),
        })),
      );
    }
    await pool().query("vacuum analyze");
  }, 600_000);
  afterAll(() => database?.cleanup());

  it("reads a page of index entries for each filter and a later page, whatever the number of loans", async () => {
    const { capture } = captureStatements(pool());
    const caller = { actor: viewer, request: {} };
    for (const filter of ["all", "mine", "unassigned"] as const) {
      const first = await capture(() => collectionsQueuePage({ filter, after: null }, caller, database.db, TODAY));
      expect(first.result.rows.length).toBe(25);
      // Oldest first.
      const days = first.result.rows.map((r) => r.nextDueDate);
      expect([...days].sort()).toEqual(days);
      if (filter === "mine") expect(first.result.rows.every((r) => r.collector?.id === viewer.id)).toBe(true);
      if (filter === "unassigned") expect(first.result.rows.every((r) => r.collector === null)).toBe(true);
      await expectBounded(pool(), first.statements, { rows: 100 });
      const [dueDate, id] = first.result.next!.split("_");
      const second = await capture(() => collectionsQueuePage({ filter, after: { nextDueDate: dueDate!, id: id! } }, caller, database.db, TODAY));
      expect(second.result.rows[0]!.nextDueDate >= days.at(-1)!).toBe(true);
      expect(second.result.rows.map((r) => r.loanId)).not.toContain(first.result.rows.at(-1)!.loanId);
      await expectBounded(pool(), second.statements, { rows: 100 });
    }
  });

  it("a notices pass reads only the loans in a notice's window, never the current or paid-off ones", async () => {
    const { capture } = captureStatements(pool());
    const { statements } = await capture(() => sendCollectionsNotices(database.db, new Date(`${TODAY}T15:00:00Z`)));
    const reads = statements.filter((s) => /^select .* from "approved_loans"/is.test(s.text) && /not exists/i.test(s.text));
    expect(reads.length).toBeGreaterThan(0);
    // The 15/30/60 windows hold (15 + 30 + 7) of the 150 late days: about a third of the late loans, read in batches of 100.
    await expectBounded(pool(), reads, { rows: 100 });
  });
});
