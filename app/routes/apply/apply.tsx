import { ApplyWizard } from "~/components/apply/wizard";
import { parsePriorEstimate } from "~/domain/calculator-link";
import { pageMeta } from "~/content/site";
import { isOneOf, LOAN_TYPES } from "~/domain/enums";
import { listDrafts } from "~/server/applications/drafts.server";
import { requireUser } from "~/server/accounts/session.server";
import { getDb } from "~/server/platform/db/client.server";
import type { Route } from "./+types/apply";

export const meta: Route.MetaFunction = () => pageMeta("Apply for a Loan", "Apply online for a private loan in five short steps.");

/**
 * Signed-in applicants only; the calculator's figures (if any) come along in the query string, and
 * ?loanType= names the saved draft to resume (the dashboard's Continue Your Application). The drafts
 * come without their sensitive values (masks only).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request, { message: "Please sign in to apply for a loan" });
  const params = new URL(request.url).searchParams;
  const estimate = parsePriorEstimate(params);
  const asked = params.get("loanType");
  const resume = asked && isOneOf(LOAN_TYPES, asked) ? asked : null;
  const drafts = user.isStaff ? [] : await listDrafts(getDb(), user.id);
  return { user: { id: user.id, name: user.name, email: user.email }, estimate, drafts, resume };
}

export default function ApplyPage({ loaderData }: Route.ComponentProps) {
  // Keyed by the estimate and the draft asked for, so a new hand-off (same path, new query) starts the wizard afresh.
  return (
    <ApplyWizard
      key={JSON.stringify([loaderData.estimate, loaderData.resume])}
      user={loaderData.user}
      estimate={loaderData.estimate}
      drafts={loaderData.drafts}
      resume={loaderData.resume}
    />
  );
}
