import path from "node:path";
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { APPLICATION_WITHDRAW_MESSAGES, WITHDRAWN_BY_APPLICANT } from "~/domain/validation/application-withdraw";
import { closeAccount, loadClosureView } from "~/server/accounts/account-closure.server";
import { accountDataAction } from "~/server/accounts/data.server";
import { applicationWithdrawAction, APPLICATION_WITHDRAW_FORM, APPLICATION_WITHDRAW_MAX_BYTES } from "~/server/applications/withdraw-action.server";
import { readActionInput } from "~/server/platform/http/action-answer.server";
import { withdrawApplication } from "~/server/applications/withdraw-application.server";
import { applicationPageAction } from "~/server/applications/staff-application-page.server";
import type { AuditActor } from "~/server/platform/audit/audit.server";
import { getApplicantApplication } from "~/server/applications/applicant-application.server";
import { confirmProposal, proposeApproval } from "~/server/applications/approval-proposals.server";
import {
  applicationEvents,
  applicationStatusCounts,
  approvalProposals,
  auditLog,
  emailOutbox,
  loanApplications,
  loanOffers,
  profiles,
} from "~/server/platform/db/schema.server";
import { approveApplication, denyApplication, startReview } from "~/server/applications/reviews.server";
import { createLocalStorage } from "~/server/platform/storage/storage.server";
import { applicationRow } from "../helpers/application-rows";
import { rejectionOf } from "../helpers/rejection";
import { setUpTestConfig } from "../helpers/temp-config";
import { testTargets, useTestDatabase } from "../helpers/test-db";
import { AppError, isAppError } from "~/server/platform/http/app-error.server";
import { seedApplicant, seedStaff } from "../helpers/seed";

/**
 * Withdraw Application and Close My Account's refusal while an application is under consideration:
 * the applicant withdraws their own pending or under-review application (who and when on the row,
 * the timeline event, the audit row and the confirmation all say the applicant withdrew), staff can no
 * longer decide it (409 saying why), and of a withdrawal and a staff decision at once exactly one
 * wins. Closing is refused (409, naming the application) until it is withdrawn.
 */

const dataDir = setUpTestConfig("application-withdraw", { APP_SECRET: "w".repeat(48), PUBLIC_URL: "https://loans.example.com" });
const PASSWORD = "Str0ng!Passw0rd";
const TERMS = { approvedAmountCents: 2_500_000, interestRateMilli: 9500, termMonths: 36, originationFeeMilli: 1000 };

describe.each(testTargets)("Withdraw Application on %s", (target) => {
  const database = useTestDatabase({ target, global: true });
  const db = () => database().db;
  const storage = () => createLocalStorage(path.join(dataDir, `storage-${target}`));
  let n = 0;
  let admin: AuditActor & { isStaff: true; mfaVerified: true };
  let second: AuditActor;

  async function applicant(status: "pending" | "under_review" | "approved" | "denied" = "pending") {
    n += 1;
    const id = `withdrawer-${target}-${n}`;
    const email = `withdrawer${n}.${target}@example.com`;
    await seedApplicant(db(), { id, name: `Wren Withdrawer ${n}`, email, profile: true, password: PASSWORD });
    const decided = status === "approved" || status === "denied";
    const [app] = await db()
      .insert(loanApplications)
      .values(applicationRow(id, { email, status, reviewedAt: decided ? new Date() : null }))
      .returning({ id: loanApplications.id });
    return { user: { id, name: `Wren Withdrawer ${n}`, email, isStaff: false }, applicationId: app!.id };
  }

  const appRow = async (id: string) => (await db().select().from(loanApplications).where(eq(loanApplications.id, id)))[0]!;
  const events = async (id: string) => db().select().from(applicationEvents).where(and(eq(applicationEvents.applicationId, id), eq(applicationEvents.kind, "withdrawn")));
  const audits = async (id: string) => db().select().from(auditLog).where(and(eq(auditLog.action, "application.withdraw"), eq(auditLog.recordId, id)));
  const mails = async (to: string) => db().select().from(emailOutbox).where(and(eq(emailOutbox.toAddress, to), eq(emailOutbox.template, "application-withdrawn")));
  const form = (fields: Record<string, string>, url = "https://loans.example.com/x") =>
    new Request(url, { method: "POST", body: new URLSearchParams(fields), headers: { "Content-Type": "application/x-www-form-urlencoded" } });

  beforeAll(async () => {
    const anAdmin = (id: string, name: string) => seedStaff(db(), { id, name, email: `${id}@example.com`, role: "admin" });
    admin = { ...(await anAdmin(`withdraw-admin-${target}`, "Ada Admin")), isStaff: true, mfaVerified: true };
    second = await anAdmin(`withdraw-second-${target}`, "Sam Second");
  });

  it("withdraws a pending application: who and when on the row, the timeline, the audit row and the e-mail say the applicant withdrew", async () => {
    const { user, applicationId } = await applicant("under_review");
    const now = new Date();
    const answer = await applicationWithdrawAction(applicationId, { actor: user, request: { ip: "203.0.113.7", userAgent: "vitest" } });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ ok: true, intent: "withdraw", toast: { title: "Application withdrawn" } });

    const row = await appRow(applicationId);
    expect(row).toMatchObject({ status: "withdrawn", withdrawnBy: user.id, reviewedAt: null, reviewedBy: null });
    expect(Math.abs(row.withdrawnAt!.getTime() - now.getTime())).toBeLessThan(60_000);
    expect(await events(applicationId)).toMatchObject([{ actorId: user.id, actorSide: "applicant", internal: false, summary: expect.stringContaining("The applicant withdrew") }]);
    const [audit] = await audits(applicationId);
    expect(audit).toMatchObject({ actorId: user.id, ipAddress: "203.0.113.7", tableName: "loan_applications" });
    expect(audit!.details).toMatchObject({ from: "under_review", to: "withdrawn", withdrawnBy: "applicant", adverseActionNotice: "not required (12 CFR 1002.9(e))" });
    const [mail] = await mails(user.email);
    expect(mail?.subject).toBe("You withdrew your Private Loans application");
    expect(mail?.textBody).toContain("Application withdrawn by the applicant");
    expect(mail?.textBody).toContain(`https://loans.example.com/dashboard/applications/${applicationId}`);
    // Not a notice of action taken: no ECOA notice, no reasons.
    expect(mail?.textBody).not.toContain("Equal Credit Opportunity Act");

    // The applicant's page: withdrawn, no button, the withdrawal's time; the timeline names it.
    const page = await getApplicantApplication(applicationId, user, db());
    expect(page).toMatchObject({ withdrawable: false, open: false, withdrawnAt: row.withdrawnAt!.toISOString(), application: { status: "withdrawn" } });
    expect(page!.timeline[0]).toMatchObject({ kind: "withdrawn", title: "Withdrawn by the Applicant" });
    // The admin list's counts move with it (trigger-kept status counts).
    const counts = await db().select().from(applicationStatusCounts).where(eq(applicationStatusCounts.status, "withdrawn"));
    expect(counts[0]?.applications).toBeGreaterThanOrEqual(1);
  });

  it("refuses another's application, staff, bad ids (404), a decided or withdrawn one (409), and bad bodies (400/413), changing nothing", async () => {
    const { user, applicationId } = await applicant();
    const stranger = await applicant();
    for (const [id, who] of [
      [applicationId, stranger.user],
      [applicationId, { ...admin }],
      ["not-a-uuid", user],
      [randomUUID(), user],
    ] as const) {
      const refused = await rejectionOf(withdrawApplication(id, { actor: who, request: {} }, db()));
      expect(refused).toSatisfy((e) => isAppError(e, "withdrawal"));
      expect(refused).toMatchObject({ status: 404, message: APPLICATION_WITHDRAW_MESSAGES.notFound });
    }
    expect((await appRow(applicationId)).status).toBe("pending");

    for (const status of ["approved", "denied"] as const) {
      const decided = await applicant(status);
      const refused = await rejectionOf(withdrawApplication(decided.applicationId, { actor: decided.user, request: {} }, db()));
      expect(refused).toMatchObject({ status: 409, message: APPLICATION_WITHDRAW_MESSAGES.decided });
      expect((await appRow(decided.applicationId)).status).toBe(status);
    }
    await withdrawApplication(applicationId, { actor: user, request: {} }, db());
    const again = await applicationWithdrawAction(applicationId, { actor: user, request: {} });
    expect(again.status).toBe(409);
    expect(again.body.toast?.description).toBe(APPLICATION_WITHDRAW_MESSAGES.alreadyWithdrawn);

    const other = await applicant();
    // The route's form (read by defineAction before the handler): a wrong intent 400, an oversized body 413.
    const refusedForm = async (fields: Record<string, string>) => {
      const read = await readActionInput(form(fields), APPLICATION_WITHDRAW_FORM);
      return read.ok ? null : read.answer;
    };
    expect(await refusedForm({ intent: "approve" })).toMatchObject({ status: 400, body: { ok: false, intent: null, toast: { description: APPLICATION_WITHDRAW_MESSAGES.intent } } });
    expect((await refusedForm({ intent: "withdraw", pad: "x".repeat(APPLICATION_WITHDRAW_MAX_BYTES) }))?.status).toBe(413);
    expect(await refusedForm({ intent: "withdraw" })).toBeNull();
    expect((await appRow(other.applicationId)).status).toBe("pending");
    expect(await events(other.applicationId)).toHaveLength(0);
  });

  it("staff can no longer review or decide a withdrawn application: 409 saying the applicant withdrew it", async () => {
    const { user, applicationId } = await applicant();
    await withdrawApplication(applicationId, { actor: user, request: {} }, db());
    expect(await rejectionOf(approveApplication(applicationId, TERMS, { actor: admin, request: {} }, db()))).toMatchObject({ message: WITHDRAWN_BY_APPLICANT });
    expect(await rejectionOf(denyApplication(applicationId, ["Credit history"], { actor: admin, request: {} }, db()))).toMatchObject({ message: WITHDRAWN_BY_APPLICANT });
    expect(await rejectionOf(startReview(applicationId, { actor: admin, request: {} }, db()))).toMatchObject({ message: WITHDRAWN_BY_APPLICANT });
    const intents: Record<string, string>[] = [{ intent: "start-review" }, { intent: "deny", reasons: "Credit history" }, { intent: "close-incomplete" }];
    for (const fields of intents) {
      const answer = await applicationPageAction(form(fields), applicationId, { actor: admin, request: {} }, db());
      expect(answer.status).toBe(409);
      expect(answer.body.toast?.description).toBe(WITHDRAWN_BY_APPLICANT);
    }
    expect(await db().select().from(loanOffers).where(eq(loanOffers.applicationId, applicationId))).toHaveLength(0);
    expect((await appRow(applicationId)).status).toBe("withdrawn");
  });

  it("a four-eyes proposal waiting on it is sent back by the withdrawal; confirming it is then a 409 saying why", async () => {
    const { user, applicationId } = await applicant("under_review");
    const { proposalId } = await proposeApproval(applicationId, { ...TERMS, approvedAmountCents: 15_000_000 }, { actor: admin, request: {} }, db());
    await withdrawApplication(applicationId, { actor: user, request: {} }, db());
    const [proposal] = await db().select().from(approvalProposals).where(eq(approvalProposals.id, proposalId));
    expect(proposal).toMatchObject({ status: "sent_back", comment: "The applicant withdrew the application.", decidedBy: user.id });
    const refused = await rejectionOf(confirmProposal(applicationId, proposalId, { actor: second, request: {} }, db()));
    expect(refused).toSatisfy((e) => isAppError(e, "review_conflict"));
    expect(refused.message).toBe(WITHDRAWN_BY_APPLICANT);
    expect(await db().select().from(loanOffers).where(eq(loanOffers.applicationId, applicationId))).toHaveLength(0);
  });

  it("a withdrawal racing a staff approval: exactly one wins, and the loser changes nothing", async () => {
    for (let round = 0; round < 4; round++) {
      const { user, applicationId } = await applicant("under_review");
      const [withdrawal, approval] = await Promise.allSettled([
        withdrawApplication(applicationId, { actor: user, request: {} }, db()),
        approveApplication(applicationId, TERMS, { actor: admin, request: {} }, db()),
      ]);
      const row = await appRow(applicationId);
      const offers = await db().select().from(loanOffers).where(eq(loanOffers.applicationId, applicationId));
      if (withdrawal.status === "fulfilled") {
        expect(approval.status).toBe("rejected");
        expect((approval as PromiseRejectedResult).reason).toMatchObject({ message: WITHDRAWN_BY_APPLICANT });
        expect(row).toMatchObject({ status: "withdrawn", reviewedAt: null });
        expect(offers).toHaveLength(0);
      } else {
        expect(approval.status).toBe("fulfilled");
        expect(withdrawal.reason).toMatchObject({ status: 409, message: APPLICATION_WITHDRAW_MESSAGES.decided });
        expect(row).toMatchObject({ status: "approved", withdrawnAt: null });
        expect(offers).toHaveLength(1);
        expect(await events(applicationId)).toHaveLength(0);
      }
    }
  });

  it("Close My Account is refused (409, naming the application) while it is pending or under review, and goes through once it is withdrawn", async () => {
    const { user, applicationId } = await applicant("under_review");
    const reference = applicationId.slice(0, 8);
    const refused = await rejectionOf(closeAccount(db(), storage(), PASSWORD, { actor: user, request: {} }));
    expect(refused).toSatisfy((e) => isAppError(e, "account_closure"));
    expect((refused as AppError).status).toBe(409);
    expect(refused.message).toBe(
      `Your account cannot be closed while your Personal Loan application ${reference} is under review. Withdraw it first: open the application and choose Withdraw Application.`,
    );
    const view = await loadClosureView(db(), user.id);
    expect(view).toMatchObject({ blocker: refused.message, blockerApplicationId: applicationId });
    const answer = await accountDataAction(form({ intent: "close-account", password: PASSWORD, confirmation: "CLOSE" }), { actor: user, request: {} });
    expect(answer.status).toBe(409);
    expect(answer.body.toast?.description).toBe(refused.message);
    expect((await db().select().from(profiles).where(eq(profiles.id, user.id)))[0]?.closedAt).toBeNull();

    await withdrawApplication(applicationId, { actor: user, request: {} }, db());
    expect((await loadClosureView(db(), user.id)).blocker).toBeNull();
    const closed = await accountDataAction(form({ intent: "close-account", password: PASSWORD, confirmation: "CLOSE" }), { actor: user, request: {} });
    expect(closed.status).toBe(200);
    // The withdrawn application is kept (its clock is the withdrawal), as the page said.
    expect(await db().select().from(loanApplications).where(eq(loanApplications.id, applicationId))).toHaveLength(1);
  });

  it("an open offer blocks closing with a message naming its application", async () => {
    const { user, applicationId } = await applicant("under_review");
    await approveApplication(applicationId, TERMS, { actor: admin, request: {} }, db());
    const refused = await rejectionOf(closeAccount(db(), storage(), PASSWORD, { actor: user, request: {} }));
    expect((refused as AppError).status).toBe(409);
    expect(refused.message).toContain(`loan offer on your Personal Loan application ${applicationId.slice(0, 8)}`);
    expect((await loadClosureView(db(), user.id)).blockerApplicationId).toBe(applicationId);
  });

  it("a closing racing a staff approval of the last pending application: never a closed account with an open offer", async () => {
    for (let round = 0; round < 4; round++) {
      const { user, applicationId } = await applicant("under_review");
      await Promise.allSettled([closeAccount(db(), storage(), PASSWORD, { actor: user, request: {} }), approveApplication(applicationId, TERMS, { actor: admin, request: {} }, db())]);
      const [profile] = await db().select().from(profiles).where(eq(profiles.id, user.id));
      const open = await db().select().from(loanOffers).where(and(eq(loanOffers.applicationId, applicationId), eq(loanOffers.status, "offered")));
      // The application was under consideration, so the closing is refused whichever commits first.
      expect(profile?.closedAt).toBeNull();
      expect(open).toHaveLength(1);
    }
  });
});
