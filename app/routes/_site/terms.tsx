import type { Route } from "./+types/terms";
import { LegalDocumentView } from "~/components/legal/legal-document";
import { termsOfService } from "~/content/legal/terms";
import { formatLegalDate } from "~/content/legal/last-updated";
import { pageMeta } from "~/content/site";

export const meta: Route.MetaFunction = () => [
  ...pageMeta(
    "Terms of Service",
    "The terms that govern your use of the Private Loans website and client portal: eligibility, applications, electronic signatures and governing law.",
  ),
];

/** 'Last Updated' is today's date, computed on the server at render time (spec 000 §2). */
export function loader() {
  return { lastUpdated: formatLegalDate() };
}

export default function TermsPage({ loaderData }: Route.ComponentProps) {
  return <LegalDocumentView doc={termsOfService} lastUpdated={loaderData.lastUpdated} />;
}
