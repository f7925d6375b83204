import { and, eq, gt, lte } from "drizzle-orm";
import type { OfferView } from "~/domain/loan-offers";
import { OFFER_DECLINE_MESSAGES } from "~/domain/validation/offer-decline";
import { writeAudit, type AuditActor, type Caller } from "~/server/platform/audit/audit.server";
import { getConfig } from "~/server/platform/config.server";
import { recordEvent } from "~/server/conversation/index.server";
import { getDb, type Db, type Tx } from "~/server/platform/db/client.server";
import { loanOffers } from "~/server/platform/db/schema.server";
import { peopleByIds } from "~/server/accounts/index.server";
import { applicationById, applicationsByIds } from "~/server/applications/index.server";
import { offerDeclinedEmail, offerDeclinedNoticeEmail, offerExpiredEmail, offerExpiredNoticeEmail, type ClosedOfferEmailData } from "~/server/offers/offer-emails.server";
import { enqueueEmail } from "~/server/platform/mail/outbox.server";
import { toOfferView, type OfferRow } from "./offers.server";
import { AppError } from "~/server/platform/http/app-error.server";
import { UUID_PATTERN } from "~/domain/ids";

/**
 * The applicant's and the clock's decisions on an open offer: Decline Offer and expiry.
 * Each is ONE conditional UPDATE (… WHERE status = 'offered' …, RETURNING), in one transaction with
 * its timeline event, audit row and e-mail: of two requests (or two instances' expiry runs) at once,
 * the row lock lets exactly one change the row, and only that one writes the rest. A Counteroffer
 * that is not accepted is an adverse action (Reg B, 12 CFR 1002.9(a)(1)(iv)): its e-mail is a notice
 * of action taken with the counteroffer's reasons; a plain offer's is a short confirmation.
 */


export type OfferDecider = { id: string; name: string; email: string; isStaff: boolean };

type Recipient = { email: string; name: string; loanType: string; requestedAmountCents: number };

/** What the e-mail needs of the application and its applicant (the account's address, the profile's name). */
async function recipientsFor(tx: Tx, applicationIds: string[]) {
  const apps = [...(await applicationsByIds(applicationIds, tx)).values()];
  const people = await peopleByIds(apps.map((app) => app.userId), tx);
  const recipients = new Map<string, Recipient>();
  for (const app of apps) {
    const person = people.get(app.userId);
    if (person) recipients.set(app.id, { email: person.email, name: person.profileName ?? person.name, loanType: app.loanType, requestedAmountCents: app.requestedAmountCents });
  }
  return recipients;
}

function emailData(offer: OfferRow, about: { name: string; loanType: string; requestedAmountCents: number }, decidedAt: Date): ClosedOfferEmailData {
  return {
    applicantName: about.name,
    loanType: about.loanType,
    applicationId: offer.applicationId,
    baseUrl: getConfig().publicUrl,
    requestedAmountCents: about.requestedAmountCents,
    amountCents: offer.amountCents,
    noteRateMilli: offer.noteRateMilli,
    termMonths: offer.termMonths,
    counterofferReasons: offer.counterofferReasons,
    decidedAt,
  };
}

/**
 * Decline Offer: the signed-in applicant declines the open offer on their own application. Another
 * user's application, a malformed id and staff get 404 (the same answer as no application); an offer
 * that is no longer open (signed, declined, withdrawn, expired, or past its expiry) gets 409.
 */
export async function declineOffer(applicationId: unknown, caller: Caller<OfferDecider>, db: Db = getDb(), now: Date = new Date()): Promise<OfferView> {
  const { actor: user, request } = caller;
  if (user.isStaff || typeof applicationId !== "string" || !UUID_PATTERN.test(applicationId)) {
    throw new AppError("offer_decision", 404, OFFER_DECLINE_MESSAGES.notFound);
  }
  const id = applicationId.toLowerCase();
  return db.transaction(async (tx) => {
    const [offer] = await tx
      .update(loanOffers)
      .set({ status: "declined", decidedAt: now })
      .where(and(eq(loanOffers.applicationId, id), eq(loanOffers.userId, user.id), eq(loanOffers.status, "offered"), gt(loanOffers.expiresAt, now)))
      .returning();
    if (!offer) {
      // Nothing changed: tell "not yours / not there" (404) from "not open any more" (409).
      const application = await applicationById(id, tx);
      const own = application?.userId === user.id;
      throw own ? new AppError("offer_decision", 409, OFFER_DECLINE_MESSAGES.conflict) : new AppError("offer_decision", 404, OFFER_DECLINE_MESSAGES.notFound);
    }
    const about = (await recipientsFor(tx, [offer.applicationId])).get(offer.applicationId);
    if (!about) throw new Error("declineOffer: the offer's application vanished inside the transaction");
    await recordEvent(tx, {
      applicationId: offer.applicationId,
      ownerId: offer.userId,
      kind: "offer_declined",
      actorId: user.id,
      actorSide: "applicant",
      summary: offer.isCounteroffer ? "You declined the counteroffer." : "You declined the loan offer.",
    });
    const actor: AuditActor = { id: user.id, name: user.name, email: user.email };
    await writeAudit(tx, {
      actor,
      action: "offer.decline",
      table: "loan_offers",
      recordId: offer.id,
      details: { applicationId: offer.applicationId, counteroffer: offer.isCounteroffer, notice: offer.isCounteroffer ? "offer-declined-notice" : "offer-declined" },
      request,
    });
    const data = emailData(offer, about, now);
    await enqueueEmail(tx, { to: about.email, ...(offer.isCounteroffer ? offerDeclinedNoticeEmail(data) : offerDeclinedEmail(data)) });
    return toOfferView(offer);
  });
}

/** How many offers expired, and how many of them were Counteroffers (each sent a Reg B notice). */
export type ExpiryResult = { expired: number; counteroffers: number };

/**
 * Expires every open offer whose time has passed: ONE statement (UPDATE … WHERE status = 'offered'
 * AND expires_at <= now RETURNING), in one transaction with each returned offer's timeline event,
 * audit row (actor: the system) and e-mail (a Reg B notice for a Counteroffer, a courtesy notice
 * otherwise). Two instances running it at once: the second waits on the first's row locks, re-checks
 * status = 'offered' and skips what the first expired, so each offer expires, and is announced, once.
 */
export async function expireOffers(db: Db = getDb(), now: Date = new Date()): Promise<ExpiryResult> {
  return db.transaction(async (tx) => {
    const expired = await tx
      .update(loanOffers)
      .set({ status: "expired", decidedAt: now })
      .where(and(eq(loanOffers.status, "offered"), lte(loanOffers.expiresAt, now)))
      .returning();
    if (expired.length === 0) return { expired: 0, counteroffers: 0 };
    const recipients = await recipientsFor(tx, [...new Set(expired.map((o) => o.applicationId))]);
    let counteroffers = 0;
    for (const offer of expired) {
      await recordEvent(tx, {
        applicationId: offer.applicationId,
        ownerId: offer.userId,
        kind: "offer_expired",
        actorId: null,
        actorSide: null,
        summary: offer.isCounteroffer ? "The counteroffer expired without being signed." : "The loan offer expired without being signed.",
      });
      await writeAudit(tx, {
        actor: null,
        action: "offer.expire",
        table: "loan_offers",
        recordId: offer.id,
        details: { applicationId: offer.applicationId, counteroffer: offer.isCounteroffer, expiresAt: offer.expiresAt.toISOString() },
      });
      const about = recipients.get(offer.applicationId);
      if (!about) continue;
      const data = emailData(offer, about, now);
      await enqueueEmail(tx, { to: about.email, ...(offer.isCounteroffer ? offerExpiredNoticeEmail(data) : offerExpiredEmail(data)) });
      if (offer.isCounteroffer) counteroffers += 1;
    }
    return { expired: expired.length, counteroffers };
  });
}
