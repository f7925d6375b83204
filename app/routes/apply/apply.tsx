import { ApplyWizard } from "~/components/apply/wizard";
import { parsePriorEstimate } from "~/domain/calculator-link";
import { pageMeta } from "~/content/site";
import { requireUser } from "~/server/auth/session.server";
import type { Route } from "./+types/apply";

export const meta: Route.MetaFunction = () => pageMeta("Apply for a Loan", "Apply online for a private loan in five short steps.");

/** Signed-in applicants only; the calculator's figures (if any) come along in the query string. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request, { message: "Please sign in to apply for a loan" });
  const estimate = parsePriorEstimate(new URL(request.url).searchParams);
  return { user: { id: user.id, name: user.name, email: user.email }, estimate };
}

export default function ApplyPage({ loaderData }: Route.ComponentProps) {
  // Keyed by the estimate so a new calculator hand-off (same path, new query) starts the wizard afresh.
  return <ApplyWizard key={JSON.stringify(loaderData.estimate)} user={loaderData.user} estimate={loaderData.estimate} />;
}
