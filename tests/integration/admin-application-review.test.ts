import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { CLOSE_INCOMPLETE_NOT_YET } from "~/domain/validation/review";
import { applicationPageAction, loadAdminApplication } from "~/server/applications/staff-application-page.server";
import { addApplicationNote, countApplicationsByStatus, listApplicationsForAdmin } from "~/server/applications/staff-applications.server";
import type { AuditActor } from "~/server/platform/audit/audit.server";
import { listTimeline } from "~/server/conversation/timeline.server";
import {
  applicationEvents,
  applicationMessages,
  auditLog,
  bankAccounts,
  emailOutbox,
  loanApplications,
  requestItems,
  type NewLoanApplication,
} from "~/server/platform/db/schema.server";
import { approveApplication, closeAsIncomplete, startReview } from "~/server/applications/reviews.server";
import { applicationRow } from "../helpers/application-rows";
import { withoutUuids } from "../helpers/without-uuids";
import { setUpTestConfig } from "../helpers/temp-config";
import { testTargets, useTestDatabase } from "../helpers/test-db";
import { isAppError } from "~/server/platform/http/app-error.server";
import { applicantSeries, seedStaff } from "../helpers/seed";

/**
 * Staff review after submission (issue 19) against a real database: Start Review and Close as
 * Incomplete as lifecycle transitions (one conditional UPDATE each, so of two admins at once exactly one
 * wins), their timeline events, audit rows and the Reg B notice e-mail (no personal or financial
 * details), the Under Review tab and unread counts on the list, the staff page's data (every field,
 * never the SSN or a bank number) and its action (404 for other ids, 400 for bad input, 409 conflicts).
 */

setUpTestConfig("admin-app-review", { APP_SECRET: "d".repeat(48), PUBLIC_URL: "https://loans.example.com" });

const DAY = 24 * 60 * 60 * 1000;
const isoDate = (d: Date) => d.toISOString().slice(0, 10);

function post(fields: Record<string, string | string[]>, headers: Record<string, string> = {}): Request {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const item of Array.isArray(v) ? v : [v]) body.append(k, item);
  return new Request("http://localhost/admin/applications/x", { method: "POST", body, headers });
}

describe.each(testTargets)("staff review on %s", (target) => {
  const database = useTestDatabase({ target, global: true });
  const db = () => database().db;
  let admin: AuditActor & { isStaff: boolean; mfaVerified: boolean };
  let other: AuditActor;
  const newApplicant = applicantSeries(db, { prefix: "review", scope: target, profileName: "Quinn Applicant" });

  async function newApplication(overrides: Partial<NewLoanApplication> = {}) {
    const owner = await newApplicant();
    const [row] = await db().insert(loanApplications).values(applicationRow(owner.id, overrides)).returning();
    return { app: row!, owner };
  }

  async function addItem(applicationId: string, userId: string, dueDate: string, status: "requested" | "received" | "accepted" | "rejected" = "requested") {
    const [row] = await db()
      .insert(requestItems)
      .values({
        requestId: randomUUID(),
        applicationId,
        userId,
        kind: "pay_stub",
        dueDate,
        status,
        rejectionReason: status === "rejected" ? "Unreadable" : null,
        requestedBy: admin.id,
      })
      .returning();
    return row!;
  }

  const statusOf = async (id: string) => (await db().select().from(loanApplications).where(eq(loanApplications.id, id)))[0]!.status;
  const events = (id: string) => db().select().from(applicationEvents).where(eq(applicationEvents.applicationId, id));
  const audits = (action: string, id: string) => db().select().from(auditLog).where(and(eq(auditLog.action, action), eq(auditLog.recordId, id)));
  const mailsTo = (to: string) => db().select().from(emailOutbox).where(eq(emailOutbox.toAddress, to));

  beforeAll(async () => {
    const anAdmin = (id: string, name: string) => seedStaff(db(), { id, name, email: `${id}@example.com`, role: "admin" });
    admin = { ...(await anAdmin(`review-admin-${target}`, "Ada Admin")), isStaff: true, mfaVerified: true };
    other = await anAdmin(`review-admin2-${target}`, "Bo Admin");
  });

  describe("Start Review", () => {
    it("moves pending to under_review with a 'review_started' event and an audit row, and moves the tab counts", async () => {
      const before = await countApplicationsByStatus(db());
      const { app } = await newApplication();
      await startReview(app.id, { actor: admin, request: { ip: "203.0.113.5" } }, db());
      expect(await statusOf(app.id)).toBe("under_review");
      expect((await events(app.id)).map((e) => [e.kind, e.actorId, e.actorSide, e.internal])).toEqual([["review_started", admin.id, "staff", false]]);
      const rows = await audits("application.start_review", app.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ actorId: admin.id, ipAddress: "203.0.113.5" });
      const after = await countApplicationsByStatus(db());
      expect(after.under_review).toBe(before.under_review + 1);
      expect(after.pending).toBe(before.pending);
    });

    it("two admins at once: exactly one starts the review; one event, one audit row", async () => {
      const { app } = await newApplication();
      const results = await Promise.allSettled([startReview(app.id, { actor: admin, request: {} }, db()), startReview(app.id, { actor: other, request: {} }, db())]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const rejected = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
      expect(rejected[0]!.reason).toSatisfy((e) => isAppError(e, "review_conflict"));
      expect(rejected[0]!.reason.message).toBe("This application is already under review.");
      expect((await events(app.id)).filter((e) => e.kind === "review_started")).toHaveLength(1);
      expect((await audits("application.start_review", app.id)).length).toBe(1);
    });

    it("refuses a decided application (409 message) and an unknown one (not found), changing nothing", async () => {
      const { app } = await newApplication({ status: "approved", reviewedAt: new Date() });
      await expect(startReview(app.id, { actor: admin, request: {} }, db())).rejects.toThrow("This application has already been decided.");
      expect(await statusOf(app.id)).toBe("approved");
      await expect(startReview(randomUUID(), { actor: admin, request: {} }, db())).rejects.toSatisfy((e) => isAppError(e, "review_not_found"));
      expect(await events(app.id)).toHaveLength(0);
    });

    it("approve works from under review", async () => {
      const { app } = await newApplication({ status: "under_review" });
      await approveApplication(app.id, { approvedAmountCents: 1_000_000, interestRateMilli: 9000, termMonths: 24, counterofferReasons: ["Insufficient income"] }, { actor: admin, request: {} }, db());
      expect(await statusOf(app.id)).toBe("approved");
    });
  });

  describe("Close as Incomplete", () => {
    const yesterday = () => isoDate(new Date(Date.now() - DAY));
    const tomorrow = () => isoDate(new Date(Date.now() + DAY));

    it("closes after an open item's due date: status incomplete with reviewed_at, the event, the audit row and the notice e-mail", async () => {
      // The applicant lives in Dover (the lender's own address, in Wilmington, is in every e-mail).
      const { app, owner } = await newApplication({ status: "under_review", city: "Dover", zipCode: "19901" });
      const item = await addItem(app.id, owner.id, yesterday());
      await closeAsIncomplete(app.id, { actor: admin, request: {} }, db());
      const [row] = await db().select().from(loanApplications).where(eq(loanApplications.id, app.id));
      expect(row).toMatchObject({ status: "incomplete", reviewedBy: admin.id });
      expect(row!.reviewedAt).toBeInstanceOf(Date);
      expect((await events(app.id)).map((e) => e.kind)).toEqual(["closed_incomplete"]);
      expect((await audits("application.close_incomplete", app.id)).map((a) => a.details)).toEqual([{ overdueItems: [item.id] }]);

      const mails = await mailsTo(owner.email);
      expect(mails.map((m) => m.template)).toEqual(["application-incomplete"]);
      const mail = mails[0]!;
      // The reference and links are random UUIDs, which can hold any digits: looked past, like every such check.
      const all = withoutUuids(`${mail.subject}\n${mail.textBody}\n${mail.htmlBody}`);
      expect(mail.textBody).toContain("closed your Personal Loan application");
      expect(mail.textBody).toContain("not received by the date we gave");
      expect(mail.textBody).toContain("apply again");
      expect(mail.textBody).toContain("Equal Credit Opportunity Act");
      expect(mail.textBody).toContain(`https://loans.example.com/dashboard/applications/${app.id}`);
      // No personal or financial details: not the name, the date of birth, the address, the employer or an amount.
      for (const secret of ["Jane", "Doe", "Quinn", "1985", "Main Street", "Dover", "19901", "Acme", "25,000", "96,000", "8,000", "712", "jane.application@example.com", "enc:v1"]) {
        expect(all, secret).not.toContain(secret);
      }
    });

    it("a rejected item past its due date counts as open; received or accepted ones do not", async () => {
      const { app, owner } = await newApplication();
      await addItem(app.id, owner.id, yesterday(), "received");
      await addItem(app.id, owner.id, yesterday(), "accepted");
      await expect(closeAsIncomplete(app.id, { actor: admin, request: {} }, db())).rejects.toSatisfy((e) => isAppError(e, "close_incomplete_not_yet"));
      await addItem(app.id, owner.id, yesterday(), "rejected");
      await closeAsIncomplete(app.id, { actor: admin, request: {} }, db());
      expect(await statusOf(app.id)).toBe("incomplete");
    });

    it("before the due date (or with no request at all) it is refused with the clear message, and nothing changes", async () => {
      const { app, owner } = await newApplication({ status: "under_review" });
      await expect(closeAsIncomplete(app.id, { actor: admin, request: {} }, db())).rejects.toThrow(CLOSE_INCOMPLETE_NOT_YET);
      // Due today: the date has not passed yet (it passes at its end).
      await addItem(app.id, owner.id, isoDate(new Date()));
      await addItem(app.id, owner.id, tomorrow());
      await expect(closeAsIncomplete(app.id, { actor: admin, request: {} }, db())).rejects.toThrow(CLOSE_INCOMPLETE_NOT_YET);
      expect(await statusOf(app.id)).toBe("under_review");
      expect(await events(app.id)).toHaveLength(0);
      expect(await audits("application.close_incomplete", app.id)).toHaveLength(0);
      expect(await mailsTo(owner.email)).toHaveLength(0);

      // Through the page's action: a 409 with that message as the toast.
      const res = await applicationPageAction(post({ intent: "close-incomplete" }), app.id, { actor: admin, request: {} }, db());
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ ok: false, intent: "close-incomplete", toast: { description: CLOSE_INCOMPLETE_NOT_YET } });
    });

    it("two admins at once: one closes it; one e-mail, one event", async () => {
      const { app, owner } = await newApplication();
      await addItem(app.id, owner.id, yesterday());
      const results = await Promise.allSettled([closeAsIncomplete(app.id, { actor: admin, request: {} }, db()), closeAsIncomplete(app.id, { actor: other, request: {} }, db())]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      expect(results.find((r): r is PromiseRejectedResult => r.status === "rejected")!.reason).toSatisfy((e) => isAppError(e, "review_conflict"));
      expect(await mailsTo(owner.email)).toHaveLength(1);
      expect((await events(app.id)).filter((e) => e.kind === "closed_incomplete")).toHaveLength(1);
    });

    it("a decided application cannot be closed (409 'already decided'), nor decided after closing", async () => {
      const { app, owner } = await newApplication({ status: "denied", reviewedAt: new Date(), decisionReasons: ["Credit history"] });
      await addItem(app.id, owner.id, yesterday());
      await expect(closeAsIncomplete(app.id, { actor: admin, request: {} }, db())).rejects.toThrow("This application has already been decided.");
      expect(await statusOf(app.id)).toBe("denied");

      const closed = await newApplication();
      await addItem(closed.app.id, closed.owner.id, yesterday());
      await closeAsIncomplete(closed.app.id, { actor: admin, request: {} }, db());
      await expect(
        approveApplication(closed.app.id, { approvedAmountCents: 100_000, interestRateMilli: 9000, termMonths: 12, counterofferReasons: ["Insufficient income"] }, { actor: admin, request: {} }, db()),
      ).rejects.toSatisfy((e) => isAppError(e, "review_conflict"));
      await expect(startReview(closed.app.id, { actor: admin, request: {} }, db())).rejects.toSatisfy((e) => isAppError(e, "review_conflict"));
    });
  });

  describe("the admin list", () => {
    it("has an Under Review tab listing under_review applications, and counts each admin's unread messages per card", async () => {
      const { app, owner } = await newApplication({ status: "under_review" });
      await db().insert(applicationMessages).values([
        { applicationId: app.id, userId: owner.id, authorId: owner.id, authorSide: "applicant", body: "Hello, any news?" },
        { applicationId: app.id, userId: owner.id, authorId: owner.id, authorSide: "applicant", body: "I sent the pay stub." },
        { applicationId: app.id, userId: owner.id, authorId: admin.id, authorSide: "staff", body: "Thanks, looking." },
      ]);
      const list = await listApplicationsForAdmin({ tab: "under_review", page: 1 }, { actor: admin, request: {} }, db());
      expect(list.tab).toBe("under_review");
      const card = list.applications.find((a) => a.id === app.id);
      expect(card).toMatchObject({ status: "under_review", unreadMessages: 2 });
      expect(list.applications.every((a) => a.status === "under_review")).toBe(true);
      expect(list.counts.under_review).toBeGreaterThanOrEqual(1);
    });
  });

  describe("the staff page", () => {
    it("loads every field the applicant entered, the bank account masked, never the SSN or a bank number, and audits the read", async () => {
      const { app, owner } = await newApplication({
        loanType: "hard-money",
        propertyAddress: "12 Harbor Road, Lewes, DE 19958",
        businessName: "Harbor Flips LLC",
        businessYears: 4,
        middleInitial: "Q",
        jobTitle: "Site Manager",
        yearsEmployed: 6.5,
        monthlyDebtsCents: 125_000,
        hasOutstandingLoans: true,
        authorizeCreditReport: true,
        ssnEncrypted: "enc:v1:SECRETSSN",
      });
      await db().insert(bankAccounts).values({
        userId: owner.id,
        applicationId: app.id,
        accountHolderName: "Jane Doe",
        bankName: "First Bank",
        accountNumber: "enc:v1:SECRETACCOUNT",
        routingNumber: "enc:v1:SECRETROUTING",
        accountNumberLast4: "6789",
        routingNumberLast2: "21",
      });
      await addApplicationNote(app.id, "Called the employer; confirmed.", { actor: admin, request: {} }, db());
      const detail = await loadAdminApplication(app.id, { actor: admin, request: { ip: "203.0.113.7" } }, db());
      expect(detail).not.toBeNull();
      expect(detail!.loan).toEqual({ propertyAddress: "12 Harbor Road, Lewes, DE 19958", businessName: "Harbor Flips LLC", businessYears: 4 });
      expect(detail!.personal).toMatchObject({ firstName: "Jane", middleInitial: "Q", lastName: "Doe", dateOfBirth: "1985-02-03", addressLine1: "1 Main Street", hasSsn: true });
      expect(detail!.employment).toMatchObject({ employerName: "Acme", jobTitle: "Site Manager", yearsEmployed: 6.5, monthlyDebts: 1250, hasOutstandingLoans: true, authorizeCreditReport: true });
      expect(detail!.bankAccounts).toEqual([expect.objectContaining({ bankName: "First Bank", accountNumberLast4: "6789", routingNumberLast2: "21" })]);
      expect(detail!.allowedEvents.sort()).toEqual(["approve", "close-incomplete", "deny", "start-review"]);
      expect(detail!.closeIncompleteAvailable).toBe(false);
      // The note is on the staff timeline as an internal entry; the applicant's timeline never has it.
      expect(detail!.timeline.map((e) => [e.kind, e.internal])).toEqual([["note", true]]);
      expect(await listTimeline(app.id, { id: owner.id, side: "applicant" }, db())).toEqual([]);
      const serialized = JSON.stringify(detail);
      for (const secret of ["SECRETSSN", "SECRETACCOUNT", "SECRETROUTING", "enc:v1"]) expect(serialized).not.toContain(secret);
      expect((await audits("application.view", app.id)).map((a) => a.ipAddress)).toEqual(["203.0.113.7"]);

      expect(await loadAdminApplication(randomUUID(), { actor: admin, request: {} }, db())).toBeNull();
    });

    it("offers Close as Incomplete only once an open item is overdue", async () => {
      const { app, owner } = await newApplication({ status: "under_review" });
      await addItem(app.id, owner.id, isoDate(new Date(Date.now() - 2 * DAY)));
      const detail = await loadAdminApplication(app.id, { actor: admin, request: {} }, db());
      expect(detail!.allowedEvents.sort()).toEqual(["approve", "close-incomplete", "deny"]);
      expect(detail!.closeIncompleteAvailable).toBe(true);
    });

    it("its action: start-review, a note; 404 for a malformed or unknown id; 400 for another application's id, an unknown intent, control characters or an oversized note", async () => {
      const { app } = await newApplication();
      const act = (fields: Record<string, string>, id: string = app.id) => applicationPageAction(post(fields), id, { actor: admin, request: {} }, db());

      const started = await act({ intent: "start-review" });
      expect(started).toMatchObject({ status: 200, body: { ok: true, intent: "start-review", toast: { title: "Review started" } } });
      expect(await statusOf(app.id)).toBe("under_review");
      const again = await act({ intent: "start-review", applicationId: app.id });
      expect(again.status).toBe(409);

      expect((await act({ intent: "note", note: "Checked the ID." })).status).toBe(200);
      expect((await act({ intent: "note" }, "not-a-uuid")).status).toBe(404);
      expect((await act({ intent: "note", note: "x" }, randomUUID())).status).toBe(404);

      const other = await newApplication();
      const cross = await act({ intent: "approve", applicationId: other.app.id, approvedAmount: "1000", interestRate: "9", termMonths: "12" });
      expect(cross.status).toBe(400);
      expect(await statusOf(other.app.id)).toBe("pending");

      for (const fields of [{ intent: "delete", note: "" }, { intent: "note", note: "Bad\u0000note" }, { intent: "note", note: "x".repeat(2001) }, { intent: "note", note: "   " }]) {
        const res = await act(fields);
        expect(res.status, JSON.stringify(fields).slice(0, 60)).toBe(400);
        expect(res.body.toast?.title).toBe("Failed to update application");
      }
      const [row] = await db().select().from(loanApplications).where(eq(loanApplications.id, app.id));
      expect(row!.notes).toContain("Checked the ID.");
      expect(row!.notes).not.toContain("Bad");
    });

    it("its action: a signed link only for this application's own documents", async () => {
      const { app } = await newApplication();
      const res = await applicationPageAction(post({ intent: "link", documentId: randomUUID(), disposition: "inline" }), app.id, { actor: admin, request: {} }, db());
      expect(res.status).toBe(404);
      const bad = await applicationPageAction(post({ intent: "link", documentId: "../etc", disposition: "inline" }), app.id, { actor: admin, request: {} }, db());
      expect(bad.status).toBe(400);
    });

    it("refuses an admin session without the second factor (403)", async () => {
      const { app } = await newApplication();
      const res = await applicationPageAction(post({ intent: "start-review" }), app.id, { actor: { ...admin, mfaVerified: false }, request: {} }, db());
      expect(res.status).toBe(403);
      expect(await statusOf(app.id)).toBe("pending");
    });
  });
});
