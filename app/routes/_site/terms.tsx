import type { Route } from "./+types/terms";
import { LegalDocumentView, legalPageLoader, legalPageMeta } from "~/components/legal/legal-document";
import { termsOfService } from "~/content/legal/terms";

export const meta: Route.MetaFunction = () => legalPageMeta(termsOfService);

export const loader = legalPageLoader;

export default function TermsPage({ loaderData }: Route.ComponentProps) {
  return <LegalDocumentView doc={termsOfService} lastUpdated={loaderData.lastUpdated} />;
}
