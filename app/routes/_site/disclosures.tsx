import type { Route } from "./+types/disclosures";
import { PlaceholderPage } from "~/components/placeholder-page";
import { pageMeta } from "~/content/site";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Legal Disclosures", "Legal and regulatory disclosures about Private Loans' lending products."),
];

export default function DisclosuresPage() {
  return <PlaceholderPage title="Legal Disclosures" release="the public-website release" />;
}
