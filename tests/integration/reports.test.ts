import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { defaultReportRange, readReportRange, REPORT_RANGE_MESSAGES, reportRangeSchema } from "~/domain/validation/reports";
import { formatTenths, rateTenths } from "~/domain/views/pipeline-report";
import type { AuditActor } from "~/server/platform/audit/audit.server";
import { auditLog, loanApplications, requestItems, type NewLoanApplication } from "~/server/platform/db/schema.server";
import { pipelineReport, viewPipelineReport } from "~/server/staff/pipeline-report.server";
import { applicationRow } from "../helpers/application-rows";
import { setUpTestConfig } from "../helpers/temp-config";
import { useTestDatabase } from "../helpers/test-db";
import { seedApplicant, seedStaff } from "../helpers/seed";

/**
 * The Pipeline Reports page's figures (issue 22) against PGlite, on a seeded set whose answers are
 * worked out by hand below: counts by status, ageing buckets, the median time to decision, decisions
 * per officer, denial reasons, approval rate by loan type, the Reg B clock (not limited by the range),
 * the audit row per view; and the date range's validation.
 */

setUpTestConfig("reports", { APP_SECRET: "r".repeat(48) });

const NOW = new Date("2026-04-10T12:00:00Z");
const RANGE = { from: "2026-01-01", to: "2026-03-31" };
const officer: AuditActor = { id: "rep-officer", name: "Olive Officer", email: "olive.officer@example.com" };
const admin: AuditActor = { id: "rep-admin", name: "Ada Admin", email: "ada.admin@example.com" };
const applicantId = "rep-applicant";
const DAY = 86_400_000;

describe("date range", () => {
  it("defaults to the last 90 days, To inclusive", () => {
    expect(defaultReportRange(NOW)).toEqual({ from: "2026-01-11", to: "2026-04-10" });
    expect(readReportRange(new URLSearchParams(""), NOW)).toEqual({ ok: true, range: { from: "2026-01-11", to: "2026-04-10" } });
    expect(readReportRange(new URLSearchParams("from=2026-03-01"), NOW)).toEqual({ ok: true, range: { from: "2026-03-01", to: "2026-04-10" } });
  });

  it("refuses bad dates, a reversed range and one longer than 5 years, with the form's messages", () => {
    const read = (q: string) => readReportRange(new URLSearchParams(q), NOW);
    expect(read("from=2026-02-30&to=2026-03-01")).toMatchObject({ ok: false, message: REPORT_RANGE_MESSAGES.fromInvalid });
    expect(read("from=2026-01-01&to=31/03/2026")).toMatchObject({ ok: false, message: REPORT_RANGE_MESSAGES.toInvalid });
    expect(read("from=2026-03-02&to=2026-03-01")).toMatchObject({ ok: false, message: REPORT_RANGE_MESSAGES.order });
    expect(read("from=2020-01-01&to=2026-03-01")).toMatchObject({ ok: false, message: REPORT_RANGE_MESSAGES.tooLong });
    expect(read("from=' or 1=1--&to=2026-03-01")).toMatchObject({ ok: false });
    expect(reportRangeSchema.safeParse({ from: "2026-03-01", to: "2026-03-01" }).success).toBe(true);
  });

  it("formats rates from integers exactly", () => {
    expect(rateTenths(2, 3)).toBe(667);
    expect(rateTenths(1, 3)).toBe(333);
    expect(rateTenths(1, 8)).toBe(125);
    expect(rateTenths(0, 0)).toBeNull();
    expect(formatTenths(667)).toBe("66.7%");
    expect(formatTenths(1000)).toBe("100.0%");
    expect(formatTenths(0)).toBe("0.0%");
  });
});

describe("pipeline report on pglite", () => {
  const database = useTestDatabase({ global: true });
  const db = () => database().db;
  const ids: Record<string, string> = {};

  async function app(key: string, overrides: Partial<NewLoanApplication>) {
    const [row] = await db()
      .insert(loanApplications)
      .values(applicationRow(applicantId, { firstName: key, lastName: "Tester", ...overrides }))
      .returning({ id: loanApplications.id });
    ids[key] = row!.id;
    return row!.id;
  }

  beforeAll(async () => {
    await seedStaff(db(), { id: officer.id, name: officer.name, email: officer.email, role: "loan_officer" });
    await seedStaff(db(), { id: admin.id, name: admin.name, email: admin.email, role: "admin" });
    await seedApplicant(db(), { id: applicantId, name: "Applicant", email: "rep.applicant@example.com" });

    const at = (iso: string) => new Date(iso);
    const after = (iso: string, days: number) => new Date(Date.parse(iso) + days * DAY);
    // Undecided, in range: 11 days old (8–14).
    await app("A1", { status: "pending", submittedAt: at("2026-03-30T12:00:00Z") });
    // Undecided, in range, 36 days old (30+), complete since submission: flagged by the Reg B clock.
    await app("A2", { status: "under_review", submittedAt: at("2026-03-05T12:00:00Z"), loanType: "business", businessName: "Acme" });
    // Decided in range: 2, 5, 3 and 4 days (median 3.5).
    await app("A3", { status: "approved", submittedAt: at("2026-02-01T00:00:00Z"), reviewedAt: after("2026-02-01T00:00:00Z", 2), reviewedBy: officer.id });
    await app("A4", { status: "denied", submittedAt: at("2026-02-10T00:00:00Z"), reviewedAt: after("2026-02-10T00:00:00Z", 5), reviewedBy: officer.id, decisionReasons: ["Insufficient income", "Credit history"] });
    await app("A5", { status: "denied", loanType: "business", businessName: "Acme", submittedAt: at("2026-02-10T00:00:00Z"), reviewedAt: after("2026-02-10T00:00:00Z", 3), reviewedBy: admin.id, decisionReasons: ["Insufficient income"] });
    await app("A6", { status: "approved", submittedAt: at("2026-01-15T00:00:00Z"), reviewedAt: after("2026-01-15T00:00:00Z", 4), reviewedBy: officer.id });
    // Before the range: not counted, but open and complete for months, so on the Reg B list.
    await app("A7", { status: "pending", submittedAt: at("2025-12-01T09:00:00Z") });
    // In range, 40 days old (30+), but a document is still outstanding: not complete, not flagged.
    const a8 = await app("A8", { status: "pending", submittedAt: at("2026-03-01T12:00:00Z") });
    await db().insert(requestItems).values({ requestId: randomUUID(), applicationId: a8, userId: applicantId, kind: "bank_statement", dueDate: "2026-04-20", status: "requested" });
    // After the range: not counted anywhere except (were it flagged) the Reg B list; 5 days old, it is not.
    await app("A9", { status: "pending", submittedAt: at("2026-04-05T12:00:00Z") });
    // In range, withdrawn by the applicant 40 days after being complete: its own status, but not open
    // (no ageing, off the Reg B clock: no notice is owed) and not a decision (no rate, median or officer).
    await app("A10", { status: "withdrawn", submittedAt: at("2026-03-01T08:00:00Z"), withdrawnAt: at("2026-04-09T08:00:00Z"), withdrawnBy: applicantId });
  });

  it("computes every figure in the database, with the hand-worked answers", async () => {
    const report = await pipelineReport(RANGE, db(), NOW);
    expect(Object.fromEntries(report.byStatus.map((s) => [s.status, s.count]))).toEqual({ pending: 2, under_review: 1, approved: 2, denied: 2, incomplete: 0, withdrawn: 1 });
    expect(Object.fromEntries(report.ageing.map((a) => [a.key, a.count]))).toEqual({ "0-7": 0, "8-14": 1, "15-21": 0, "22-29": 0, "30+": 2 });
    expect(report.medianDecision).toEqual({ days: "3.5", decisions: 4 });
    expect(report.perOfficer).toEqual([
      { officerId: officer.id, name: "Olive Officer", approved: 2, denied: 1, incomplete: 0, total: 3 },
      { officerId: admin.id, name: "Ada Admin", approved: 0, denied: 1, incomplete: 0, total: 1 },
    ]);
    expect(report.denialReasons).toEqual([
      { reason: "Insufficient income", count: 2 },
      { reason: "Credit history", count: 1 },
    ]);
    const rates = Object.fromEntries(report.approvalRate.map((r) => [r.loanType, [r.approved, r.decided, formatTenths(r.rateTenths)]]));
    expect(rates.personal).toEqual([2, 3, "66.7%"]);
    expect(rates.business).toEqual([0, 1, "0.0%"]);
    expect(rates["hard-money"]).toEqual([0, 0, "—"]);
  });

  it("lists the Reg B clock's flagged applications whatever the range, oldest first, with the due date", async () => {
    const report = await pipelineReport({ from: "2026-04-01", to: "2026-04-10" }, db(), NOW);
    expect(report.regB.count).toBe(2);
    expect(report.regB.items.map((i) => i.id)).toEqual([ids.A7, ids.A2]);
    const a2 = report.regB.items[1]!;
    expect(a2).toMatchObject({ applicantName: "A2 Tester", loanType: "business", completeSince: "2026-03-05T12:00:00.000Z", decideBy: "2026-04-04T12:00:00.000Z", daysLeft: -6 });
    expect(report.byStatus.find((s) => s.status === "pending")?.count).toBe(1); // A9 only
  });

  it("an answered request makes the application complete from the answer", async () => {
    // A8's document arrives on 2026-03-10: complete since then, 31 days at NOW, so it is flagged too.
    await db().update(requestItems).set({ status: "received", answeredAt: new Date("2026-03-10T08:00:00Z") }).where(eq(requestItems.applicationId, ids.A8!));
    const report = await pipelineReport(RANGE, db(), NOW);
    expect(report.regB.count).toBe(3);
    expect(report.regB.items.find((i) => i.id === ids.A8)).toMatchObject({ completeSince: "2026-03-10T08:00:00.000Z", daysLeft: -1 });
    await db().update(requestItems).set({ status: "requested", answeredAt: null }).where(eq(requestItems.applicationId, ids.A8!));
  });

  it("writes one 'reports.view' audit row per load, with the range", async () => {
    await viewPipelineReport(RANGE, { actor: admin, request: { ip: "203.0.113.5", userAgent: "vitest" } }, {}, db(), NOW);
    const rows = await db().select().from(auditLog).where(eq(auditLog.action, "reports.view"));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actorId: admin.id, details: { from: RANGE.from, to: RANGE.to }, ipAddress: "203.0.113.5" });
  });
});
