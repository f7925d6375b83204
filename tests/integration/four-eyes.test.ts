import { centsFromDollars } from "~/domain/money";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { APPROVAL_MESSAGES, PROPOSAL_CLOSED_BY } from "~/domain/validation/approval";
import { applicationPageAction, loadAdminApplication } from "~/server/applications/staff-application-page.server";
import { countAwaitingConfirmation, handleReviewAction, listApplicationsPage } from "~/server/applications/staff-applications.server";
import { parseReviewListParams } from "~/domain/validation/review";
import type { AuditActor } from "~/server/platform/audit/audit.server";
import { listTimeline } from "~/server/conversation/timeline.server";
import { applicationEvents, approvalProposals, auditLog, loanApplications, loanOffers } from "~/server/platform/db/schema.server";
import { approvalAction, confirmProposal, proposeApproval, sendBackProposal } from "~/server/applications/approval-proposals.server";
import { approveApplication, denyApplication } from "~/server/applications/reviews.server";
import { getConfig, setConfig } from "~/server/platform/config.server";
import { applicationRow } from "../helpers/application-rows";
import { setUpTestConfig } from "../helpers/temp-config";
import { testTargets, useTestDatabase } from "../helpers/test-db";
import { isAppError } from "~/server/platform/http/app-error.server";
import { seedApplicant, seedStaff } from "../helpers/seed";

/**
 * Four-eyes approval (issue 22) against a real database: below FOUR_EYES_THRESHOLD Approve makes the
 * offer at once; at or above it, a proposal (terms checked first, one open per application); the
 * proposer can never confirm, whatever their role; another staff member's confirmation makes the offer
 * with the proposal's terms (exactly one of two parallel confirmations); Send Back and Deny end it.
 */

setUpTestConfig("four-eyes", { APP_SECRET: "f".repeat(48), PUBLIC_URL: "https://loans.example.com" });

type Staff = AuditActor & { isStaff: boolean; mfaVerified: boolean; role: "admin" | "loan_officer" };

function post(fields: Record<string, string>): Request {
  return new Request("http://localhost/admin/applications/x/approval", { method: "POST", body: new URLSearchParams(fields) });
}

// $300,000 at 8%, 360 months: above the default $250,000 threshold; the request is $300,000 so no Counteroffer.
const BIG = { approvedAmountCents: 30_000_000, interestRateMilli: 8000, termMonths: 360, originationFeeMilli: 1000, counterofferReasons: [] as string[] };

describe.each(testTargets)("Four-eyes approval on %s", (target) => {
  const database = useTestDatabase({ target, global: true });
  const db = () => database().db;
  let n = 0;
  const staff: Record<"admin" | "officer" | "officer2", Staff> = {} as never;

  beforeAll(async () => {
    const member = async (key: keyof typeof staff, role: Staff["role"], name: string) => {
      const person = await seedStaff(db(), { id: `fe-${key}-${target}`, name, email: `fe-${key}-${target}@example.com`, role });
      staff[key] = { ...person, isStaff: true, mfaVerified: true, role };
    };
    await member("admin", "admin", "Ada Admin");
    await member("officer", "loan_officer", "Olive Officer");
    await member("officer2", "loan_officer", "Otto Officer");
  });

  async function application(requestedAmount = 300_000) {
    n += 1;
    const id = `fe-applicant-${target}-${n}`;
    const email = `fe.applicant${n}.${target}@example.com`;
    await seedApplicant(db(), { id, name: `Applicant ${n}`, email, profile: { fullName: `Robin Applicant${n}`, phone: "2125550100" } });
    const [app] = await db().insert(loanApplications).values(applicationRow(id, { requestedAmountCents: centsFromDollars(requestedAmount), loanDuration: 360, desiredRateMilli: 8000 })).returning();
    return app!;
  }

  const proposals = (applicationId: string) => db().select().from(approvalProposals).where(eq(approvalProposals.applicationId, applicationId));
  const offers = (applicationId: string) => db().select().from(loanOffers).where(eq(loanOffers.applicationId, applicationId));
  const statusOf = async (applicationId: string) => (await db().select({ s: loanApplications.status }).from(loanApplications).where(eq(loanApplications.id, applicationId)))[0]!.s;
  const audits = (action: string, recordId: string) =>
    db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, action as never), eq(auditLog.recordId, recordId)));

  const approveForm = (applicationId: string, amount: string) => {
    const form = new FormData();
    for (const [k, v] of Object.entries({ intent: "approve", applicationId, approvedAmount: amount, interestRate: "8", termMonths: "360", originationFeePercent: "1" })) form.set(k, v);
    return form;
  };

  it("below the threshold Approve makes the offer at once (no proposal)", async () => {
    const app = await application(100_000);
    const answer = await handleReviewAction(approveForm(app.id, "100000"), { actor: staff.officer, request: {} }, db());
    expect(answer.status).toBe(200);
    expect(answer.body.toast?.title).toBe("Application approved and notification sent!");
    expect(await statusOf(app.id)).toBe("approved");
    expect(await offers(app.id)).toHaveLength(1);
    expect(await proposals(app.id)).toHaveLength(0);
  });

  it("at the threshold ($250,000) Approve is a proposal: no offer, the application stays open, internal timeline entry and audit row", async () => {
    const app = await application(250_000);
    const answer = await handleReviewAction(approveForm(app.id, "250000"), { actor: staff.officer, request: {} }, db());
    expect(answer.status).toBe(200);
    expect(answer.body.toast).toEqual({
      type: "success",
      title: "Approval Proposed",
      description: "Another staff member must confirm approvals of $250,000 or more before the offer is made.",
    });
    expect(await statusOf(app.id)).toBe("pending");
    expect(await offers(app.id)).toHaveLength(0);
    const [proposal] = await proposals(app.id);
    expect(proposal).toMatchObject({ status: "proposed", approvedAmountCents: 25_000_000, interestRateMilli: 8000, termMonths: 360, originationFeeMilli: 1000, proposedBy: staff.officer.id });
    const events = await db().select().from(applicationEvents).where(and(eq(applicationEvents.applicationId, app.id), eq(applicationEvents.kind, "approval_proposed")));
    expect(events).toHaveLength(1);
    expect(events[0]!.internal).toBe(true);
    // The applicant never sees it.
    const theirs = await listTimeline(app.id, { id: app.userId, side: "applicant" }, db());
    expect(theirs.some((e) => e.kind === "approval_proposed")).toBe(false);
    expect(await audits("approval.propose", proposal!.id)).toHaveLength(1);
  });

  it("checks the terms before writing: a Counteroffer without a reason is refused and nothing is proposed", async () => {
    const app = await application(400_000);
    await expect(proposeApproval(app.id, BIG, { actor: staff.officer, request: {} }, db())).rejects.toSatisfy((e) => isAppError(e, "offer_terms"));
    expect(await proposals(app.id)).toHaveLength(0);
  });

  it("one open proposal per application (409), and Approve below the threshold is refused while one waits", async () => {
    const app = await application();
    await proposeApproval(app.id, BIG, { actor: staff.officer, request: {} }, db());
    const second = await proposeApproval(app.id, BIG, { actor: staff.officer2, request: {} }, db()).catch((e: unknown) => e);
    expect(second).toSatisfy((e) => isAppError(e, "proposal"));
    expect(second).toMatchObject({ status: 409, message: APPROVAL_MESSAGES.alreadyOpen });
    const small = await approveApplication(app.id, { ...BIG, approvedAmountCents: 30_000_000 }, { actor: staff.admin, request: {} }, db()).catch((e: unknown) => e);
    expect(small).toSatisfy((e) => isAppError(e, "review_conflict"));
    expect(await offers(app.id)).toHaveLength(0);
    expect(await statusOf(app.id)).toBe("pending");
  });

  it("a decided application cannot be proposed (409)", async () => {
    const app = await application(100_000);
    await approveApplication(app.id, { ...BIG, approvedAmountCents: 10_000_000 }, { actor: staff.admin, request: {} }, db());
    await expect(proposeApproval(app.id, BIG, { actor: staff.officer, request: {} }, db())).rejects.toSatisfy((e) => isAppError(e, "review_conflict"));
  });

  it("the proposer can never confirm, whatever their role (admin included): 403, nothing changes", async () => {
    for (const who of ["officer", "admin"] as const) {
      const app = await application();
      const { proposalId } = await proposeApproval(app.id, BIG, { actor: staff[who], request: {} }, db());
      const refused = await approvalAction(post({ intent: "confirm", proposalId }), app.id, { actor: staff[who], request: {} }, db());
      expect(refused.status).toBe(403);
      expect(refused.body.toast.description).toBe(APPROVAL_MESSAGES.ownProposal);
      expect((await proposals(app.id))[0]!.status).toBe("proposed");
      expect(await offers(app.id)).toHaveLength(0);
      expect(await statusOf(app.id)).toBe("pending");
    }
  });

  it("another staff member confirms: the offer is made with the proposal's terms, recorded on the proposal, both audit rows", async () => {
    const app = await application();
    const { proposalId } = await proposeApproval(app.id, { ...BIG, originationFeeMilli: 1500 }, { actor: staff.officer, request: {} }, db());
    const answer = await approvalAction(post({ intent: "confirm", proposalId }), app.id, { actor: staff.officer2, request: {} }, db());
    expect(answer).toMatchObject({ status: 200, body: { ok: true, intent: "confirm", toast: { title: "Approval Confirmed" } } });
    const [offer] = await offers(app.id);
    expect(offer).toMatchObject({ status: "offered", amountCents: 30_000_000, termMonths: 360, createdBy: staff.officer2.id });
    const [proposal] = await proposals(app.id);
    expect(proposal).toMatchObject({ status: "confirmed", decidedBy: staff.officer2.id, offerId: offer!.id });
    expect(await statusOf(app.id)).toBe("approved");
    expect(await audits("approval.confirm", proposalId)).toHaveLength(1);
    expect(await audits("application.approve", app.id)).toHaveLength(1);
    // Confirmed: a second confirmation is a 409.
    const again = await approvalAction(post({ intent: "confirm", proposalId }), app.id, { actor: staff.admin, request: {} }, db());
    expect(again.status).toBe(409);
  });

  it("two staff confirming at once: exactly one offer", async () => {
    const app = await application();
    const { proposalId } = await proposeApproval(app.id, BIG, { actor: staff.officer, request: {} }, db());
    const results = await Promise.allSettled([confirmProposal(app.id, proposalId, { actor: staff.officer2, request: {} }, db()), confirmProposal(app.id, proposalId, { actor: staff.admin, request: {} }, db())]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(rejected.reason).toMatchObject({ status: 409 });
    expect(await offers(app.id)).toHaveLength(1);
  });

  it("Send Back: sent_back with the comment, internal timeline entry, audit; Approve works again; the page shows the comment", async () => {
    const app = await application();
    const { proposalId } = await proposeApproval(app.id, BIG, { actor: staff.officer, request: {} }, db());
    const empty = await approvalAction(post({ intent: "send-back", proposalId, comment: "  " }), app.id, { actor: staff.admin, request: {} }, db());
    expect(empty.status).toBe(400);
    expect(empty.body.fieldErrors?.comment).toEqual([APPROVAL_MESSAGES.commentRequired]);
    const tooLong = await approvalAction(post({ intent: "send-back", proposalId, comment: "x".repeat(2001) }), app.id, { actor: staff.admin, request: {} }, db());
    expect(tooLong.status).toBe(400);

    const answer = await approvalAction(post({ intent: "send-back", proposalId, comment: "Rate too low for this term." }), app.id, { actor: staff.admin, request: {} }, db());
    expect(answer.status).toBe(200);
    const [proposal] = await proposals(app.id);
    expect(proposal).toMatchObject({ status: "sent_back", comment: "Rate too low for this term.", decidedBy: staff.admin.id });
    const events = await db().select().from(applicationEvents).where(and(eq(applicationEvents.applicationId, app.id), eq(applicationEvents.kind, "approval_sent_back")));
    expect(events[0]).toMatchObject({ internal: true, summary: "Rate too low for this term." });
    expect(await audits("approval.send_back", proposalId)).toHaveLength(1);

    const page = await loadAdminApplication(app.id, { actor: staff.officer, request: {} }, db());
    expect(page!.approval.open).toBeNull();
    expect(page!.approval.lastSentBack).toMatchObject({ comment: "Rate too low for this term.", decidedByName: "Ada Admin" });

    // Approve is available again: a new proposal, then its confirmation.
    const next = await proposeApproval(app.id, BIG, { actor: staff.officer, request: {} }, db());
    await confirmProposal(app.id, next.proposalId, { actor: staff.admin, request: {} }, db());
    expect(await offers(app.id)).toHaveLength(1);
  });

  it("the proposer may send back (withdraw) their own proposal", async () => {
    const app = await application();
    const { proposalId } = await proposeApproval(app.id, BIG, { actor: staff.officer, request: {} }, db());
    await sendBackProposal(app.id, proposalId, "Withdrawn: wrong term.", { actor: staff.officer, request: {} }, db());
    expect((await proposals(app.id))[0]!.status).toBe("sent_back");
  });

  it("Deny while a proposal is open ends it with 'The application was denied.'", async () => {
    const app = await application();
    await proposeApproval(app.id, BIG, { actor: staff.officer, request: {} }, db());
    await denyApplication(app.id, ["Insufficient income"], { actor: staff.admin, request: {} }, db());
    const [proposal] = await proposals(app.id);
    expect(proposal).toMatchObject({ status: "sent_back", comment: PROPOSAL_CLOSED_BY.deny });
    const late = await confirmProposal(app.id, proposal!.id, { actor: staff.officer2, request: {} }, db()).catch((e: unknown) => e);
    expect(late).toMatchObject({ status: 409 });
    expect(await offers(app.id)).toHaveLength(0);
  });

  it("the page's panel: the open proposal with its proposer, 'mine' for the proposer only; a proposal for another application is 404", async () => {
    const app = await application();
    const other = await application();
    const { proposalId } = await proposeApproval(app.id, BIG, { actor: staff.officer, request: {} }, db());
    const theirs = await loadAdminApplication(app.id, { actor: staff.officer, request: {} }, db());
    expect(theirs!.approval.open).toMatchObject({ id: proposalId, proposedByName: "Olive Officer", mine: true, approvedAmount: 300_000 });
    const mine = await loadAdminApplication(app.id, { actor: staff.admin, request: {} }, db());
    expect(mine!.approval.open).toMatchObject({ mine: false });
    const wrong = await approvalAction(post({ intent: "confirm", proposalId }), other.id, { actor: staff.admin, request: {} }, db());
    expect(wrong.status).toBe(404);
    const bad = await approvalAction(post({ intent: "confirm", proposalId: "nope" }), app.id, { actor: staff.admin, request: {} }, db());
    expect(bad.status).toBe(400);
    const unknown = await approvalAction(post({ intent: "approve" }), app.id, { actor: staff.admin, request: {} }, db());
    expect(unknown.status).toBe(400);
  });

  it("the application page's Approve at the threshold proposes too", async () => {
    const app = await application();
    const form = new URLSearchParams({ intent: "approve", applicationId: app.id, approvedAmount: "300000", interestRate: "8", termMonths: "360", originationFeePercent: "1" });
    const answer = await applicationPageAction(new Request("http://localhost/x", { method: "POST", body: form }), app.id, { actor: staff.officer, request: {} }, db());
    expect(answer.status).toBe(200);
    expect((answer.body as { toast: { title: string } }).toast.title).toBe("Approval Proposed");
    expect(await proposals(app.id)).toHaveLength(1);
  });

  it("a proposal whose APR is above MAX_APR is refused when proposed, and at confirmation when the cap was lowered since (409, nothing made)", async () => {
    const app = await application();
    await expect(proposeApproval(app.id, { ...BIG, interestRateMilli: 35_990, termMonths: 12, originationFeeMilli: 10_000, counterofferReasons: ["Credit history"] }, { actor: staff.officer, request: {} }, db())).rejects.toSatisfy((e) => isAppError(e, "offer_terms"));
    const { proposalId } = await proposeApproval(app.id, BIG, { actor: staff.officer, request: {} }, db());
    const config = getConfig();
    setConfig({ ...config, maxAprPercent: 8 });
    try {
      const refused = await approvalAction(post({ intent: "confirm", proposalId }), app.id, { actor: staff.admin, request: {} }, db());
      expect(refused.status).toBe(409);
      expect((refused.body as { toast: { description: string } }).toast.description).toMatch(/^The APR of these terms is 8\.\d\d%, above the 8\.00% APR we offer at most\./);
    } finally {
      setConfig(config);
    }
    expect(await offers(app.id)).toHaveLength(0);
    expect((await proposals(app.id))[0]).toMatchObject({ status: "proposed" });
  });

  it("Awaiting Confirmation lists the open applications with an approval proposed, and counts those each viewer may confirm", async () => {
    const before = { officer: await countAwaitingConfirmation(staff.officer.id, db()), admin: await countAwaitingConfirmation(staff.admin.id, db()) };
    const byOfficer = await application();
    const byOther = await application();
    const none = await application();
    await proposeApproval(byOfficer.id, BIG, { actor: staff.officer, request: {} }, db());
    await proposeApproval(byOther.id, BIG, { actor: staff.officer2, request: {} }, db());
    expect(await countAwaitingConfirmation(staff.officer.id, db())).toEqual({ total: before.officer.total + 2, notMine: before.officer.notMine + 1 });
    expect(await countAwaitingConfirmation(staff.admin.id, db())).toEqual({ total: before.admin.total + 2, notMine: before.admin.notMine + 2 });

    const params = parseReviewListParams(new URLSearchParams({ status: "awaiting_confirmation" }));
    expect(params).toMatchObject({ awaiting: true });
    const list = await listApplicationsPage(params, db(), staff.officer);
    expect(list.awaiting).toBe(true);
    expect(list.awaitingConfirmation.total).toBe(before.officer.total + 2);
    const ids = list.applications.map((a) => a.id);
    expect(ids.slice(0, 2)).toEqual([byOther.id, byOfficer.id]);
    expect(ids).not.toContain(none.id);
    expect(list.applications.find((a) => a.id === byOfficer.id)?.awaitingConfirmation).toEqual({ mine: true });
    expect(list.applications.find((a) => a.id === byOther.id)?.awaitingConfirmation).toEqual({ mine: false });
    // Every row listed has one open proposal.
    for (const a of list.applications) expect(a.awaitingConfirmation).not.toBeNull();

    // Sent back or confirmed, it leaves the list; the plain Pending tab marks only what still waits.
    const [open] = (await proposals(byOther.id)).filter((p) => p.status === "proposed");
    await sendBackProposal(byOther.id, open!.id, "Check the income again.", { actor: staff.admin, request: {} }, db());
    const after = await listApplicationsPage(params, db(), staff.officer);
    expect(after.applications.map((a) => a.id)).not.toContain(byOther.id);
    expect(after.awaitingConfirmation.total).toBe(before.officer.total + 1);
    const pending = await listApplicationsPage(parseReviewListParams(new URLSearchParams({ status: "pending" })), db(), staff.admin);
    expect(pending.awaiting).toBe(false);
    expect(pending.applications.find((a) => a.id === none.id)?.awaitingConfirmation).toBeNull();
    expect(pending.applications.find((a) => a.id === byOfficer.id)?.awaitingConfirmation).toEqual({ mine: false });
  });
});
