import { errorToast, type Toast } from "~/domain/action-result";
import { formatMoney } from "~/domain/money";
import { formatAgreementDay } from "~/domain/views/agreement-preview";
import { MODIFICATION_KIND_LABELS } from "~/domain/loan-modifications";
import { issuesToFieldErrors } from "~/domain/validation/field-errors";
import { borrowerHardshipSchemaFor, staffHardshipSchemaFor, type BorrowerHardshipIntent, type HardshipActionData, type StaffHardshipIntent } from "~/domain/validation/hardship";
import type { AuditActor, Caller } from "~/server/platform/audit/audit.server";
import { getDb, type Db } from "~/server/platform/db/client.server";
import { formTexts, readActionForm, type ServiceAnswer } from "~/server/platform/http/action-answer.server";
import { isAppError } from "~/server/platform/http/app-error.server";
import { logFailure } from "~/server/platform/log/describe-error.server";
import { ownLoanId, type LoanViewer } from "./borrower-loan.server";
import { closeRequest, declinePlan, offerPlan, requestHelp, signPlan, withdrawPlan } from "./hardship-plans.server";
import { parseLoanId } from "./staff-loans.server";

/**
 * The hardship action routes' answers (JSON to the page's fetcher): POST /dashboard/loans/:id/hardship
 * (request-help | sign-plan | decline-plan, the loan's owner only: anyone else's loan is 404) and POST
 * /admin/loans/:id/hardship (offer-plan | withdraw-plan | close-request, collections.work). A form over
 * the small-form limit is 413, an unknown intent or a bad field 400 with the field's message, a
 * refusal its own status, never a 500 for anything the request says.
 */

export type HardshipAnswer = ServiceAnswer<HardshipActionData>;
type Intent = BorrowerHardshipIntent | StaffHardshipIntent;

const TITLES: Record<Intent, { ok: string; failed: string }> = {
  "request-help": { ok: "Request sent", failed: "Request not sent" },
  "sign-plan": { ok: "Plan signed", failed: "Plan not signed" },
  "decline-plan": { ok: "Plan declined", failed: "Plan not declined" },
  "offer-plan": { ok: "Plan offered", failed: "Plan not offered" },
  "withdraw-plan": { ok: "Plan withdrawn", failed: "Plan not withdrawn" },
  "close-request": { ok: "Request closed", failed: "Request not closed" },
};

function answer(status: number, intent: Intent | null, toast: Toast, extra: Partial<HardshipActionData> = {}): HardshipAnswer {
  return { status, body: { ok: status < 300, intent, toast, at: Date.now(), ...extra } };
}

const refused = (message: string) => ({ ok: false, intent: null, toast: errorToast("Request refused", message), at: Date.now() }) satisfies HardshipActionData;

/** A service's refusal as the answer, anything else logged and answered 500 without its text. */
function failure(intent: Intent, error: unknown, side: string, ids: Record<string, string>): HardshipAnswer {
  const title = TITLES[intent].failed;
  if (isAppError(error, "servicing")) return answer(error.status, intent, errorToast(title, error.message), error.field ? { fieldErrors: { [error.field]: [error.message] } } : {});
  logFailure(side, `${intent} failed`, error, ids);
  return answer(500, intent, errorToast(title, "Something went wrong on our side. Please try again."));
}

export async function borrowerHardshipAction(request: Request, urlId: string | undefined, caller: Caller<LoanViewer>, db: Db = getDb()): Promise<HardshipAnswer> {
  const read = await readActionForm(request, refused);
  if (!read.ok) return read.answer;
  const loanId = await ownLoanId(urlId, caller.actor, db);
  if (!loanId) return answer(404, null, errorToast("Not found", "This loan does not exist."));
  const values = formTexts(read.form);
  const schema = borrowerHardshipSchemaFor(values.intent);
  if (!schema) return answer(400, null, errorToast("Request refused", "Unknown action."));
  const intent = values.intent as BorrowerHardshipIntent;
  const parsed = schema.safeParse(values);
  if (!parsed.success) return answer(400, intent, errorToast(TITLES[intent].failed, parsed.error.issues[0]?.message ?? "Check the form and try again."), { fieldErrors: issuesToFieldErrors(parsed.error) });
  const input = parsed.data;
  try {
    switch (input.intent) {
      case "request-help":
        await requestHelp(loanId, input, caller, db);
        return answer(200, intent, { type: "success", title: TITLES[intent].ok, description: "We received your request for help with payments. We will review it and contact you; its status is shown on this page." });
      case "decline-plan": {
        const row = await declinePlan(loanId, input.modificationId, caller, db);
        return answer(200, intent, { type: "success", title: TITLES[intent].ok, description: `You declined the ${MODIFICATION_KIND_LABELS[row.kind].toLowerCase()} plan. Your payment schedule is unchanged.` }, { redirectTo: `/dashboard/loans/${loanId}` });
      }
      case "sign-plan": {
        const result = await signPlan(loanId, input, caller, { db });
        const next = result.nextDue ? ` Your next payment of ${formatMoney(result.nextDue.amountCents)} is due ${formatAgreementDay(result.nextDue.dueDate)}.` : "";
        return answer(200, intent, { type: "success", title: TITLES[intent].ok, description: `Your loan now follows the new Payment Schedule.${next} Download the signed modification agreement from your loan page.` }, { redirectTo: `/dashboard/loans/${loanId}` });
      }
    }
  } catch (error) {
    return failure(intent, error, "borrower", { user: caller.actor.id, loanId });
  }
}

export async function staffHardshipAction(request: Request, urlId: string | undefined, caller: Caller<AuditActor>, db: Db = getDb()): Promise<HardshipAnswer> {
  const read = await readActionForm(request, refused);
  if (!read.ok) return read.answer;
  const loanId = parseLoanId(urlId);
  if (!loanId) return answer(404, null, errorToast("Not found", "This loan does not exist."));
  const values = formTexts(read.form);
  const schema = staffHardshipSchemaFor(values.intent);
  if (!schema) return answer(400, null, errorToast("Request refused", "Unknown action."));
  const intent = values.intent as StaffHardshipIntent;
  const parsed = schema.safeParse(values);
  if (!parsed.success) return answer(400, intent, errorToast(TITLES[intent].failed, parsed.error.issues[0]?.message ?? "Check the form and try again."), { fieldErrors: issuesToFieldErrors(parsed.error) });
  const input = parsed.data;
  try {
    switch (input.intent) {
      case "offer-plan": {
        const { modification } = await offerPlan(loanId, input.plan, input.note, caller, db);
        return answer(200, intent, { type: "success", title: TITLES[intent].ok, description: `The borrower was e-mailed the ${MODIFICATION_KIND_LABELS[modification.kind].toLowerCase()} plan to review and sign by ${formatAgreementDay(modification.expiresOn)}.` });
      }
      case "withdraw-plan":
        await withdrawPlan(loanId, input.modificationId, input.note ?? "", caller, db);
        return answer(200, intent, { type: "success", title: TITLES[intent].ok, description: "The plan can no longer be signed; the request is open again." });
      case "close-request":
        await closeRequest(loanId, input.requestId, input.note, caller, db);
        return answer(200, intent, { type: "success", title: TITLES[intent].ok, description: "The borrower sees the request as closed, with your reason." });
    }
  } catch (error) {
    return failure(intent, error, "staff", { user: caller.actor.id, loanId });
  }
}
