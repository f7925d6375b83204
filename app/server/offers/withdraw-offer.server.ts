import { and, eq } from "drizzle-orm";
import { issuesToFieldErrors } from "~/domain/validation/field-errors";
import {
  OFFER_WITHDRAW_MESSAGES,
  OFFER_WITHDRAW_TOASTS,
  offerWithdrawSchema,
  WITHDRAW_FAILED,
  type OfferWithdrawActionData,
} from "~/domain/validation/offer-withdraw";
import { writeAudit, type Caller } from "~/server/platform/audit/audit.server";
import { getConfig } from "~/server/platform/config.server";
import { recordEvent } from "~/server/conversation/index.server";
import { getDb, type Db } from "~/server/platform/db/client.server";
import { loanOffers } from "~/server/platform/db/schema.server";
import { personById } from "~/server/accounts/index.server";
import { applicationById, touchApplication } from "~/server/applications/index.server";
import { readActionForm, type ServiceAnswer } from "~/server/platform/http/action-answer.server";
import { logFailure } from "~/server/platform/log/describe-error.server";
import { enqueueEmail } from "~/server/platform/mail/outbox.server";
import { offerWithdrawnEmail } from "~/server/offers/offer-withdrawn-email.server";
import { AppError, actionRefusal, stampedRefusal } from "~/server/platform/http/app-error.server";
import { UUID_PATTERN } from "~/domain/ids";

/**
 * Withdraw Offer (staff): the open offer of an application becomes 'withdrawn' with staff's
 * reason. One conditional UPDATE (… WHERE application_id = $1 AND status = 'offered'), so of two
 * withdrawals, or a withdrawal racing the applicant's signature, exactly one wins; in the same
 * transaction the timeline entry the applicant reads (its summary is the reason), the audit row and
 * the applicant's e-mail.
 */


/** The largest form the route reads: 500 characters of 4-byte UTF-8, form-encoded (×3), and the intent. */
export const MAX_OFFER_WITHDRAW_FORM_BYTES = 16 * 1024;

/** Withdraws the application's open offer; OfferWithdrawRefused (404 no application, 409 nothing open) otherwise. */
export async function withdrawOffer(
  applicationId: string, reason: string, { actor, request }: Caller, db: Db = getDb(), now: Date = new Date(),
): Promise<{ offerId: string }> {
  if (!UUID_PATTERN.test(applicationId)) throw new AppError("offer_withdraw", 404, OFFER_WITHDRAW_MESSAGES.notFound);
  const app = await applicationById(applicationId, db);
  const owner = app && (await personById(app.userId, db));
  const found = app && owner ? { ...app, accountEmail: owner.email } : null;
  if (!found) throw new AppError("offer_withdraw", 404, OFFER_WITHDRAW_MESSAGES.notFound);

  return db.transaction(async (tx) => {
    const [offer] = await tx
      .update(loanOffers)
      .set({ status: "withdrawn", decidedAt: now, decidedBy: actor.id, withdrawReason: reason })
      .where(and(eq(loanOffers.applicationId, applicationId), eq(loanOffers.status, "offered")))
      .returning({ id: loanOffers.id, userId: loanOffers.userId });
    if (!offer) throw new AppError("offer_withdraw", 409, OFFER_WITHDRAW_MESSAGES.conflict);
    // Lists and pages that watch the application reload (its row's trigger tells every instance).
    await touchApplication(tx, applicationId);
    await recordEvent(tx, { applicationId, ownerId: offer.userId, kind: "offer_withdrawn", actorId: actor.id, actorSide: "staff", summary: reason });
    await writeAudit(tx, {
      actor,
      action: "offer.withdraw",
      table: "loan_offers",
      recordId: offer.id,
      details: { applicationId, reasonCharacters: reason.length },
      request,
    });
    await enqueueEmail(tx, {
      to: found.accountEmail,
      ...offerWithdrawnEmail({
        applicantName: `${found.firstName} ${found.lastName}`,
        loanType: found.loanType,
        applicationId,
        reason,
        baseUrl: getConfig().publicUrl,
        withdrawnAt: now,
      }),
    });
    return { offerId: offer.id };
  });
}

export type OfferWithdrawAnswer = ServiceAnswer<OfferWithdrawActionData>;

const refusal = stampedRefusal<"withdraw">(WITHDRAW_FAILED);

/**
 * POST /admin/applications/:id/offer after the route's guards (same origin, a verified admin): reads
 * the size-limited form (413 when too large), validates it (400 naming the field), withdraws.
 */
export async function offerWithdrawAction(request: Request, urlId: string | undefined, caller: Caller, db: Db = getDb()): Promise<OfferWithdrawAnswer> {
  const read = await readActionForm(request, (message): OfferWithdrawActionData => refusal(400, null, message).body, {
    limitBytes: MAX_OFFER_WITHDRAW_FORM_BYTES,
    unreadableAsEmpty: true,
  });
  if (!read.ok) return read.answer;
  if (read.form.get("intent") !== "withdraw") return refusal(400, null, OFFER_WITHDRAW_MESSAGES.intent);
  if (!urlId || !UUID_PATTERN.test(urlId)) return refusal(404, "withdraw", OFFER_WITHDRAW_MESSAGES.notFound);
  const reason = read.form.get("reason");
  const parsed = offerWithdrawSchema.safeParse({ intent: "withdraw", reason: typeof reason === "string" ? reason : undefined });
  if (!parsed.success) {
    return refusal(400, "withdraw", parsed.error.issues[0]?.message ?? OFFER_WITHDRAW_MESSAGES.reasonRequired, issuesToFieldErrors(parsed.error));
  }
  try {
    await withdrawOffer(urlId.toLowerCase(), parsed.data.reason, caller, db);
    return { status: 200, body: { ok: true, intent: "withdraw", toast: OFFER_WITHDRAW_TOASTS.withdrawn, at: Date.now() } };
  } catch (error) {
    if (error instanceof AppError) return actionRefusal(error, { title: WITHDRAW_FAILED, stamped: true }, { intent: "withdraw" as const });
    logFailure("admin", "withdrawing an offer failed", error, { admin: caller.actor.id, applicationId: urlId });
    return refusal(500, "withdraw", "Something went wrong on our side. Please try again.");
  }
}
