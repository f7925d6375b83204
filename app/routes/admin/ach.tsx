import { data } from "react-router";
import { AchPage } from "~/components/admin/ach/ach-page";
import { adminLoadErrorBoundary } from "~/components/admin/page-load-error";
import { stampedResult } from "~/domain/action-result";
import { formatDay } from "~/domain/formats";
import { formatMoney } from "~/domain/money";
import { ACH_FORM_MESSAGES, achActionSchema, achFormInput } from "~/domain/validation/ach";

import { privatePageMeta } from "~/content/private-page-meta";
import { readActionForm, respond } from "~/server/platform/http/action-answer.server";
import { SMALL_FORM_MAX_BYTES } from "~/server/platform/http/read-body.server";
import { callerOf } from "~/server/platform/http/request-info.server";
import { ACH_RETURN_FILE_MAX_BYTES, AchReturnFileRefused, createAchBatch, importAchReturns, loadAchPage, openLoanFlags, refundAchEntry, resolveLoanFlag, returnAchEntry, returnRates, settleAchEntry } from "~/server/loans/index.server";
import { cancelDebit, returnPrenote } from "~/server/loans/index.server";
import type { Route } from "./+types/ach";
import { returnOutcomeForStaff } from "~/domain/returned-debit-outcome";
import { isAppError } from "~/server/platform/http/app-error.server";
import { staffWith } from "~/server/accounts/index.server";
import { defineAction, defineLoader } from "~/server/platform/http/define-route.server";

export const meta: Route.MetaFunction = () => privatePageMeta("ACH Batch", "Private Loans administration: ACH batches of borrower debits.");

export const loader = defineLoader({
  guard: staffWith("staff.read"),
  handle: async (_args: Route.LoaderArgs) => {
    const [page, rates, flags] = [await loadAchPage(), await returnRates(), await openLoanFlags()];
    return { ...page, returns: { rates, flags } };
  },
});

/**
 * The body limits: the upload (multipart) fits the largest return file and room for its framing; every
 * other intent is a small urlencoded form.
 */
const RETURN_UPLOAD_MAX_BYTES = ACH_RETURN_FILE_MAX_BYTES + 64 * 1024;
const bodyLimit = (request: Request) => ((request.headers.get("content-type") ?? "").toLowerCase().startsWith("multipart/form-data") ? RETURN_UPLOAD_MAX_BYTES : SMALL_FORM_MAX_BYTES);

/**
 * Create ACH Batch, Mark Settled, Mark Returned (a debit or a prenote), Cancel Debit, Mark Refunded,
 * Import Return File (multipart; a refused file answers 400 with its bad lines) and Resolve Flag
 * (validated by achActionSchema; the services audit).
 */
export const action = defineAction({
  guard: staffWith("servicing.manage"),
  handle: async ({ request, context }: Route.ActionArgs, admin) => {
    const read = await readActionForm(request, (message) => stampedResult(false, "ACH Action Failed", message), { unreadableAsEmpty: true, limitBytes: bodyLimit(request) });
    if (!read.ok) return respond(read.answer);
    const parsed = achActionSchema.safeParse(achFormInput(read.form));
    if (!parsed.success) return data(stampedResult(false, "ACH Action Failed", parsed.error.issues[0]?.message), { status: 400 });
    const caller = callerOf(admin, request, context);
    const input = parsed.data;
    try {
      switch (input.intent) {
        case "create-batch": {
          const result = await createAchBatch(caller);
          const skipped =
            (result.skipped.length ? ` ${result.skipped.length} debit(s) stay pending: see the reasons under Pending Debits.` : "") +
            (result.skippedOther.length ? ` ${result.skippedOther.length} other entr${result.skippedOther.length === 1 ? "y stays" : "ies stay"} queued: see the reasons on this page.` : "");
          if (!result.ok) return data(stampedResult(false, "No ACH Batch Created", result.message), { status: 409 });
          const { debit, prenote, credit } = result.counts;
          const parts = [`${debit} debit(s), ${formatMoney(result.totalCents)}`, ...(credit ? [`${credit} credit(s), ${formatMoney(result.creditTotalCents)}`] : []), ...(prenote ? [`${prenote} prenote(s)`] : [])];
          return data(stampedResult(true, "ACH Batch Created", `${parts.join(", ")}, effective ${formatDay(result.effectiveDate)}.${skipped}`));
        }
        case "settle": {
          const result = await settleAchEntry(input.paymentId, input.settledOn, caller);
          if (result.refundDue) return data(stampedResult(true, "Refund Due", "The loan was already paid off: the debit is not posted and is listed under Refunds Due. The borrower was told."));
          return data(stampedResult(true, "Payment Settled", result.paidInFull ? "The loan is now paid in full." : "The payment is posted to the loan."));
        }
        case "return": {
          const reaction = await returnAchEntry(input.paymentId, input.returnCode, input.returnedOn, caller);
          return data(stampedResult(true, "Payment Returned", `Marked returned with code ${input.returnCode} on ${formatDay(input.returnedOn)}. ${returnOutcomeForStaff(reaction)}`.trim()));
        }
        case "return-prenote":
          await returnPrenote(input.validationId, input.returnCode, input.returnedOn, caller);
          return data(stampedResult(true, "Prenote Returned", `Marked returned with code ${input.returnCode} on ${formatDay(input.returnedOn)}: the account is not validated, and its debits wait for another account.`));
        case "cancel-debit": {
          const result = await cancelDebit(input.paymentId, input.reason, caller);
          return data(stampedResult(true, "Debit Cancelled", `The ${formatMoney(result.amountCents)} debit will not be sent. The borrower was told why by e-mail.`));
        }
        case "import-returns": {
          const file = read.form.get("file");
          if (!(file instanceof File) || file.size === 0) return data(stampedResult(false, "Return File Refused", ACH_FORM_MESSAGES.returnFile), { status: 400 });
          // Read as single bytes: a byte outside printable ASCII is refused by the reader, never decoded into something else.
          const text = Buffer.from(await file.arrayBuffer()).toString("latin1");
          const result = await importAchReturns(text, file.name || "return file", caller);
          return data(stampedResult(true, "Return File Imported", `${result.entryCount} returned entr${result.entryCount === 1 ? "y" : "ies"}: ${result.debits} debit(s), ${result.prenotes} prenote(s), ${result.credits} funding credit(s).`));
        }
        case "resolve-flag":
          await resolveLoanFlag(input.flagId, input.note, caller);
          return data(stampedResult(true, "Flag Resolved", "The note is kept with the flag."));
        case "refund": {
          const result = await refundAchEntry(input.paymentId, input.refundedOn, input.reference, caller);
          return data(stampedResult(true, "Refund Recorded", `${formatMoney(result.amountCents)} sent back on ${input.refundedOn}. The borrower was told by e-mail.`));
        }
      }
    } catch (error) {
      if (error instanceof AchReturnFileRefused) return data({ ...stampedResult(false, "Return File Refused", error.message), lines: error.lines }, { status: 400 });
      if (isAppError(error, "servicing")) return data(stampedResult(false, "ACH Action Failed", error.message), { status: error.status });
      throw error;
    }
  },
});

export default function AdminAchRoute({ loaderData, actionData }: Route.ComponentProps) {
  return <AchPage data={loaderData} actionData={actionData} />;
}

export const ErrorBoundary = adminLoadErrorBoundary("ach");
