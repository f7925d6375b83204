import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays } from "~/domain/dates";
import { servicingTermsFrom } from "~/domain/servicing-terms";
import { getConfig } from "~/server/platform/config.server";
import { DELINQUENCY_BUCKET_KEYS, delinquencyBucket, type DelinquencyBucket } from "~/domain/delinquency";
import type { AuditActor } from "~/server/platform/audit/audit.server";
import { approvedLoans, delinquencyRolls, delinquencySnapshots, delinquencyTotals, loanApplications } from "~/server/platform/db/schema.server";
import { bucketSql, runDelinquencyJob, SNAPSHOT_MONTH_ENDS_KEPT } from "~/server/loans/delinquency-job.server";
import { delinquencyReport } from "~/server/loans/delinquency-report.server";
import { runServicingJobs } from "~/server/loans/servicing-jobs.server";
import { listLoans, parseLoansUrl } from "~/server/loans/staff-loans.server";
import { applicationRow } from "../helpers/application-rows";
import { setUpTestConfig } from "../helpers/temp-config";
import { useTestDatabase } from "../helpers/test-db";
import { seedApplicant, seedStaff } from "../helpers/seed";

/**
 * Delinquency (decision 0096) against PGlite: the loans list's bucket filter, counts and paging; the
 * SQL bucket rule against the TypeScript one; the month-end snapshot, totals and rolls against a hand
 * count, written once however often the job runs; the daily totals; the reports page's figures; and
 * the servicing job's one call.
 */

setUpTestConfig("delinquency", { APP_SECRET: "d".repeat(48) });

const admin: AuditActor = { id: "delinquency-admin", name: "Dee Admin", email: "delinquency-admin@example.com" };
const caller = { actor: admin, request: { ip: "203.0.113.40", userAgent: "vitest-delinquency" } };

describe("delinquency on pglite", () => {
  const database = useTestDatabase({ global: true });
  const db = () => database().db;
  let n = 0;

  beforeAll(async () => {
    await seedStaff(db(), { id: admin.id, name: admin.name, email: admin.email, role: "admin" });
  });

  /** A loan not yet paid: `balance` principal, its first unpaid installment due on `nextDueDate`. */
  async function newLoan({ nextDueDate, balance = 100_000, status = "active", name = "Val Borrower", startDate = "2025-01-05" }: { nextDueDate: string | null; balance?: number; status?: "active" | "paid_off" | "cancelled"; name?: string; startDate?: string }) {
    n += 1;
    const userId = `delinq-${n}-${randomUUID().slice(0, 6)}`;
    const email = `delinq${n}.${userId.slice(-6)}@example.com`;
    await seedApplicant(db(), { id: userId, name, email, profile: true });
    const [app] = await db().insert(loanApplications).values(applicationRow(userId, { email })).returning({ id: loanApplications.id });
    const [loan] = await db()
      .insert(approvedLoans)
      .values({
        userId,
        applicationId: app!.id,
        obligorName: name,
        status,
        balanceCents: status === "paid_off" ? 0 : balance,
        termMonths: 36,
        amountCents: 1_000_000,
        noteRateMilli: 9000,
        paymentCents: 31_800,
        startDate,
        nextDueDate,
        ...(status === "cancelled" ? { cancelledAt: new Date(), cancelReason: "test" } : {}),
      })
      .returning();
    return loan!;
  }

  describe("the loans list by bucket", () => {
    const TODAY = "2026-06-15";
    // Days past due of the loans made, two per bucket, and 26 more 200 days behind (paging).
    const days = [-20, 0, 1, 29, 30, 59, 60, 89, 90, 119, 120, 400];
    const made = new Map<string, number>();

    beforeAll(async () => {
      for (const d of days) made.set((await newLoan({ nextDueDate: addDays(TODAY, -d), name: d === 30 ? "Quinn Searchable" : "Val Borrower" })).id, d);
      for (let i = 0; i < 26; i++) made.set((await newLoan({ nextDueDate: addDays(TODAY, -200 - (i % 3)) })).id, 200);
      await newLoan({ nextDueDate: null, status: "paid_off" });
      await newLoan({ nextDueDate: null, status: "cancelled" });
    });

    const list = (search: string) => listLoans(parseLoansUrl(new URL(`http://localhost/admin/loans${search}`)), caller, db(), TODAY);

    it("counts each bucket from the kept counts, as a direct count of the loans", async () => {
      const { bucketCounts } = await list("");
      expect(bucketCounts).toEqual({ current: 2, "1-29": 2, "30-59": 2, "60-89": 2, "90-119": 2, "120+": 28 });
    });

    it("filters by each bucket: exactly its loans, each with its days past due and bucket", async () => {
      for (const bucket of DELINQUENCY_BUCKET_KEYS.filter((b) => b !== "120+")) {
        const page = await list(`?bucket=${encodeURIComponent(bucket)}`);
        expect(page.bucket).toBe(bucket);
        expect(page.filter).toBe("all");
        expect(page.total).toBe(2);
        const expected = [...made].filter(([, d]) => delinquencyBucket(d) === bucket).map(([id]) => id).sort();
        expect(page.loans.map((l) => l.id).sort()).toEqual(expected);
        for (const loan of page.loans) {
          expect(loan.bucket).toBe(bucket);
          expect(loan.daysPastDue).toBe(Math.max(0, made.get(loan.id)!));
        }
      }
    });

    it("pages a bucket by keyset: 28 loans 120+ days behind in two pages that never overlap", async () => {
      const first = await list(`?bucket=${encodeURIComponent("120+")}`);
      expect(first.total).toBe(28);
      expect(first.loans).toHaveLength(25);
      expect(first.cursors?.next).toBeTruthy();
      const second = await list(`?bucket=${encodeURIComponent("120+")}&after=${encodeURIComponent(first.cursors!.next!)}`);
      expect(second.loans).toHaveLength(3);
      const ids = [...first.loans, ...second.loans].map((l) => l.id);
      expect(new Set(ids).size).toBe(28);
      // Oldest due date first: the 400-day loan leads.
      expect(first.loans[0]!.daysPastDue).toBe(400);
      expect(ids.every((id) => made.get(id)! >= 120)).toBe(true);
    });

    it("an unknown bucket lists every loan with a notice (never an error); a bucket replaces the status filter; a search narrows a bucket", async () => {
      const unknown = await list("?bucket=31-60&status=late");
      expect(unknown.bucket).toBeNull();
      expect(unknown.bucketNotice).toBe('There is no days-past-due range "31-60": showing every range.');
      expect(unknown.filter).toBe("late");
      // Late: every loan 1 day or more behind (10 of the edges, and the 26).
      expect(unknown.total).toBe(36);
      const both = await list("?bucket=current&status=paid_in_full");
      expect(both.filter).toBe("all");
      expect(both.total).toBe(2);
      const searched = await list(`?bucket=30-59&q=${encodeURIComponent("Quinn")}`);
      expect(searched.loans.map((l) => made.get(l.id))).toEqual([30]);
      const elsewhere = await list(`?bucket=60-89&q=${encodeURIComponent("Quinn")}`);
      expect(elsewhere.total).toBe(0);
    });
  });

  it("the SQL bucket rule is delinquencyBucket's for every day from 10 ahead to 400 behind", async () => {
    const asOf = "2026-03-31";
    const result = (await db().execute(
      sql`select d::int as days, ${bucketSql(asOf, sql`(${asOf}::date - d)`)} as bucket from generate_series(-10, 400) d`,
    )) as unknown as { rows: { days: number; bucket: string }[] };
    expect(result.rows).toHaveLength(411);
    for (const row of result.rows) expect(row.bucket, `${row.days} days`).toBe(delinquencyBucket(row.days));
    const none = (await db().execute(sql`select ${bucketSql(asOf, sql`null::date`)} as bucket`)) as unknown as { rows: { bucket: string }[] };
    expect(none.rows[0]!.bucket).toBe("current");
  });
});

describe("the delinquency job and the report on pglite", () => {
  const database = useTestDatabase({ global: true });
  const db = () => database().db;
  let n = 0;

  async function newLoan(nextDueDate: string | null, balance: number, startDate = "2026-01-10") {
    n += 1;
    const userId = `job-${n}-${randomUUID().slice(0, 6)}`;
    await seedApplicant(db(), { id: userId, name: "Jo Borrower", email: `job${n}.${userId.slice(-6)}@example.com`, profile: true });
    const [app] = await db().insert(loanApplications).values(applicationRow(userId)).returning({ id: loanApplications.id });
    const [loan] = await db()
      .insert(approvedLoans)
      .values({
        userId,
        applicationId: app!.id,
        obligorName: "Jo Borrower",
        status: "active",
        balanceCents: balance,
        termMonths: 24,
        amountCents: 1_000_000,
        noteRateMilli: 9000,
        paymentCents: 45_700,
        startDate,
        nextDueDate,
        servicingTerms: servicingTermsFrom(getConfig().lateFeePolicy),
      })
      .returning();
    return loan!.id;
  }
  const setLoan = (id: string, values: Partial<typeof approvedLoans.$inferInsert>) => db().update(approvedLoans).set(values).where(eq(approvedLoans.id, id));
  const totalsOf = async (asOf: string) =>
    Object.fromEntries((await db().select().from(delinquencyTotals).where(eq(delinquencyTotals.asOf, asOf))).map((r) => [r.bucket, [r.loans, Number(r.principalCents)]]));
  const rollsOf = async (asOf: string) =>
    (await db().select().from(delinquencyRolls).where(eq(delinquencyRolls.asOf, asOf)))
      .map((r) => `${r.fromBucket}>${r.toBucket}:${r.loans}:${Number(r.principalCents)}`)
      .sort();

  const loans: Record<string, string> = {};

  it("writes the month end's snapshot and totals at the first run on the 1st, as a hand count; runs again write nothing", async () => {
    // At 2026-05-31: A current (due 05-31 itself), B current (due 06-10), C 1 day, D 30, E 75, F 119, G 150.
    loans.A = await newLoan("2026-05-31", 100_000);
    loans.B = await newLoan("2026-06-10", 200_000);
    loans.C = await newLoan("2026-05-30", 300_000);
    loans.D = await newLoan("2026-05-01", 400_000);
    loans.E = await newLoan("2026-03-17", 500_000);
    loans.F = await newLoan("2026-02-01", 600_000);
    loans.G = await newLoan("2026-01-01", 700_000, "2025-12-01");
    // Not in the book: a loan signed after the month end, and a paid-off one.
    const later = await newLoan("2026-07-02", 900_000, "2026-06-01");
    const paid = await newLoan(null, 0);
    await setLoan(paid, { status: "paid_off" });

    const first = await runDelinquencyJob(db(), "2026-06-01");
    expect(first).toEqual({ monthEnd: "2026-05-31", closedDay: null, snapshotLoans: 7, rolls: 0 });
    const snapshot = await db().select().from(delinquencySnapshots).where(eq(delinquencySnapshots.asOf, "2026-05-31"));
    expect(Object.fromEntries(snapshot.map((s) => [s.loanId, s.bucket]))).toEqual({
      [loans.A!]: "current",
      [loans.B!]: "current",
      [loans.C!]: "1-29",
      [loans.D!]: "30-59",
      [loans.E!]: "60-89",
      [loans.F!]: "90-119",
      [loans.G!]: "120+",
    });
    expect(snapshot.some((s) => s.loanId === later || s.loanId === paid)).toBe(false);
    expect(await totalsOf("2026-05-31")).toEqual({
      current: [2, 300_000],
      "1-29": [1, 300_000],
      "30-59": [1, 400_000],
      "60-89": [1, 500_000],
      "90-119": [1, 600_000],
      "120+": [1, 700_000],
    });

    // Later runs the same day, and a run after the loans changed: the month end is never rewritten.
    await setLoan(loans.A!, { nextDueDate: "2026-04-01" });
    expect(await runDelinquencyJob(db(), "2026-06-01")).toEqual({ monthEnd: null, closedDay: null, snapshotLoans: 0, rolls: 0 });
    await Promise.all([runDelinquencyJob(db(), "2026-06-01"), runDelinquencyJob(db(), "2026-06-01")]);
    expect((await db().select().from(delinquencySnapshots)).length).toBe(7);
    expect((await totalsOf("2026-05-31")).current).toEqual([2, 300_000]);
    await setLoan(loans.A!, { nextDueDate: "2026-05-31" });
  });

  it("on other days writes yesterday's totals once; the next month end writes the rolls from the one before, as a hand count", async () => {
    // 2026-06-16: yesterday's (06-15) totals, days counted to 06-15.
    const day = await runDelinquencyJob(db(), "2026-06-16");
    expect(day).toEqual({ monthEnd: null, closedDay: "2026-06-15", snapshotLoans: 0, rolls: 0 });
    // 06-15: A 15 days (due 05-31), B 5 (due 06-10), C 16, D 45, E 90, F 134, G 165; the loan signed 06-01 current.
    expect(await totalsOf("2026-06-15")).toEqual({
      current: [1, 900_000],
      "1-29": [3, 600_000],
      "30-59": [1, 400_000],
      "60-89": [0, 0],
      "90-119": [1, 500_000],
      "120+": [2, 1_300_000],
    });
    expect((await runDelinquencyJob(db(), "2026-06-16")).closedDay).toBeNull();

    // June: A pays nothing (1-29 → ... at 06-30 it is 30 days: 30-59), B pays on time (current),
    // C catches up (cured: current), D pays one installment (still 30-59 on 06-30? due 06-01: 29 days, 1-29),
    // E pays nothing (60-89 → 90-119), F is paid off, G pays nothing (120+ → 120+).
    await setLoan(loans.B!, { nextDueDate: "2026-07-10", balanceCents: 190_000 });
    await setLoan(loans.C!, { nextDueDate: "2026-07-30", balanceCents: 280_000 });
    await setLoan(loans.D!, { nextDueDate: "2026-06-01", balanceCents: 390_000 });
    await setLoan(loans.F!, { status: "paid_off", nextDueDate: null, balanceCents: 0 });

    const monthEnd = await runDelinquencyJob(db(), "2026-07-03");
    expect(monthEnd).toMatchObject({ monthEnd: "2026-06-30", closedDay: "2026-07-02", snapshotLoans: 7 /* six of May, and the loan signed 06-01 */ });
    expect(await totalsOf("2026-06-30")).toEqual({
      current: [3, 200_000 - 10_000 + 280_000 + 900_000],
      "1-29": [1, 390_000],
      "30-59": [1, 100_000],
      "60-89": [0, 0],
      "90-119": [1, 500_000],
      "120+": [1, 700_000],
    });
    // Principal in a roll is the loan's at the earlier month end.
    expect(await rollsOf("2026-06-30")).toEqual(
      [
        "current>30-59:1:100000", // A
        "current>current:1:200000", // B
        "1-29>current:1:300000", // C, cured
        "30-59>1-29:1:400000", // D, better
        "60-89>90-119:1:500000", // E
        "90-119>paid_off:1:600000", // F
        "120+>120+:1:700000", // G
      ].sort(),
    );

    // The report, on 07-03: the close of 07-02, and the roll rates of June (May had no month end before it).
    const report = await delinquencyReport(db(), "2026-07-03");
    expect(report.asOf).toBe("2026-07-02");
    expect(report.totalLoans).toBe(7);
    expect(report.buckets.map((b) => b.bucket)).toEqual([...DELINQUENCY_BUCKET_KEYS]);
    expect(report.rolls.map((r) => r.asOf)).toEqual(["2026-06-30"]);
    const june = report.rolls[0]!;
    const rate = (from: DelinquencyBucket) => june.rates.find((r) => r.from === from)!;
    expect(rate("current")).toMatchObject({ to: "1-29", baseLoans: 2, rolledLoans: 0, basePrincipalCents: 300_000, rolledPrincipalCents: 0 });
    expect(rate("60-89")).toMatchObject({ to: "90-119", baseLoans: 1, rolledLoans: 1, basePrincipalCents: 500_000, rolledPrincipalCents: 500_000 });
    expect(rate("30-59")).toMatchObject({ to: "60-89", baseLoans: 1, rolledLoans: 0 });
    expect(june.rates.map((r) => r.from)).toEqual(["current", "1-29", "30-59", "60-89", "90-119"]);
    expect(june.cured).toEqual({ loans: 1, baseLoans: 5 });
    expect(june.paidOff).toEqual({ loans: 1, baseLoans: 7 });
  });

  it("the report before anything was measured, and the servicing job's run writes the book", async () => {
    const empty = await delinquencyReport(db(), "2026-05-20");
    expect(empty.asOf).toBeNull();
    expect(empty.rolls).toEqual([]);
    expect(empty.buckets.every((b) => b.loans === 0)).toBe(true);

    await runServicingJobs(db(), new Date("2026-08-01T00:30:00Z"));
    expect(Object.keys(await totalsOf("2026-07-31")).sort()).toEqual([...DELINQUENCY_BUCKET_KEYS].sort());
    expect((await rollsOf("2026-07-31")).length).toBeGreaterThan(0);
    const report = await delinquencyReport(db(), "2026-08-01");
    expect(report.asOf).toBe("2026-07-31");
    expect(report.rolls.map((r) => r.asOf)).toEqual(["2026-07-31", "2026-06-30"]);
  });

  it("keeps the loan-level snapshots of the newest month end and the twelve before it; the totals and rolls of every month end stay", async () => {
    // Month ends 2026-08-31 through 2027-08-31, each written at the first run on the 1st after it.
    for (let i = 0; i < 13; i++) {
      const first = new Date(Date.UTC(2026, 8 + i, 1)).toISOString().slice(0, 10);
      await runDelinquencyJob(db(), first);
    }
    const kept = await db().selectDistinct({ asOf: delinquencySnapshots.asOf }).from(delinquencySnapshots).orderBy(delinquencySnapshots.asOf);
    expect(kept.map((k) => k.asOf)).toHaveLength(SNAPSHOT_MONTH_ENDS_KEPT);
    expect(kept[0]!.asOf).toBe("2026-08-31");
    expect(kept.at(-1)!.asOf).toBe("2027-08-31");
    // What the reports read is all still there, the earliest month end's included.
    expect(Object.keys(await totalsOf("2026-05-31")).sort()).toEqual([...DELINQUENCY_BUCKET_KEYS].sort());
    expect((await rollsOf("2026-06-30")).length).toBeGreaterThan(0);
    expect((await rollsOf("2027-08-31")).length).toBeGreaterThan(0);
  });
});
