import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { OFFER_WITHDRAW_MESSAGES } from "~/domain/validation/offer-withdraw";
import { applicationPageAction, loadAdminApplication } from "~/server/applications/staff-application-page.server";
import { listApplicationsPage } from "~/server/applications/staff-applications.server";
import type { AuditActor } from "~/server/platform/audit/audit.server";
import { listTimeline } from "~/server/conversation/timeline.server";
import {
  applicationEvents,
  auditLog,
  emailOutbox,
  esignConsents,
  loanApplications,
  loanOffers,
  signedAgreements,
  type NewLoanApplication,
} from "~/server/platform/db/schema.server";
import { MAX_OFFER_WITHDRAW_FORM_BYTES, offerWithdrawAction, withdrawOffer } from "~/server/offers/withdraw-offer.server";
import { OFFER_TERMS_MESSAGES } from "~/server/offers/offers.server";
import { APPROVE_PREVIEW_MESSAGES } from "~/components/admin/applications/approve-dialog";
import { applicationRow } from "../helpers/application-rows";
import { setUpTestConfig } from "../helpers/temp-config";
import { testTargets, useTestDatabase } from "../helpers/test-db";
import { isAppError } from "~/server/platform/http/app-error.server";
import { seedApplicant, seedOffer, seedStaff } from "../helpers/seed";

/**
 * Withdraw Offer (issue 20, staff) against a real database: one conditional UPDATE, so of two
 * withdrawals exactly one wins and a signed, declined or expired offer stays as it is; the timeline
 * entry the applicant reads, the audit row and the e-mail in the same transaction; the route's
 * validation (reason 1..500 characters, no control characters; 413 for an oversized body); and what
 * staff see (the offer panel's data with the signing certificate, the list card's latest offer).
 */

setUpTestConfig("offer-withdraw", { APP_SECRET: "e".repeat(48), PUBLIC_URL: "https://loans.example.com" });

function post(fields: Record<string, string>, headers: Record<string, string> = {}): Request {
  return new Request("http://localhost/admin/applications/x/offer", { method: "POST", body: new URLSearchParams(fields), headers });
}

const REASON = "The income documents could not be verified with the employer.\nWe can look at a new application.";

describe.each(testTargets)("Withdraw Offer on %s", (target) => {
  const database = useTestDatabase({ target, global: true });
  const db = () => database().db;
  let n = 0;
  let admin: AuditActor & { isStaff: boolean; mfaVerified: boolean };

  async function offered(overrides: Partial<NewLoanApplication> = {}) {
    n += 1;
    const id = `withdraw-applicant-${target}-${n}`;
    const email = `withdraw.applicant${n}@example.com`;
    const owner = await seedApplicant(db(), { id, name: `Applicant ${n}`, email, profile: { fullName: `Robin Applicant${n}`, phone: "2125550100" } });
    // Less money than the $25,000 requested: a Counteroffer, with a reason.
    const terms = { approvedAmountCents: 2_000_000, interestRateMilli: 9500, termMonths: 36, originationFeeMilli: 2000, counterofferReasons: ["Insufficient income"] };
    const { application, offerId } = await seedOffer(db(), { owner, admin, application: overrides, terms });
    return { app: application, offerId, owner: { id, email } };
  }

  const offerRow = async (offerId: string) => (await db().select().from(loanOffers).where(eq(loanOffers.id, offerId)))[0]!;
  const mailsTo = (email: string, template: string) =>
    db()
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.toAddress, email), eq(emailOutbox.template, template)));
  const withdrawEvents = (applicationId: string) =>
    db()
      .select()
      .from(applicationEvents)
      .where(and(eq(applicationEvents.applicationId, applicationId), eq(applicationEvents.kind, "offer_withdrawn")));
  const audits = (offerId: string) =>
    db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "offer.withdraw"), eq(auditLog.recordId, offerId)));

  beforeAll(async () => {
    await seedStaff(db(), { id: `withdraw-admin-${target}`, name: "Ada Admin", email: `withdraw-ada-${target}@example.com`, role: "admin" });
    admin = { id: `withdraw-admin-${target}`, name: "Ada Admin", email: `withdraw-ada-${target}@example.com`, isStaff: true, mfaVerified: true };
  });

  it("withdraws the open offer: status, time, staff member and reason; the timeline entry the applicant reads, the audit row and the e-mail", async () => {
    const { app, offerId, owner } = await offered();
    const before = Date.now();
    await expect(withdrawOffer(app.id, REASON, { actor: admin, request: { ip: "203.0.113.5", userAgent: "vitest" } }, db())).resolves.toEqual({ offerId });

    const row = await offerRow(offerId);
    expect(row).toMatchObject({ status: "withdrawn", decidedBy: admin.id, withdrawReason: REASON });
    expect(row.decidedAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);

    const events = await withdrawEvents(app.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorId: admin.id, actorSide: "staff", summary: REASON, internal: false });
    // The applicant's timeline shows it, with the lender (not the staff member) as the actor.
    const theirs = await listTimeline(app.id, { id: owner.id, side: "applicant" }, db());
    expect(theirs.find((e) => e.kind === "offer_withdrawn")).toMatchObject({ summary: REASON });

    const audit = await audits(offerId);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorId: admin.id, tableName: "loan_offers", ipAddress: "203.0.113.5", userAgent: "vitest" });
    expect(audit[0]!.details).toMatchObject({ applicationId: app.id, reasonCharacters: REASON.length });

    const mails = await mailsTo(owner.email, "offer-withdrawn");
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.subject).toBe("Your Private Loans loan offer was withdrawn");
    for (const body of [mail.textBody, mail.htmlBody]) {
      expect(body).toContain("The income documents could not be verified with the employer.");
      expect(body).toContain(`https://loans.example.com/dashboard/applications/${app.id}`);
      expect(body).toContain("contact@privateloans.example");
      expect(body).toContain("Hello Jane");
      expect(body).not.toMatch(/account number|routing|ssn|enc:v1/i);
    }
    // The reason is escaped in the HTML body.
    expect(mail.htmlBody).not.toContain("<script");
  });

  it("escapes the reason in the e-mail's HTML", async () => {
    const { app, owner } = await offered();
    await withdrawOffer(app.id, `Terms <b>changed</b> & "rates" moved`, { actor: admin, request: {} }, db());
    const [mail] = await mailsTo(owner.email, "offer-withdrawn");
    expect(mail!.htmlBody).toContain("Terms &lt;b&gt;changed&lt;/b&gt; &amp; &quot;rates&quot; moved");
    expect(mail!.textBody).toContain(`Terms <b>changed</b> & "rates" moved`);
  });

  it("twice: the second is refused with 409 and changes nothing", async () => {
    const { app, offerId, owner } = await offered();
    await withdrawOffer(app.id, "First reason", { actor: admin, request: {} }, db());
    const second = await withdrawOffer(app.id, "Second reason", { actor: admin, request: {} }, db()).catch((e: unknown) => e);
    expect(second).toSatisfy((e) => isAppError(e, "offer_withdraw"));
    expect(second).toMatchObject({ status: 409, message: OFFER_WITHDRAW_MESSAGES.conflict });
    expect((await offerRow(offerId)).withdrawReason).toBe("First reason");
    expect(await withdrawEvents(app.id)).toHaveLength(1);
    expect(await audits(offerId)).toHaveLength(1);
    expect(await mailsTo(owner.email, "offer-withdrawn")).toHaveLength(1);
  });

  it("two staff members at once: exactly one wins; one event, one audit row, one e-mail", async () => {
    const { app, offerId, owner } = await offered();
    const results = await Promise.allSettled([withdrawOffer(app.id, "Reason A", { actor: admin, request: {} }, db()), withdrawOffer(app.id, "Reason B", { actor: admin, request: {} }, db())]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(rejected).toHaveLength(1);
    expect(rejected[0]!.reason).toMatchObject({ status: 409 });
    expect(["Reason A", "Reason B"]).toContain((await offerRow(offerId)).withdrawReason);
    expect(await withdrawEvents(app.id)).toHaveLength(1);
    expect(await audits(offerId)).toHaveLength(1);
    expect(await mailsTo(owner.email, "offer-withdrawn")).toHaveLength(1);
  });

  it("a signed, declined or expired offer cannot be withdrawn (409), and stays as it is", async () => {
    for (const status of ["signed", "declined", "expired"] as const) {
      const { app, offerId, owner } = await offered();
      const decidedAt = new Date();
      await db().update(loanOffers).set({ status, decidedAt }).where(eq(loanOffers.id, offerId));
      await expect(withdrawOffer(app.id, "Too late", { actor: admin, request: {} }, db())).rejects.toMatchObject({ status: 409, message: OFFER_WITHDRAW_MESSAGES.conflict });
      expect(await offerRow(offerId)).toMatchObject({ status, withdrawReason: null, decidedBy: null });
      expect(await withdrawEvents(app.id)).toHaveLength(0);
      expect(await mailsTo(owner.email, "offer-withdrawn")).toHaveLength(0);
    }
  });

  it("an application that does not exist (or a malformed id) is a 404; one without an offer a 409", async () => {
    await expect(withdrawOffer(randomUUID(), "Reason", { actor: admin, request: {} }, db())).rejects.toMatchObject({ status: 404 });
    await expect(withdrawOffer("not-a-uuid", "Reason", { actor: admin, request: {} }, db())).rejects.toMatchObject({ status: 404 });
    n += 1;
    const id = `withdraw-nooffer-${target}-${n}`;
    await seedApplicant(db(), { id, name: "No Offer", email: `nooffer${n}@example.com` });
    const [pending] = await db().insert(loanApplications).values(applicationRow(id)).returning();
    await expect(withdrawOffer(pending!.id, "Reason", { actor: admin, request: {} }, db())).rejects.toMatchObject({ status: 409 });
  });

  describe("the route's action", () => {
    it("withdraws with the toast; the reason is trimmed and keeps its line breaks (CRLF → LF)", async () => {
      const { app, offerId } = await offered();
      const res = await offerWithdrawAction(post({ intent: "withdraw", reason: "  Line one\r\nLine two  " }), app.id, { actor: admin, request: {} }, db());
      expect(res).toMatchObject({ status: 200, body: { ok: true, intent: "withdraw", toast: { type: "success", title: "Offer withdrawn" } } });
      expect((await offerRow(offerId)).withdrawReason).toBe("Line one\nLine two");
      const again = await offerWithdrawAction(post({ intent: "withdraw", reason: "Again" }), app.id, { actor: admin, request: {} }, db());
      expect(again.status).toBe(409);
      expect(again.body.toast.description).toBe(OFFER_WITHDRAW_MESSAGES.conflict);
    });

    it("refuses a missing, blank, too long or control-character reason (400 naming the field) and an unknown intent, changing nothing", async () => {
      const { app, offerId } = await offered();
      for (const reason of [undefined, "", "   \n ", "x".repeat(501), "Bad\u0000reason", "Bell\u0007", "Esc\u001b[31m", "C1\u0085"]) {
        const fields: Record<string, string> = { intent: "withdraw" };
        if (reason !== undefined) fields.reason = reason;
        const res = await offerWithdrawAction(post(fields), app.id, { actor: admin, request: {} }, db());
        expect(res.status, JSON.stringify(reason)?.slice(0, 40)).toBe(400);
        expect(res.body.ok).toBe(false);
        expect(res.body.fieldErrors?.reason?.length).toBeGreaterThan(0);
        expect(res.body.toast).toMatchObject({ type: "error", title: "Failed to withdraw the offer" });
      }
      expect((await offerWithdrawAction(post({ intent: "withdraw", reason: "x".repeat(500) }), randomUUID(), { actor: admin, request: {} }, db())).status).toBe(404);
      expect((await offerWithdrawAction(post({ intent: "withdraw", reason: "x" }), "../etc", { actor: admin, request: {} }, db())).status).toBe(404);
      const unknown = await offerWithdrawAction(post({ intent: "sign", reason: "x" }), app.id, { actor: admin, request: {} }, db());
      expect(unknown).toMatchObject({ status: 400, body: { intent: null } });
      expect((await offerRow(offerId)).status).toBe("offered");
      // Exactly 500 characters is accepted.
      expect((await offerWithdrawAction(post({ intent: "withdraw", reason: "y".repeat(500) }), app.id, { actor: admin, request: {} }, db())).status).toBe(200);
    });

    it("refuses an oversized body (413) and an unreadable one (400) before anything else", async () => {
      const { app, offerId } = await offered();
      const big = new Request("http://localhost/admin/applications/x/offer", {
        method: "POST",
        body: new URLSearchParams({ intent: "withdraw", reason: "x".repeat(MAX_OFFER_WITHDRAW_FORM_BYTES) }),
      });
      expect((await offerWithdrawAction(big, app.id, { actor: admin, request: {} }, db())).status).toBe(413);
      const garbled = new Request("http://localhost/admin/applications/x/offer", {
        method: "POST",
        body: "--x\r\nnot multipart",
        headers: { "content-type": "multipart/form-data; boundary=y" },
      });
      expect((await offerWithdrawAction(garbled, app.id, { actor: admin, request: {} }, db())).status).toBe(400);
      expect((await offerRow(offerId)).status).toBe("offered");
    });
  });

  describe("what staff see", () => {
    it("the application page lists the offers (newest first) with the Counteroffer, the figures and the withdrawal; the signing certificate once signed", async () => {
      const { app, offerId } = await offered();
      let detail = (await loadAdminApplication(app.id, { actor: admin, request: {} }, db()))!;
      expect(detail.offers).toHaveLength(1);
      expect(detail.offers[0]).toMatchObject({
        id: offerId,
        status: "offered",
        statusLabel: "Offered",
        isCounteroffer: true,
        counterofferReasons: ["Insufficient income"],
        amountCents: 2_000_000,
        noteRatePercent: "9.50",
        originationFeePercent: "2.00",
        originationFeeCents: 40_000,
        amountFinancedCents: 1_960_000,
        termMonths: 36,
        withdrawReason: null,
      });
      expect(detail.certificate).toBeNull();

      await withdrawOffer(app.id, REASON, { actor: admin, request: {} }, db());
      detail = (await loadAdminApplication(app.id, { actor: admin, request: {} }, db()))!;
      expect(detail.offers[0]).toMatchObject({ status: "withdrawn", statusLabel: "Withdrawn", withdrawReason: REASON });
      expect(detail.offers[0]!.decidedAt).not.toBeNull();
      expect(detail.summary.latestOffer).toMatchObject({ status: "withdrawn", statusLabel: "Withdrawn", isCounteroffer: true });

      // A signed one (rows as the signing service writes them) shows its certificate.
      const signed = await offered();
      const [consent] = await db()
        .insert(esignConsents)
        .values({ userId: signed.owner.id, applicationId: signed.app.id, version: "2026-11-24.1", ipAddress: "198.51.100.7", userAgent: "Firefox/140" })
        .returning();
      const signedAt = new Date("2026-11-24T18:00:00Z");
      await db().update(loanOffers).set({ status: "signed", decidedAt: signedAt }).where(eq(loanOffers.id, signed.offerId));
      await db().insert(signedAgreements).values({
        offerId: signed.offerId,
        applicationId: signed.app.id,
        userId: signed.owner.id,
        storageKey: `agreements/${signed.offerId}.pdf`,
        sha256: "a".repeat(64),
        byteSize: 12_345,
        signerName: "Jane Doe",
        signerEmail: signed.owner.email,
        signatureKind: "typed",
        signedAt,
        ipAddress: "198.51.100.7",
        userAgent: "Firefox/140",
        consentId: consent!.id,
        consentVersion: consent!.version,
        consentedAt: consent!.consentedAt,
        firstPaymentDue: "2026-12-24",
      });
      const signedDetail = (await loadAdminApplication(signed.app.id, { actor: admin, request: {} }, db()))!;
      expect(signedDetail.offers[0]).toMatchObject({ status: "signed", statusLabel: "Signed", firstPaymentDue: "2026-12-24" });
      expect(signedDetail.certificate).toMatchObject({
        signerName: "Jane Doe",
        signerEmail: signed.owner.email,
        signedAt: signedAt.toISOString(),
        ipAddress: "198.51.100.7",
        userAgent: "Firefox/140",
        consentVersion: "2026-11-24.1",
        sha256: "a".repeat(64),
      });
      await expect(withdrawOffer(signed.app.id, "Too late", { actor: admin, request: {} }, db())).rejects.toMatchObject({ status: 409 });
    });

    it("the list's card shows the latest offer (status, Counteroffer, terms, payment) in the page's one query", async () => {
      const { app } = await offered({ submittedAt: new Date("2032-01-01T00:00:00Z") });
      const page = await listApplicationsPage({ tab: "approved", page: 1 }, db());
      const card = page.applications.find((a) => a.id === app.id)!;
      expect(card.approvedLoan).toBeNull();
      expect(card.latestOffer).toMatchObject({ status: "offered", statusLabel: "Offered", isCounteroffer: true, amountCents: 2_000_000, noteRatePercent: "9.50", termMonths: 36 });
      expect(card.latestOffer!.paymentCents).toBeGreaterThan(0);
      const pending = await listApplicationsPage({ tab: "pending", page: 1 }, db());
      expect(pending.applications.every((a) => a.latestOffer === null)).toBe(true);
    });

    it("the approve dialog's preview says what the server says", () => {
      expect(APPROVE_PREVIEW_MESSAGES).toEqual(OFFER_TERMS_MESSAGES);
    });

    it("approving from the application page takes the Origination Fee (%) and the Counteroffer reasons; refuses a fee out of range, an unknown reason, control characters", async () => {
      n += 1;
      const id = `withdraw-page-${target}-${n}`;
      await seedApplicant(db(), { id, name: "Page Applicant", email: `page${n}@example.com` });
      const [app] = await db().insert(loanApplications).values(applicationRow(id)).returning();
      const approve = { intent: "approve", approvedAmount: "20000", interestRate: "9.5", termMonths: "36", originationFeePercent: "2" };
      const act = (fields: Record<string, string>) => {
        const body = new URLSearchParams(fields);
        return applicationPageAction(new Request("http://localhost/admin/applications/x", { method: "POST", body }), app!.id, { actor: admin, request: {} }, db());
      };
      for (const [fields, field] of [
        [{ ...approve, originationFeePercent: "10.5" }, "originationFeePercent"],
        [{ ...approve, originationFeePercent: "-1" }, "originationFeePercent"],
        [{ ...approve, counterofferReasons: "Made up" }, "counterofferReasons"],
        [{ ...approve, counterofferOther: "Bad\u0000other" }, "counterofferOther"],
        [{ ...approve, termMonths: "481" }, "termMonths"],
        [approve, "counterofferReasons"],
      ] as [Record<string, string>, string][]) {
        const res = await act(fields);
        expect(res.status, JSON.stringify(fields)).toBe(400);
        expect((res.body as { fieldErrors?: Record<string, string[]> }).fieldErrors?.[field]?.length, field).toBeGreaterThan(0);
      }
      expect(await db().select().from(loanOffers).where(eq(loanOffers.applicationId, app!.id))).toHaveLength(0);
      const ok = await act({ ...approve, counterofferOther: "Debt-to-income ratio" });
      expect(ok.status).toBe(200);
      const [offer] = await db().select().from(loanOffers).where(eq(loanOffers.applicationId, app!.id));
      expect(offer).toMatchObject({ originationFeeMilli: 2000, originationFeeCents: 40_000, isCounteroffer: true, counterofferReasons: ["Debt-to-income ratio"] });
    });
  });
});
