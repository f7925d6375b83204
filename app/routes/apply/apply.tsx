import type { Route } from "./+types/apply";
import { PlaceholderPage } from "~/components/placeholder-page";
import { pageMeta } from "~/content/site";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Apply for a Loan", "Apply online for a private loan in five short steps."),
];

// Placeholder: shows no data. Its loader (with the guard) arrives with the loan-application release.
export default function ApplyPage() {
  return (
    <PlaceholderPage
      title="Apply for a Loan"
      intro="The five-step online application."
      release="the loan-application release"
    />
  );
}
