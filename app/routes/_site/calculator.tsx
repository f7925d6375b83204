import type { Route } from "./+types/calculator";
import { PlaceholderPage } from "~/components/placeholder-page";
import { pageMeta } from "~/content/site";

export const meta: Route.MetaFunction = () => [
  ...pageMeta(
    "Loan Calculator",
    "Estimate your monthly payment, total interest and total repayment with our loan calculator.",
  ),
];

export default function CalculatorPage() {
  return (
    <PlaceholderPage
      title="Loan Calculator"
      intro="Estimate your monthly payment, total interest and total repayment."
      release="the public-website release"
    />
  );
}
