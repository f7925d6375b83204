import type { Route } from "./+types/privacy";
import { LegalDocumentView, legalPageLoader, legalPageMeta } from "~/components/legal/legal-document";
import { privacyPolicy } from "~/content/legal/privacy";

export const meta: Route.MetaFunction = () => legalPageMeta(privacyPolicy);

export const loader = legalPageLoader;

export default function PrivacyPage({ loaderData }: Route.ComponentProps) {
  return <LegalDocumentView doc={privacyPolicy} lastUpdated={loaderData.lastUpdated} />;
}
