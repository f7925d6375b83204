import type { Route } from "./+types/disclosures";
import { LegalDocumentView } from "~/components/legal/legal-document";
import { legalDisclosures } from "~/content/legal/disclosures";
import { formatLegalDate } from "~/content/legal/last-updated";
import { pageMeta } from "~/content/site";

export const meta: Route.MetaFunction = () => [
  ...pageMeta(
    "Legal Disclosures",
    "APR range, origination fees, Equal Credit Opportunity Act notice, E-SIGN consent, state licensing and other legal disclosures for Private Loans.",
  ),
];

/** 'Last Updated' is today's date, computed on the server at render time (spec 000 §2). */
export function loader() {
  return { lastUpdated: formatLegalDate() };
}

export default function DisclosuresPage({ loaderData }: Route.ComponentProps) {
  return <LegalDocumentView doc={legalDisclosures} lastUpdated={loaderData.lastUpdated} />;
}
