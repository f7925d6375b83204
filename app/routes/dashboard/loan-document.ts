import { requireUser } from "~/server/accounts/session.server";
import { requestInfo } from "~/server/platform/http/request-info.server";
import { serveLoanDocument } from "~/server/loans/borrower-documents.server";
import type { Route } from "./+types/loan-document";

/**
 * GET /dashboard/loans/:id/documents?kind=payoff&date=yyyy-MM-dd | kind=statement&month=yyyy-MM |
 * kind=paid-in-full: the borrower's own loan's payoff quote letter, monthly statement or paid-in-full
 * letter (PDF attachment, no-store; audited 'servicing.document'). Another person's loan, a malformed
 * id and staff get 404; bad parameters 400.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  return serveLoanDocument(params.id, new URL(request.url), user, requestInfo(request, context), { method: request.method });
}
