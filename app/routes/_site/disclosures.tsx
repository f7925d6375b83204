import type { Route } from "./+types/disclosures";
import { LegalDocumentView, legalPageLoader, legalPageMeta } from "~/components/legal/legal-document";
import { legalDisclosures } from "~/content/legal/disclosures";

export const meta: Route.MetaFunction = () => legalPageMeta(legalDisclosures);

export const loader = legalPageLoader;

export default function DisclosuresPage({ loaderData }: Route.ComponentProps) {
  return <LegalDocumentView doc={legalDisclosures} lastUpdated={loaderData.lastUpdated} />;
}
