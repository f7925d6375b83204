import type { Route } from "./+types/privacy";
import { LegalDocumentView } from "~/components/legal/legal-document";
import { privacyPolicy } from "~/content/legal/privacy";
import { formatLegalDate } from "~/content/legal/last-updated";
import { pageMeta } from "~/content/site";

export const meta: Route.MetaFunction = () => [
  ...pageMeta(
    "Privacy Policy",
    "How Private Loans collects, uses, shares and protects your personal information, including our Gramm-Leach-Bliley Act privacy notice and your opt-out rights.",
  ),
];

/** 'Last Updated' is today's date, computed on the server at render time (spec 000 §2). */
export function loader() {
  return { lastUpdated: formatLegalDate() };
}

export default function PrivacyPage({ loaderData }: Route.ComponentProps) {
  return <LegalDocumentView doc={privacyPolicy} lastUpdated={loaderData.lastUpdated} />;
}
