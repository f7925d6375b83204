import { callerOf } from "~/server/platform/http/request-info.server";
import { serveLoanDocument } from "~/server/loans/index.server";
import type { Route } from "./+types/loan-document";
import { signedIn } from "~/server/accounts/index.server";
import { defineLoader } from "~/server/platform/http/define-route.server";

/**
 * GET /dashboard/loans/:id/documents?kind=payoff&date=yyyy-MM-dd | kind=statement&month=yyyy-MM |
 * kind=paid-in-full: the borrower's own loan's payoff quote letter, monthly statement or paid-in-full
 * letter (PDF attachment, no-store; audited 'servicing.document'). Another person's loan, a malformed
 * id and staff get 404; bad parameters 400.
 */
export const loader = defineLoader({
  guard: signedIn,
  handle: async ({ request, context, params }: Route.LoaderArgs, user) => serveLoanDocument(params.id, new URL(request.url), callerOf(user, request, context), { method: request.method }),
});
