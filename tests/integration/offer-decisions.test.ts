import { randomUUID } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { OFFER_DECLINE_MESSAGES } from "~/domain/validation/offer-decline";
import { getApplicantApplication } from "~/server/applications/applicant-application.server";
import type { AuditActor } from "~/server/platform/audit/audit.server";
import { getDashboard } from "~/server/applications/dashboard.server";
import { applicationEvents, auditLog, emailOutbox, loanOffers } from "~/server/platform/db/schema.server";
import { startOfferExpiryJob } from "~/server/offers/expiry-job.server";
import { OFFER_DECLINE_FORM, offerDeclineAction, OFFER_DECLINE_MAX_BYTES } from "~/server/offers/offer-decline-action.server";
import { readActionInput } from "~/server/platform/http/action-answer.server";
import { declineOffer, expireOffers } from "~/server/offers/offer-decisions.server";
import { setUpTestConfig } from "../helpers/temp-config";
import { testTargets, useTestDatabase } from "../helpers/test-db";
import { withoutUuids } from "../helpers/without-uuids";
import { isAppError } from "~/server/platform/http/app-error.server";
import { applicantSeries, seedOffer, seedStaff } from "../helpers/seed";

/**
 * Decline Offer and the expiry job (issue 20) against a real database: one conditional UPDATE each,
 * so of two declines at once, or two expiry runs at once, exactly one changes the offer and only that
 * one writes the timeline event, the audit row and the e-mail. A declined or expired Counteroffer
 * sends a Reg B notice of action taken (reasons, creditor, ECOA notice); a plain offer a short note.
 * Another user's application and staff get 404; an offer no longer open, 409.
 */

setUpTestConfig("offer-decisions", { APP_SECRET: "o".repeat(48), PUBLIC_URL: "https://loans.example.com" });

const DAY = 24 * 60 * 60 * 1000;
const ECOA = "The federal Equal Credit Opportunity Act prohibits creditors from discriminating";

describe.each(testTargets)("offer decisions on %s", (target) => {
  const database = useTestDatabase({ target, global: true });
  const db = () => database().db;
  let admin: AuditActor;
  const newApplicant = applicantSeries(db, { prefix: "offer", scope: target, profileName: "Quinn Offeree" });

  /** An application (requested: $25,000 at 9.5 % for 36 months) approved with `terms`, at `madeAt`. */
  async function offered(kind: "plain" | "counteroffer", madeAt = new Date()) {
    const owner = await newApplicant();
    const terms =
      kind === "plain"
        ? { approvedAmountCents: 2_500_000, interestRateMilli: 9500, termMonths: 36 }
        : { approvedAmountCents: 1_800_000, interestRateMilli: 9500, termMonths: 36, counterofferReasons: ["Insufficient income", "Excessive obligations"] };
    const { application, offerId } = await seedOffer(db(), { owner, admin, application: { status: "under_review" }, terms, at: madeAt });
    return { app: application, owner, offerId };
  }

  const offerRow = async (id: string) => (await db().select().from(loanOffers).where(eq(loanOffers.id, id)))[0]!;
  const mailsTo = async (to: string, template: string) =>
    db().select().from(emailOutbox).where(and(eq(emailOutbox.toAddress, to), eq(emailOutbox.template, template)));
  const eventsOf = async (applicationId: string, kind: "offer_declined" | "offer_expired") =>
    db().select().from(applicationEvents).where(and(eq(applicationEvents.applicationId, applicationId), eq(applicationEvents.kind, kind)));
  const auditsOf = async (action: string, offerId: string) => db().select().from(auditLog).where(and(eq(auditLog.action, action), eq(auditLog.recordId, offerId)));

  beforeAll(async () => {
    const id = `offer-admin-${target}`;
    await seedStaff(db(), { id, name: "Ada Admin", email: `${id}@example.com`, role: "admin" });
    admin = { id, name: "Ada Admin", email: `${id}@example.com` };
  });

  describe("declineOffer", () => {
    it("a plain offer: declined in one step with its event, audit row and a confirmation (no Reg B notice)", async () => {
      const { app, owner, offerId } = await offered("plain");
      const now = new Date();
      const view = await declineOffer(app.id, { actor: owner, request: { ip: "203.0.113.9", userAgent: "vitest" } }, db(), now);
      expect(view).toMatchObject({ id: offerId, status: "declined", statusLabel: "Declined", isCounteroffer: false });
      const row = await offerRow(offerId);
      expect(row.status).toBe("declined");
      expect(row.decidedAt?.getTime()).toBe(now.getTime());
      expect(await eventsOf(app.id, "offer_declined")).toMatchObject([{ actorId: owner.id, actorSide: "applicant", internal: false }]);
      expect(await auditsOf("offer.decline", offerId)).toMatchObject([{ actorId: owner.id, ipAddress: "203.0.113.9", tableName: "loan_offers" }]);
      const [mail] = await mailsTo(owner.email, "offer-declined");
      expect(mail?.subject).toBe("You declined your Private Loans loan offer");
      expect(mail?.textBody).toContain("$25,000.00 at 9.50% for 36 months");
      expect(mail?.textBody).toContain(`https://loans.example.com/dashboard/applications/${app.id}`);
      expect(mail?.textBody).not.toContain(ECOA);
      expect(await mailsTo(owner.email, "offer-declined-notice")).toHaveLength(0);
    });

    it("a counteroffer: a Reg B notice of action taken naming the reasons, the creditor and the ECOA notice", async () => {
      const { app, owner, offerId } = await offered("counteroffer");
      await declineOffer(app.id, { actor: owner, request: {} }, db());
      expect((await offerRow(offerId)).status).toBe("declined");
      const [notice] = await mailsTo(owner.email, "offer-declined-notice");
      expect(notice).toBeTruthy();
      expect(notice!.subject).toBe("Notice of action taken on your Private Loans application");
      for (const body of [notice!.textBody, notice!.htmlBody ?? ""]) {
        expect(body).toContain("Counteroffer");
        expect(body).toContain("Insufficient income");
        expect(body).toContain("Excessive obligations");
        expect(body).toContain(ECOA);
        expect(body).toContain("Federal Trade Commission");
        expect(body).toContain("Private Loans, ");
        expect(body).toContain("You have the right to a statement of the specific reasons");
      }
      expect(notice!.textBody).toContain("$18,000.00 at 9.50% for 36 months");
      expect(notice!.textBody).toContain("Amount requested: $25,000.00");
      // Never an account number or an SSN (the application's reference, a UUID, is taken out first).
      const withoutReference = withoutUuids(notice!.textBody);
      expect(withoutReference).toContain("Reference: <uuid>");
      expect(withoutReference).not.toMatch(/\d{3}-?\d{2}-?\d{4}|routing|account number/i);
      expect(await mailsTo(owner.email, "offer-declined")).toHaveLength(0);
    });

    it("twice, and twice in parallel: one wins; the other is a clear 409; one event, one audit row, one e-mail", async () => {
      const first = await offered("counteroffer");
      await declineOffer(first.app.id, { actor: first.owner, request: {} }, db());
      const again = await declineOffer(first.app.id, { actor: first.owner, request: {} }, db()).catch((e: unknown) => e);
      expect(again).toSatisfy((e) => isAppError(e, "offer_decision"));
      expect(again).toMatchObject({ status: 409, message: OFFER_DECLINE_MESSAGES.conflict });

      const { app, owner, offerId } = await offered("counteroffer");
      const results = await Promise.allSettled([declineOffer(app.id, { actor: owner, request: {} }, db()), declineOffer(app.id, { actor: owner, request: {} }, db())]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const rejected = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
      expect(rejected[0]!.reason).toMatchObject({ status: 409 });
      expect(await eventsOf(app.id, "offer_declined")).toHaveLength(1);
      expect(await auditsOf("offer.decline", offerId)).toHaveLength(1);
      expect(await mailsTo(owner.email, "offer-declined-notice")).toHaveLength(1);
    });

    it("another user's application, staff, a malformed or unknown id: 404, nothing changes", async () => {
      const { app, offerId } = await offered("plain");
      const stranger = await newApplicant();
      for (const [id, who] of [
        [app.id, stranger],
        [app.id, { ...admin, isStaff: true }],
        ["not-a-uuid", stranger],
        [randomUUID(), stranger],
      ] as const) {
        const error = await declineOffer(id, { actor: who, request: {} }, db()).catch((e: unknown) => e);
        expect(error).toMatchObject({ status: 404, message: OFFER_DECLINE_MESSAGES.notFound });
      }
      expect((await offerRow(offerId)).status).toBe("offered");
      expect(await eventsOf(app.id, "offer_declined")).toHaveLength(0);
    });

    it("an offer past its expiry (even before the job ran) cannot be declined: 409", async () => {
      const { app, owner, offerId } = await offered("plain", new Date(Date.now() - 31 * DAY));
      const error = await declineOffer(app.id, { actor: owner, request: {} }, db()).catch((e: unknown) => e);
      expect(error).toMatchObject({ status: 409 });
      expect((await offerRow(offerId)).status).toBe("offered");
    });
  });

  describe("expireOffers", () => {
    it("two runs at once expire each due offer once: one event, one audit row (system), one e-mail each; open, signed and withdrawn offers untouched", async () => {
      const past = new Date(Date.now() - 40 * DAY);
      const counter = await offered("counteroffer", past);
      const plain = await offered("plain", past);
      const open = await offered("plain");
      const signed = await offered("plain", past);
      await db().update(loanOffers).set({ status: "signed", decidedAt: new Date() }).where(eq(loanOffers.id, signed.offerId));
      const withdrawn = await offered("counteroffer", past);
      await db().update(loanOffers).set({ status: "withdrawn", decidedAt: new Date(), withdrawReason: "Terms changed" }).where(eq(loanOffers.id, withdrawn.offerId));

      const now = new Date();
      const [a, b] = await Promise.all([expireOffers(db(), now), expireOffers(db(), now)]);
      const mine = [counter.offerId, plain.offerId];
      const expiredRows = await db().select().from(loanOffers).where(inArray(loanOffers.id, mine));
      expect(expiredRows.map((r) => r.status)).toEqual(["expired", "expired"]);
      // Other files' offers are not in this database; every offer due here is one of ours (and the 409 test's).
      expect(a.expired + b.expired).toBeGreaterThanOrEqual(2);
      expect(Math.min(a.expired, b.expired)).toBe(0);

      for (const { app, offerId } of [counter, plain]) {
        expect(await eventsOf(app.id, "offer_expired")).toMatchObject([{ actorId: null, actorSide: null }]);
        expect(await auditsOf("offer.expire", offerId)).toMatchObject([{ actorId: null }]);
      }
      const notices = await mailsTo(counter.owner.email, "offer-expired-notice");
      expect(notices).toHaveLength(1);
      expect(notices[0]!.textBody).toContain("Counteroffer");
      expect(notices[0]!.textBody).toContain("Insufficient income");
      expect(notices[0]!.textBody).toContain(ECOA);
      expect(await mailsTo(plain.owner.email, "offer-expired")).toHaveLength(1);
      expect(await mailsTo(plain.owner.email, "offer-expired-notice")).toHaveLength(0);

      expect((await offerRow(open.offerId)).status).toBe("offered");
      expect((await offerRow(signed.offerId)).status).toBe("signed");
      expect((await offerRow(withdrawn.offerId)).status).toBe("withdrawn");
      for (const other of [open, signed, withdrawn]) expect(await eventsOf(other.app.id, "offer_expired")).toHaveLength(0);

      // A later run finds nothing more to do.
      expect(await expireOffers(db(), new Date())).toEqual({ expired: 0, counteroffers: 0 });
    });

    it("the job runs it shortly after start and stop() waits for the run in flight", async () => {
      const { offerId } = await offered("counteroffer", new Date(Date.now() - 40 * DAY));
      const log = vi.fn();
      const job = startOfferExpiryJob({ db: db(), log, firstRunDelayMs: 1, intervalMs: 60_000 });
      await vi.waitFor(async () => expect((await offerRow(offerId)).status).toBe("expired"), { timeout: 5000 });
      await job.stop();
      expect(log.mock.calls.flat().join("\n")).toMatch(/\[offers\] expired \d+ offer\(s\)/);
    });
  });

  describe("the applicant's views", () => {
    it("the dashboard lists the user's offers newest first and nobody else's; the application page its own", async () => {
      const { app, owner, offerId } = await offered("counteroffer");
      const other = await offered("plain");
      const dashboard = await getDashboard(owner.id, owner.name, db());
      expect(dashboard.offers.map((o) => o.id)).toEqual([offerId]);
      expect(dashboard.offers[0]).toMatchObject({ isCounteroffer: true, counterofferReasons: ["Insufficient income", "Excessive obligations"], amountCents: 1_800_000, status: "offered" });
      expect(dashboard.offers.some((o) => o.id === other.offerId)).toBe(false);
      const page = await getApplicantApplication(app.id, { id: owner.id, isStaff: false }, db());
      expect(page?.offers.map((o) => o.id)).toEqual([offerId]);
      expect(await getApplicantApplication(app.id, { id: other.owner.id, isStaff: false }, db())).toBeNull();
    });
  });

  describe("the route's action", () => {
    const post = (body: BodyInit, type = "application/x-www-form-urlencoded") =>
      new Request("http://localhost/dashboard/applications/x/offer-decline", { method: "POST", body, headers: { "content-type": type } });

    it("declines (200 with a toast), then 409; bad intent 400; oversized 413; another's 404", async () => {
      const { app, owner } = await offered("plain");
      const stranger = await newApplicant();
      // The route's form (read by defineAction before the handler): a wrong intent 400, an oversized body 413.
      const formStatus = async (body: string) => {
        const read = await readActionInput(post(body), OFFER_DECLINE_FORM);
        return read.ok ? 200 : read.answer.status;
      };
      expect((await offerDeclineAction(app.id, { actor: stranger, request: {} })).status).toBe(404);
      expect(await formStatus("intent=sign")).toBe(400);
      expect(await formStatus("nothing=here")).toBe(400);
      expect(await formStatus(`intent=decline&pad=${"x".repeat(OFFER_DECLINE_MAX_BYTES)}`)).toBe(413);
      expect(await formStatus("intent=decline")).toBe(200);
      const ok = await offerDeclineAction(app.id, { actor: owner, request: {} });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ ok: true, intent: "decline", toast: { type: "success", title: "Offer declined" } });
      const again = await offerDeclineAction(app.id, { actor: owner, request: {} });
      expect(again.status).toBe(409);
      expect(again.body.toast.description).toBe(OFFER_DECLINE_MESSAGES.conflict);
    });
  });
});
