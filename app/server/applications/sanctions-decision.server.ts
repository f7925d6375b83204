import { eq } from "drizzle-orm";
import { isOpenForReview } from "~/domain/application-lifecycle";
import { UUID_PATTERN } from "~/domain/ids";
import { issuesToFieldErrors } from "~/domain/validation/field-errors";
import {
  SANCTIONS_DECISION_FAILED,
  SANCTIONS_DECISION_MESSAGES,
  SANCTIONS_DECISION_TOASTS,
  sanctionsDecisionSchema,
  type SanctionsDecisionActionData,
  type SanctionsDecisionInput,
  type SanctionsDecisionIntent,
} from "~/domain/validation/sanctions-decision";
import type { Caller } from "~/server/platform/audit/audit.server";
import { getDb, type Db } from "~/server/platform/db/client.server";
import { loanApplications } from "~/server/platform/db/schema.server";
import { readActionForm, type ServiceAnswer } from "~/server/platform/http/action-answer.server";
import { AppError, actionRefusal, stampedRefusal } from "~/server/platform/http/app-error.server";
import { logFailure } from "~/server/platform/log/describe-error.server";
import { clearSanctionsMatch, confirmSanctionsMatch } from "~/server/sanctions/index.server";
import { denyInTransaction } from "./reviews.server";

/**
 * Clear Match and Confirm Match (POST /admin/applications/:id/sanctions). Each runs in one transaction
 * holding the application's row lock, so decisions on one application happen one after the other:
 * of two staff members deciding the same match at once, one decides and the other is told it was
 * decided; a decision after a confirmation is refused (the application is frozen).
 *
 * Confirm Match denies an application still under review through the usual deny path, with no reason
 * listed: the notice of action taken offers the statement of reasons on request and names no list, so
 * nothing the applicant receives says they matched a sanctions list. An application already approved
 * keeps its status (no lifecycle event leaves "approved" for "denied"); its confirmed match makes the
 * funding checklist refuse Fund Loan for good.
 */

/** Forms here hold an intent, an id and a reason of at most 1000 characters. */
const MAX_FORM_BYTES = 16 * 1024;

export type SanctionsDecisionAnswer = ServiceAnswer<SanctionsDecisionActionData>;

const refusal = stampedRefusal<SanctionsDecisionIntent>(SANCTIONS_DECISION_FAILED);

/** The decision, applied: the match decided, and for a confirmation the application denied and the admins told. */
export async function decideSanctionsMatch(applicationId: string, input: SanctionsDecisionInput, caller: Caller, db: Db = getDb(), now: Date = new Date()): Promise<void> {
  await db.transaction(async (tx) => {
    const [app] = await tx
      .select({ status: loanApplications.status, firstName: loanApplications.firstName, lastName: loanApplications.lastName })
      .from(loanApplications)
      .where(eq(loanApplications.id, applicationId))
      .for("update");
    if (!app) throw new AppError("sanctions_decision", 404, SANCTIONS_DECISION_MESSAGES.notFound);
    const decision = { applicationId, matchId: input.matchId, reason: input.reason };
    if (input.intent === "clear-match") {
      await clearSanctionsMatch(tx, decision, caller, now);
      return;
    }
    await confirmSanctionsMatch(tx, { ...decision, applicantName: `${app.firstName} ${app.lastName}` }, caller, now);
    if (isOpenForReview(app.status)) await denyInTransaction(tx, applicationId, [], caller);
  });
}

export async function sanctionsDecisionAction(request: Request, urlId: string | undefined, caller: Caller, db: Db = getDb()): Promise<SanctionsDecisionAnswer> {
  const read = await readActionForm(request, (message): SanctionsDecisionActionData => refusal(400, null, message).body, {
    limitBytes: MAX_FORM_BYTES,
    unreadableAsEmpty: true,
  });
  if (!read.ok) return read.answer;
  const field = (name: string) => {
    const value = read.form.get(name);
    return typeof value === "string" ? value : undefined;
  };
  const rawIntent = field("intent");
  const intent = rawIntent === "clear-match" || rawIntent === "confirm-match" ? rawIntent : null;
  if (!intent) return refusal(400, null, SANCTIONS_DECISION_MESSAGES.intent);
  if (!urlId || !UUID_PATTERN.test(urlId)) return refusal(404, intent, SANCTIONS_DECISION_MESSAGES.notFound);
  const parsed = sanctionsDecisionSchema.safeParse({ intent, matchId: field("matchId"), reason: field("reason") });
  if (!parsed.success) {
    return refusal(400, intent, parsed.error.issues[0]?.message ?? SANCTIONS_DECISION_MESSAGES.reasonRequired, issuesToFieldErrors(parsed.error));
  }
  try {
    await decideSanctionsMatch(urlId.toLowerCase(), parsed.data, caller, db);
    const toast = intent === "clear-match" ? SANCTIONS_DECISION_TOASTS.cleared : SANCTIONS_DECISION_TOASTS.confirmed;
    return { status: 200, body: { ok: true, intent, toast, at: Date.now() } };
  } catch (error) {
    if (error instanceof AppError) return actionRefusal(error, { title: SANCTIONS_DECISION_FAILED, stamped: true }, { intent });
    logFailure("admin", "a sanctions decision failed", error, { admin: caller.actor.id, applicationId: urlId });
    return refusal(500, intent, "Something went wrong on our side. Please try again.");
  }
}
