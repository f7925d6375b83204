import type { Route } from "./+types/how-it-works";
import { PlaceholderPage } from "~/components/placeholder-page";
import { pageMeta } from "~/content/site";

export const meta: Route.MetaFunction = () => [
  ...pageMeta(
    "How It Works",
    "From application to disbursement: how our private lending process works and which documents you need.",
  ),
];

export default function HowItWorksPage() {
  return (
    <PlaceholderPage
      title="How It Works"
      intro="Apply, underwriting, approval and disbursement, step by step."
      release="the public-website release"
    />
  );
}
