import type { Route } from "./+types/terms";
import { PlaceholderPage } from "~/components/placeholder-page";
import { pageMeta } from "~/content/site";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Terms of Service", "The terms that govern your use of the Private Loans website and services."),
];

export default function TermsPage() {
  return <PlaceholderPage title="Terms of Service" release="the public-website release" />;
}
