import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { LoadContext } from "~/load-context";
import { parseReviewListParams, REVIEW_PAGE_SIZE, reviewListHref } from "~/domain/validation/review";
import { disclosure } from "~/domain/truth-in-lending";
import { todayUtc } from "~/domain/dates";
import { action, loader } from "~/routes/admin/applications";
import {
  addApplicationNote,
  countApplicationsByStatus,
  handleReviewAction,
  listApplicationsForAdmin,
  listApplicationsPage,
  MAX_REVIEW_FORM_BYTES,
  reviewActionFromRequest,
} from "~/server/applications/staff-applications.server";
import type { AuditActor } from "~/server/platform/audit/audit.server";
import { getAuth } from "~/server/accounts/auth.server";
import {
  approvedLoans,
  auditLog,
  loanOffers,
  emailOutbox,
  loanApplications,
  user as userTable,
  type NewLoanApplication,
} from "~/server/platform/db/schema.server";
import { approveApplication, denyApplication } from "~/server/applications/reviews.server";
import { getApplicantApplication } from "~/server/applications/applicant-application.server";
import { loadAdminApplication } from "~/server/applications/staff-application-page.server";
import { CONSUMER_REPORT_DISCLOSURE, CREDIT_SCORE_DISCLOSURE, OWN_INFORMATION_NOTICE } from "~/domain/adverse-action";
import { denySchema } from "~/domain/validation/review";
import { disclosureFor } from "~/server/offers/offers.server";
import { databaseErrorOf, testTargets, useTestDatabase } from "../helpers/test-db";
import { setUpTestConfig } from "../helpers/temp-config";
import { applicationRow } from "../helpers/application-rows";
import { isAppError } from "~/server/platform/http/app-error.server";
import { grantStaffRole, seedApplicant, seedStaff } from "../helpers/seed";

/**
 * The /admin review list and its actions against a real database (PGlite, and PostgreSQL when
 * TEST_DATABASE_URL is set): the paged list and its counts, approvals (issue 20: an offer, no loan until
 * the applicant signs) and denials with their
 * e-mail and audit row committed together (or not at all), two admins deciding at once, notes, input
 * validation, and the guard on the route.
 */

setUpTestConfig("admin-apps", { APP_SECRET: "c".repeat(48) });

const context: LoadContext = { cspNonce: "", clientIp: "203.0.113.9", secure: false };

function form(fields: Record<string, string | string[]>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) for (const item of Array.isArray(v) ? v : [v]) f.append(k, item);
  return f;
}

describe("the list's URL", () => {
  it("reads ?status and ?page leniently and writes them back", () => {
    const read = (q: string) => parseReviewListParams(new URLSearchParams(q));
    expect(read("")).toEqual({ tab: "pending", page: 1 });
    expect(read("status=denied&page=3")).toEqual({ tab: "denied", page: 3 });
    expect(read("status=under_review&page=-2")).toEqual({ tab: "under_review", page: 1 });
    expect(read("status=incomplete")).toEqual({ tab: "pending", page: 1 });
    expect(read("status=approved&page=abc")).toEqual({ tab: "approved", page: 1 });
    expect(read("page=9999999")).toEqual({ tab: "pending", page: 1 });
    expect(reviewListHref("approved")).toBe("?status=approved");
    expect(reviewListHref("denied", 2)).toBe("?status=denied&page=2");
  });
});

describe.each(testTargets)("admin applications on %s", (target) => {
  const database = useTestDatabase({ target, global: true });
  const db = () => database().db;
  let n = 0;
  let admin: AuditActor;

  async function newApplicant(opts: { profile?: boolean; email?: string } = {}) {
    n += 1;
    const id = `applicant-${target}-${n}`;
    const email = opts.email ?? `applicant${n}@example.com`;
    await seedApplicant(db(), { id, name: `Applicant ${n}`, email, profile: opts.profile !== false && { fullName: `Profile Person ${n}`, phone: "2125550100" } });
    return { id, email };
  }

  async function newApplication(overrides: Partial<NewLoanApplication> = {}, applicant?: { id: string }) {
    const owner = applicant ?? (await newApplicant());
    const [row] = await db().insert(loanApplications).values(applicationRow(owner.id, overrides)).returning();
    return row!;
  }

  const offersOf = (applicationId: string) => db().select().from(loanOffers).where(eq(loanOffers.applicationId, applicationId));
  /** Every test application asks for $25,000 at 9.5 % over 36 months: other terms are a Counteroffer and need a reason. */
  const REASONS = { counterofferReasons: ["Insufficient income"] };

  const auditRows = (action: string, recordId?: string) =>
    db()
      .select()
      .from(auditLog)
      .where(recordId ? and(eq(auditLog.action, action), eq(auditLog.recordId, recordId)) : eq(auditLog.action, action));

  beforeAll(async () => {
    await seedStaff(db(), { id: `admin-${target}`, name: "Ada Admin", email: `ada-${target}@example.com`, role: "admin" });
    admin = { id: `admin-${target}`, name: "Ada Admin", email: `ada-${target}@example.com` };
  });

  describe("the list", () => {
    it("counts by status in one grouped query and pages newest first (submitted_at desc, id desc) without overlap", async () => {
      const before = await countApplicationsByStatus(db());
      const applicant = await newApplicant();
      const base = Date.parse("2030-01-01T00:00:00Z");
      // 45 pending, some sharing a submitted_at (the id breaks the tie), plus decided ones.
      for (let i = 0; i < 45; i++) {
        await newApplication({ submittedAt: new Date(base + Math.floor(i / 3) * 60_000) }, applicant);
      }
      await newApplication({ status: "approved", reviewedAt: new Date() }, applicant);
      await newApplication({ status: "denied", reviewedAt: new Date(), decisionReasons: ["Credit history"] }, applicant);
      await newApplication({ status: "under_review" }, applicant);

      const counts = await countApplicationsByStatus(db());
      expect(counts).toEqual({
        pending: before.pending + 45,
        under_review: before.under_review + 1,
        approved: before.approved + 1,
        denied: before.denied + 1,
      });

      const total = 45 + before.pending;
      const pageCount = Math.ceil(total / REVIEW_PAGE_SIZE);
      const pages = [];
      for (let page = 1; page <= pageCount; page++) pages.push(await listApplicationsPage({ tab: "pending", page }, db()));
      expect(pages.map((p) => p.pageCount)).toEqual(pages.map(() => pageCount));
      expect(pages.map((p) => p.applications.length)).toEqual(
        pages.map((_, i) => (i < pageCount - 1 ? REVIEW_PAGE_SIZE : total - (pageCount - 1) * REVIEW_PAGE_SIZE)),
      );
      const all = pages.flatMap((p) => p.applications);
      expect(all).toHaveLength(total);
      expect(new Set(all.map((a) => a.id)).size).toBe(all.length);
      const sorted = [...all].sort((a, b) => b.submittedAt.localeCompare(a.submittedAt) || b.id.localeCompare(a.id));
      expect(all.map((a) => a.id)).toEqual(sorted.map((a) => a.id));
      expect(all.every((a) => a.status === "pending")).toBe(true);

      // A page past the end is clamped to the last one; page 0 is page 1.
      expect((await listApplicationsPage({ tab: "pending", page: 99 }, db())).page).toBe(pages[0]!.pageCount);
      expect((await listApplicationsPage({ tab: "pending", page: 0 }, db())).page).toBe(1);
      const approved = await listApplicationsPage({ tab: "approved", page: 1 }, db());
      expect(approved.applications.every((a) => a.status === "approved")).toBe(true);
    });

    it("shows the profile's name, e-mail and phone (the application's when there is no profile), never the SSN", async () => {
      const withProfile = await newApplicant();
      const a = await newApplication({ submittedAt: new Date("2031-01-01T00:00:00Z") }, withProfile);
      const noProfile = await newApplicant({ profile: false });
      const b = await newApplication({ submittedAt: new Date("2031-01-01T00:00:01Z") }, noProfile);
      const page = await listApplicationsPage({ tab: "pending", page: 1 }, db());
      const cardA = page.applications.find((x) => x.id === a.id)!;
      const cardB = page.applications.find((x) => x.id === b.id)!;
      expect(cardA).toMatchObject({ applicantName: expect.stringMatching(/^Profile Person/), email: withProfile.email, phone: "2125550100" });
      expect(cardB).toMatchObject({ applicantName: "Jane Doe", email: "jane.application@example.com", phone: "3025550199" });
      expect(cardA).toMatchObject({ loanType: "personal", requestedAmount: 25_000, annualIncome: 96_000, creditScore: 712, employmentStatus: "full-time" });
      const serialized = JSON.stringify(page);
      expect(serialized).not.toContain("enc:v1:AAAA");
      expect(serialized).not.toMatch(/ssn|accountNumber|routingNumber/i);
    });

    it("audits the admin's read: 'applications.list' with tab, page and count", async () => {
      const list = await listApplicationsForAdmin({ tab: "approved", page: 1 }, { actor: admin, request: { ip: "203.0.113.7", userAgent: "vitest" } }, db());
      const rows = await auditRows("applications.list");
      const last = rows.at(-1)!;
      expect(last).toMatchObject({ actorId: admin.id, actorName: "Ada Admin", tableName: "loan_applications", ipAddress: "203.0.113.7", userAgent: "vitest" });
      expect(last.details).toEqual({ tab: "approved", page: 1, count: list.applications.length });
    });

    it("stays fast with 10,000 applications: reads one page in index order", async () => {
      const applicant = await newApplicant();
      await db().execute(sql`
        insert into loan_applications (user_id, loan_type, requested_amount_cents, desired_rate_milli, loan_duration, purpose,
          first_name, last_name, date_of_birth, email, phone, address_line1, city, state, zip_code, employment_status,
          employer_name, monthly_income_cents, status, reviewed_at, submitted_at)
        select ${applicant.id}, 'personal', (10000 + g) * 100, 9500, 36, 'Generated application for the paging test',
          'Gen', 'Erated', '1980-01-01', 'gen@example.com', '3025550100', '1 Main St', 'Dover', 'DE', '19901', 'full-time',
          'Acme', 500000, case when g % 3 = 0 then 'approved' when g % 3 = 1 then 'denied' else 'pending' end,
          case when g % 3 = 2 then null else now() end, now() - (g || ' minutes')::interval
        from generate_series(1, 10000) as g`);
      await db().execute(sql`analyze loan_applications`);
      const started = performance.now();
      const first = await listApplicationsPage({ tab: "pending", page: 1 }, db());
      const last = await listApplicationsPage({ tab: "pending", page: 10_000 }, db());
      const elapsed = performance.now() - started;
      expect(first.applications).toHaveLength(REVIEW_PAGE_SIZE);
      expect(last.page).toBe(first.pageCount);
      // A page past the end (an old link) shows the last page's cards, not an empty list.
      expect(last.applications).toHaveLength(first.counts.pending - (first.pageCount - 1) * REVIEW_PAGE_SIZE);
      expect(first.counts.pending).toBeGreaterThan(3333);
      expect(elapsed).toBeLessThan(2000);

      const plan = await db().execute(sql`
        explain select id from loan_applications where status = 'pending'
        order by submitted_at desc, id desc limit 20 offset 0`);
      const text = ((plan as { rows: Record<string, string>[] }).rows).map((r) => Object.values(r)[0]).join("\n");
      // Either submitted_at index gives the order (the planner picks by its statistics); no full scan and sort.
      expect(text).toMatch(/Index (Only )?Scan (Backward )?using loan_applications_(status_)?submitted_at(_id)?_idx/);
      expect(text).not.toMatch(/Seq Scan/);
    });
  });

  describe("decisions", () => {
    it("approve: status, reviewed_at and reviewer; an offer (a Counteroffer with its reasons, the default Origination Fee, the disclosed figures), no loan yet; the e-mail and the audit row", async () => {
      const applicant = await newApplicant();
      const app = await newApplication({}, applicant);
      const terms = { approvedAmountCents: 2_000_000, interestRateMilli: 8500, termMonths: 48 };
      await approveApplication(app.id, { ...terms, ...REASONS }, { actor: admin, request: { ip: "203.0.113.1" } }, db());

      const [row] = await db().select().from(loanApplications).where(eq(loanApplications.id, app.id));
      expect(row!.status).toBe("approved");
      expect(row!.reviewedAt).toBeInstanceOf(Date);
      expect(row!.reviewedBy).toBe(admin.id);
      // No loan until the applicant signs the agreement.
      expect(await db().select().from(approvedLoans).where(eq(approvedLoans.applicationId, app.id))).toHaveLength(0);
      const offers = await offersOf(app.id);
      const figures = disclosureFor({ ...terms, originationFeeMilli: 1000 });
      expect(offers).toHaveLength(1);
      expect(offers[0]).toMatchObject({
        userId: applicant.id,
        status: "offered",
        isCounteroffer: true,
        counterofferReasons: ["Insufficient income"],
        amountCents: 2_000_000,
        noteRateMilli: 8500,
        termMonths: 48,
        originationFeeMilli: 1000,
        originationFeeCents: 20_000,
        paymentCents: figures.paymentCents,
        createdBy: admin.id,
      });
      const mails = await db().select().from(emailOutbox).where(eq(emailOutbox.toAddress, applicant.email));
      // A counteroffer is announced as one: its own subject, what was asked and what is offered, no congratulations.
      expect(mails.map((m) => m.template)).toEqual(["application-counteroffer"]);
      expect(mails[0]!.subject).toBe("Counteroffer on your Private Loans application");
      expect(mails[0]!.textBody).toContain(app.id);
      expect(mails[0]!.textBody).toMatch(/You asked for:?\s+\$25,000 at 9\.5% for 36 months \(3 years\)/);
      expect(mails[0]!.textBody).toMatch(/We offer:?\s+\$20,000 at 8\.5% for 48 months \(4 years\)/);
      expect(`${mails[0]!.subject} ${mails[0]!.textBody} ${mails[0]!.htmlBody}`).not.toMatch(/congratulations|approved/i);

      // Approved on the terms asked for: the approval e-mail.
      const asked = await newApplication({}, applicant);
      await approveApplication(asked.id, { approvedAmountCents: 2_500_000, interestRateMilli: 9500, termMonths: 36 }, { actor: admin, request: {} }, db());
      const [approvedMail] = await db().select().from(emailOutbox).where(and(eq(emailOutbox.toAddress, applicant.email), eq(emailOutbox.template, "application-approved")));
      expect(approvedMail!.textBody).toContain("Congratulations, your loan is approved!");
      expect(approvedMail!.textBody).toContain(asked.id);
      const audits = await auditRows("application.approve", app.id);
      expect(audits).toHaveLength(1);
      expect(audits[0]).toMatchObject({ actorId: admin.id, tableName: "loan_applications", ipAddress: "203.0.113.1" });
      expect(audits[0]!.details).toMatchObject({ approvedAmount: 20_000, interestRate: 8.5, termMonths: 48, originationFeePercent: 1, monthlyPaymentCents: figures.paymentCents, counteroffer: true, offerId: offers[0]!.id });
    });

    it("approve is all or nothing: when the e-mail cannot be queued, nothing is stored", async () => {
      const applicant = await newApplicant();
      const app = await newApplication({}, applicant);
      // An address the outbox refuses makes the transaction fail after the status update and the loan insert.
      await db().update(userTable).set({ email: "not-an-address" }).where(eq(userTable.id, applicant.id));
      await expect(approveApplication(app.id, { approvedAmountCents: 100_000, interestRateMilli: 10_000, termMonths: 12, ...REASONS }, { actor: admin, request: {} }, db())).rejects.toThrow(/e-mail address/);
      const [row] = await db().select().from(loanApplications).where(eq(loanApplications.id, app.id));
      expect(row).toMatchObject({ status: "pending", reviewedAt: null, reviewedBy: null });
      expect(await offersOf(app.id)).toHaveLength(0);
      expect(await auditRows("application.approve", app.id)).toHaveLength(0);
      expect(await db().select().from(emailOutbox).where(eq(emailOutbox.toAddress, "not-an-address"))).toHaveLength(0);
    });

    it("two admins approving at once: exactly one succeeds, the other gets ReviewConflict; one offer, one e-mail, one audit row", async () => {
      const applicant = await newApplicant();
      const app = await newApplication({}, applicant);
      const terms = { approvedAmountCents: 1_500_000, interestRateMilli: 12_000, termMonths: 24, ...REASONS };
      const results = await Promise.allSettled([
        approveApplication(app.id, terms, { actor: admin, request: {} }, db()),
        approveApplication(app.id, { ...terms, approvedAmountCents: 1_400_000 }, { actor: admin, request: {} }, db()),
      ]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const rejected = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
      expect(rejected).toHaveLength(1);
      expect(rejected[0]!.reason).toSatisfy((e) => isAppError(e, "review_conflict"));
      expect(await offersOf(app.id)).toHaveLength(1);
      expect(await db().select().from(emailOutbox).where(eq(emailOutbox.toAddress, applicant.email))).toHaveLength(1);
      expect(await auditRows("application.approve", app.id)).toHaveLength(1);
    });

    it("approve and deny at once: one decision wins", async () => {
      const app = await newApplication();
      const results = await Promise.allSettled([
        approveApplication(app.id, { approvedAmountCents: 100_000, interestRateMilli: 10_000, termMonths: 12, ...REASONS }, { actor: admin, request: {} }, db()),
        denyApplication(app.id, ["Credit history"], { actor: admin, request: {} }, db()),
      ]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const [row] = await db().select().from(loanApplications).where(eq(loanApplications.id, app.id));
      expect(await offersOf(app.id)).toHaveLength(row!.status === "approved" ? 1 : 0);
    });

    it("deny stores the reasons and queues the notice of action taken (with the reasons) and the audit row", async () => {
      const applicant = await newApplicant();
      const app = await newApplication({}, applicant);
      await denyApplication(app.id, ["Insufficient income", "Unable to verify information"], { actor: admin, request: {} }, db());
      const [row] = await db().select().from(loanApplications).where(eq(loanApplications.id, app.id));
      expect(row).toMatchObject({ status: "denied", decisionReasons: ["Insufficient income", "Unable to verify information"], reviewedBy: admin.id });
      expect(row!.reviewedAt).toBeInstanceOf(Date);
      const mails = await db().select().from(emailOutbox).where(eq(emailOutbox.toAddress, applicant.email));
      expect(mails.map((m) => m.template)).toEqual(["application-denied"]);
      expect(mails[0]!.textBody).toContain("Insufficient income");
      expect(mails[0]!.textBody).toContain("Unable to verify information");
      const audits = await auditRows("application.deny", app.id);
      expect(audits.map((a) => a.details)).toEqual([{ reasons: ["Insufficient income", "Unable to verify information"], source: "applicant" }]);
      expect(await db().select().from(approvedLoans).where(eq(approvedLoans.applicationId, app.id))).toHaveLength(0);
      // No consumer report: the notice says the information came from the applicant, with no bureau block.
      expect(row!.denialSource).toEqual({ kind: "applicant" });
      expect(mails[0]!.textBody).toContain(OWN_INFORMATION_NOTICE);
      expect(mails[0]!.textBody).not.toContain("consumer reporting agency");
    });

    it("deny with a consumer report stores its source with the decision; the notice and the applicant's page carry the FCRA disclosures", async () => {
      const applicant = await newApplicant();
      const app = await newApplication({}, applicant);
      const input = denySchema.parse({
        intent: "deny",
        applicationId: app.id,
        reasons: ["Credit history"],
        creditSource: "consumer_report",
        agencyName: "TransUnion LLC",
        agencyAddress: "P.O. Box 2000, Chester, PA 19016",
        agencyPhone: "(800) 888-4213",
        scoreUsed: "yes",
        creditScore: "601",
        scoreRangeLow: "300",
        scoreRangeHigh: "850",
        scoreDate: "2026-11-02",
        keyFactors: ["Too many recent delinquencies"],
      });
      await denyApplication(app.id, input.reasons, { actor: admin, request: {} }, db(), input.source);
      const [row] = await db().select().from(loanApplications).where(eq(loanApplications.id, app.id));
      expect(row!.denialSource).toEqual(input.source);
      const [mail] = await db().select().from(emailOutbox).where(eq(emailOutbox.toAddress, applicant.email));
      for (const text of [CONSUMER_REPORT_DISCLOSURE, CREDIT_SCORE_DISCLOSURE, "TransUnion LLC", "(800) 888-4213", "Too many recent delinquencies", "Nov 2, 2026"]) {
        expect(mail!.textBody).toContain(text);
      }
      // The audit row names the agency, never the score.
      const [audit] = await auditRows("application.deny", app.id);
      expect(audit!.details).toEqual({ reasons: ["Credit history"], source: "consumer_report", agency: "TransUnion LLC" });
      const page = await getApplicantApplication(app.id, { id: applicant.id, isStaff: false }, db());
      expect(page!.denial!.reasons).toEqual(["Credit history"]);
      const parts = JSON.stringify(page!.denial!.source);
      expect(parts).toContain("The reporting agency played no part in our decision");
      expect(parts).toContain("601");
      // Staff see on the application's page what the notice said about its source.
      const detail = await loadAdminApplication(app.id, { actor: admin, request: {} }, db());
      expect(detail!.denialSource).toBe(
        "Consumer report: TransUnion LLC, P.O. Box 2000, Chester, PA 19016, (800) 888-4213; score 601 (300-850), Nov 2, 2026; key factors: Too many recent delinquencies",
      );
    });

    it("a decided application cannot be decided again (409 through the action, nothing changes)", async () => {
      const approved = await newApplication();
      await approveApplication(approved.id, { approvedAmountCents: 500_000, interestRateMilli: 7000, termMonths: 12, ...REASONS }, { actor: admin, request: {} }, db());
      await expect(approveApplication(approved.id, { approvedAmountCents: 600_000, interestRateMilli: 7000, termMonths: 12, ...REASONS }, { actor: admin, request: {} }, db())).rejects.toSatisfy((e) => isAppError(e, "review_conflict"));
      await expect(denyApplication(approved.id, ["Credit history"], { actor: admin, request: {} }, db())).rejects.toSatisfy((e) => isAppError(e, "review_conflict"));

      const again = await handleReviewAction(
        form({ intent: "deny", applicationId: approved.id, reasons: ["Credit history"] }),
        { actor: admin, request: {} },
        db(),
      );
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ ok: false, intent: "deny", toast: { type: "error", title: "Failed to update application", description: "This application has already been decided." } });
      const [row] = await db().select().from(loanApplications).where(eq(loanApplications.id, approved.id));
      expect(row!.status).toBe("approved");
      expect(row!.decisionReasons).toBeNull();
      expect(await offersOf(approved.id)).toHaveLength(1);
    });
  });

  describe("the action", () => {
    const act = (fields: Record<string, string | string[]>) => handleReviewAction(form(fields), { actor: admin, request: { ip: "203.0.113.2" } }, db());

    it("approves with the spec's toast, denies with 'Application denied'", async () => {
      const a = await newApplication();
      const ok = await act({
        intent: "approve",
        applicationId: a.id,
        approvedAmount: "12,500.50",
        interestRate: "11.25",
        termMonths: "60",
        originationFeePercent: "2",
        counterofferReasons: ["Credit history"],
        counterofferOther: "  Short   credit file ",
      });
      expect(ok).toEqual({ status: 200, body: { ok: true, intent: "approve", toast: { type: "success", title: "Application approved and notification sent!" } } });
      const [offer] = await offersOf(a.id);
      const figures = disclosureFor({ approvedAmountCents: 1_250_050, interestRateMilli: 11_250, termMonths: 60, originationFeeMilli: 2000 });
      expect(offer).toMatchObject({
        status: "offered",
        amountCents: 1_250_050,
        noteRateMilli: 11_250,
        termMonths: 60,
        originationFeeMilli: 2000,
        originationFeeCents: 25_001,
        paymentCents: figures.paymentCents,
        isCounteroffer: true,
        counterofferReasons: ["Credit history", "Short credit file"],
      });
      expect(await db().select().from(approvedLoans).where(eq(approvedLoans.applicationId, a.id))).toHaveLength(0);

      // The requested terms (or more money, or a lower rate) are a plain offer: no reason needed.
      const plain = await newApplication();
      const accepted = await act({ intent: "approve", applicationId: plain.id, approvedAmount: "30000", interestRate: "9", termMonths: "36", originationFeePercent: "0" });
      expect(accepted.status).toBe(200);
      expect((await offersOf(plain.id))[0]).toMatchObject({ isCounteroffer: false, counterofferReasons: [], originationFeeCents: 0 });

      // A Counteroffer without a reason: 400 with the field error, nothing stored.
      const noReason = await newApplication();
      const refused = await act({ intent: "approve", applicationId: noReason.id, approvedAmount: "20000", interestRate: "9.5", termMonths: "36", originationFeePercent: "1" });
      expect(refused.status).toBe(400);
      expect(refused.body.fieldErrors?.counterofferReasons?.[0]).toMatch(/choose at least one reason for the counteroffer/);
      expect(await offersOf(noReason.id)).toHaveLength(0);
      const [still] = await db().select().from(loanApplications).where(eq(loanApplications.id, noReason.id));
      expect(still!.status).toBe("pending");

      // An APR above MAX_APR (35.99 % by default): 400 on the fee with the APR computed, nothing stored.
      const costly = await newApplication();
      const tooDear = await act({ ...REASONS, intent: "approve", applicationId: costly.id, approvedAmount: "20000", interestRate: "35.99", termMonths: "12", originationFeePercent: "10" });
      expect(tooDear.status).toBe(400);
      // The offer's figures are today's (interest accrues by the day, so the APR depends on the signing day).
      const apr = disclosure({ amountCents: 2_000_000, noteRateMilli: 35_990, termMonths: 12, originationFeeMilli: 10_000, signedOn: todayUtc() }).aprPercent;
      expect(tooDear.body.fieldErrors?.originationFeePercent?.[0]).toBe(
        `The APR of these terms is ${apr.toFixed(2)}%, above the 35.99% APR we offer at most. Choose a lower interest rate or origination fee.`,
      );
      expect(await offersOf(costly.id)).toHaveLength(0);
      // The same loan without the fee at a rate whose APR is under the cap on any signing day, and is offered
      // (at 35.99 % the APR of a fee-free loan is 35.71 % to 36.20 % depending on the day: daily interest).
      const atCap = await act({ ...REASONS, intent: "approve", applicationId: costly.id, approvedAmount: "20000", interestRate: "35.5", termMonths: "12", originationFeePercent: "0" });
      expect(atCap.status).toBe(200);

      const d = await newApplication();
      const denied = await act({ intent: "deny", applicationId: d.id, reasons: ["Credit history", "Excessive obligations"], otherReason: "  Recent   bankruptcy " });
      expect(denied.status).toBe(200);
      expect(denied.body.toast.title).toBe("Application denied");
      const [row] = await db().select().from(loanApplications).where(eq(loanApplications.id, d.id));
      expect(row!.decisionReasons).toEqual(["Credit history", "Excessive obligations", "Recent bankruptcy"]);
    });

    it("refuses bad input with 400 and a toast, never a 500, and changes nothing", async () => {
      const a = await newApplication();
      const approve = { intent: "approve", applicationId: a.id, approvedAmount: "10000", interestRate: "10", termMonths: "36", originationFeePercent: "1", counterofferReasons: "Credit history" };
      // Each approval field with the values it refuses, the other fields valid.
      const refusedApprovalValues = {
        applicationId: ["not-a-uuid"],
        approvedAmount: ["0", "-5", "50000000.01", "1e6", "12.345"],
        interestRate: ["5.98", "36", "abc"],
        termMonths: ["0", "481", "601", "12.5"],
        originationFeePercent: ["-1", "10.01", "11", "1.005", "abc", ""],
        counterofferReasons: ["Because I said so"],
        counterofferOther: ["x".repeat(201), "Bad\u0000reason", "Bell\u0007"],
      };
      const bad: [Record<string, string | string[]>, string][] = [
        ...Object.entries(refusedApprovalValues).flatMap(([field, values]) =>
          values.map((value): [Record<string, string>, string] => [{ ...approve, [field]: value }, field]),
        ),
        [{ intent: "approve", applicationId: a.id }, "approvedAmount"],
        [{ intent: "deny", applicationId: a.id }, "reasons"],
        [{ intent: "deny", applicationId: a.id, otherReason: "   " }, "reasons"],
        [{ intent: "deny", applicationId: a.id, reasons: ["Because I said so"] }, "reasons"],
        [{ intent: "deny", applicationId: a.id, reasons: ["Credit history"], otherReason: "x".repeat(201) }, "otherReason"],
        [{ intent: "deny", applicationId: a.id, reasons: [
          "Insufficient income", "Credit history", "Excessive obligations", "Unable to verify information", "Insufficient collateral", "Incomplete application",
        ], otherReason: "Seventh" }, "reasons"],
        [{ intent: "note", applicationId: a.id, note: "   " }, "note"],
        [{ intent: "note", applicationId: a.id, note: "x".repeat(2001) }, "note"],
      ];
      for (const [fields, field] of bad) {
        const result = await act(fields);
        expect(result.status, JSON.stringify(fields).slice(0, 120)).toBe(400);
        expect(result.body.ok).toBe(false);
        expect(result.body.toast).toMatchObject({ type: "error", title: "Failed to update application" });
        expect(result.body.fieldErrors?.[field]?.length, `${field} in ${JSON.stringify(result.body.fieldErrors)}`).toBeGreaterThan(0);
      }
      const unknown = await act({ intent: "delete-everything" });
      expect(unknown.status).toBe(400);
      expect(unknown.body.intent).toBeNull();
      const [row] = await db().select().from(loanApplications).where(eq(loanApplications.id, a.id));
      expect(row).toMatchObject({ status: "pending", notes: null });
    });

    it("refuses a form that is too large (413) or unreadable (400)", async () => {
      const big = new Request("http://localhost:3000/admin", {
        method: "POST",
        body: new URLSearchParams({ intent: "note", note: "x".repeat(MAX_REVIEW_FORM_BYTES) }),
        headers: { "content-length": String(MAX_REVIEW_FORM_BYTES + 20) },
      });
      const verified = { ...admin, isStaff: true, role: "admin" as const, mfaVerified: true };
      expect((await reviewActionFromRequest(big, { actor: verified, request: {} })).status).toBe(413);
      const garbled = new Request("http://localhost:3000/admin", { method: "POST", body: "--x\r\nnot multipart", headers: { "content-type": "multipart/form-data; boundary=y" } });
      expect((await reviewActionFromRequest(garbled, { actor: verified, request: {} })).status).toBe(400);
    });

    it("refuses a decision from an admin session without the second factor (403), before reading the form", async () => {
      const request = new Request("http://localhost:3000/admin", { method: "POST", body: new URLSearchParams({ intent: "note", note: "x" }) });
      expect((await reviewActionFromRequest(request, { actor: { ...admin, isStaff: true, role: "admin", mfaVerified: false }, request: {} })).status).toBe(403);
    });

    it("an application that does not exist: 409 for a decision, 404 for a note", async () => {
      const id = "00000000-0000-4000-8000-000000000000";
      const approve = await act({ intent: "approve", applicationId: id, approvedAmount: "1000", interestRate: "10", termMonths: "12", originationFeePercent: "1" });
      expect(approve.status).toBe(409);
      expect(approve.body.toast.description).toBe("This application does not exist.");
      const note = await act({ intent: "note", applicationId: id, note: "Hello" });
      expect(note.status).toBe(404);
    });
  });

  describe("notes", () => {
    it("appends notes with the time and the admin's name, keeps both of two at once, and audits each", async () => {
      const app = await newApplication({ status: "denied", reviewedAt: new Date(), decisionReasons: ["Credit history"] });
      const first = await handleReviewAction(form({ intent: "note", applicationId: app.id, note: "  Called the applicant.\r\nNo answer.  " }), { actor: admin, request: {} }, db());
      expect(first).toEqual({ status: 200, body: { ok: true, intent: "note", toast: { type: "success", title: "Note added" } } });
      const other: AuditActor = { id: admin.id, name: "Bo Admin", email: admin.email };
      await Promise.all([addApplicationNote(app.id, "Second note", { actor: admin, request: {} }, db()), addApplicationNote(app.id, "Third note", { actor: other, request: {} }, db())]);

      const [row] = await db().select().from(loanApplications).where(eq(loanApplications.id, app.id));
      const entries = row!.notes!.split("\n\n");
      expect(entries).toHaveLength(3);
      expect(entries[0]).toMatch(/^\[\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\] Ada Admin: Called the applicant\.\nNo answer\.$/);
      expect(entries.slice(1).sort()).toEqual([
        expect.stringMatching(/^\[\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\] Ada Admin: Second note$/),
        expect.stringMatching(/^\[\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\] Bo Admin: Third note$/),
      ].sort((a, b) => String(a).localeCompare(String(b))));
      expect(row!.status).toBe("denied");
      const audits = await auditRows("application.note", app.id);
      expect(audits).toHaveLength(3);
      // One audit row per note; the rows' order is not what is tested (two were written at once).
      expect(audits.map((a) => a.details)).toEqual(
        expect.arrayContaining([{ characters: "Called the applicant.\nNo answer.".length }, { characters: "Second note".length }, { characters: "Third note".length }]),
      );
    });

    it("the audit log refuses UPDATE and DELETE", async () => {
      const [row] = await auditRows("application.note");
      const refused = async (query: Promise<unknown>) => {
        const error = await query.then(
          () => null,
          (e: unknown) => e,
        );
        expect(error, "the statement should fail").not.toBeNull();
        expect(databaseErrorOf(error).message).toMatch(/audit_log is append-only/);
      };
      await refused(db().update(auditLog).set({ details: {} }).where(eq(auditLog.id, row!.id)));
      await refused(db().delete(auditLog).where(eq(auditLog.id, row!.id)));
      const [still] = await db().select().from(auditLog).where(eq(auditLog.id, row!.id));
      expect(still!.details).toEqual(row!.details);
    });
  });

  describe("the route", () => {
    async function signUp(email: string) {
      const { headers, response } = await getAuth().api.signUpEmail({ body: { name: "Route Person", email, password: "Str0ng!Passw0rd" }, returnHeaders: true });
      return { cookie: headers.getSetCookie().map((c) => c.split(";")[0]).join("; "), id: response.user.id };
    }

    async function thrown(fn: () => Promise<unknown>): Promise<Response> {
      try {
        await fn();
      } catch (error) {
        if (error instanceof Response) return error;
        throw error;
      }
      throw new Error("expected a thrown response");
    }

    it("guards the loader and the action: a visitor goes to /auth, an applicant to /, an admin without a second factor to /admin/mfa", async () => {
      const url = "http://localhost:3000/admin?status=approved";
      const post = (cookie?: string) =>
        new Request("http://localhost:3000/admin", {
          method: "POST",
          body: form({ intent: "encrypt-migration" }),
          headers: { origin: "http://localhost:3000", ...(cookie ? { cookie } : {}) },
        });
      const get = (cookie?: string) => new Request(url, { headers: cookie ? { cookie } : {} });

      const visitor = await thrown(() => loader({ request: get(), context, params: {} } as never));
      expect(visitor.status).toBe(302);
      expect(visitor.headers.get("location")).toMatch(/^\/auth\?redirectTo=/);
      expect((await thrown(() => action({ request: post(), context, params: {} } as never))).headers.get("location")).toMatch(/^\/auth/);

      const applicant = await signUp(`route-applicant-${target}@example.com`);
      expect((await thrown(() => loader({ request: get(applicant.cookie), context, params: {} } as never))).headers.get("location")).toBe("/");
      expect((await thrown(() => action({ request: post(applicant.cookie), context, params: {} } as never))).headers.get("location")).toBe("/");

      const staff = await signUp(`route-admin-${target}@example.com`);
      await grantStaffRole(db(), staff.id, "admin");
      expect((await thrown(() => loader({ request: get(staff.cookie), context, params: {} } as never))).headers.get("location")).toBe(
        "/admin/mfa?redirectTo=%2Fadmin%3Fstatus%3Dapproved",
      );
      expect((await thrown(() => action({ request: post(staff.cookie), context, params: {} } as never))).headers.get("location")).toMatch(/^\/admin\/mfa/);
      // Nothing ran for any of them.
      expect(await auditRows("encryption.migrate")).toHaveLength(0);
    });

    it("refuses a cross-site post before anything else", async () => {
      const request = new Request("http://localhost:3000/admin", { method: "POST", body: form({ intent: "encrypt-migration" }), headers: { origin: "https://evil.example" } });
      const error = await action({ request, context, params: {} } as never).then(
        () => null,
        (e: unknown) => e as { init?: { status?: number }; status?: number },
      );
      expect(error?.init?.status ?? error?.status).toBe(403);
    });
  });
});
