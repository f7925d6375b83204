import { requireUser } from "~/server/auth/session.server";
import type { Route } from "./+types/apply";
import { PlaceholderPage } from "~/components/placeholder-page";
import { pageMeta } from "~/content/site";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Apply for a Loan", "Apply online for a private loan in five short steps."),
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request, { message: "Please sign in to apply for a loan" });
  return null;
}

// Placeholder: shows no data until its release; the guard already applies.
export default function ApplyPage() {
  return (
    <PlaceholderPage
      title="Apply for a Loan"
      intro="The five-step online application."
      release="the loan-application release"
    />
  );
}
