import { useLocation, useMatches, useRouteLoaderData } from "react-router";
import { useNonce } from "~/components/nonce-provider";
import { canonicalUrl, jsonLdText, organizationJsonLd } from "~/content/seo";
import { site } from "~/content/site";

/** The catch-all route (the 404 page): no canonical URL for a page that does not exist. */
const NOT_FOUND_ROUTE_ID = "routes/not-found";

/**
 * Head tags every page gets, rendered inside <head> by the root layout:
 * - the canonical URL and og:url: PUBLIC_URL (from the root loader, never hard-coded) + the path;
 * - Open Graph og:type, og:url, og:site_name (og:title and og:description come from each page's
 *   own meta, through pageMeta in content/site.ts);
 * - Organization + FinancialService structured data (JSON-LD: data, not script; the CSP nonce is
 *   passed anyway for tidiness).
 * Without root loader data (an error page whose loader failed) it renders nothing.
 */
export function SeoHead() {
  const rootData = useRouteLoaderData("root") as { publicUrl?: string } | undefined;
  const { pathname } = useLocation();
  const matches = useMatches();
  const nonce = useNonce();
  const baseUrl = rootData?.publicUrl;
  if (!baseUrl) return null;

  const notFound = matches.some((m) => m.id === NOT_FOUND_ROUTE_ID);
  const url = canonicalUrl(baseUrl, pathname);
  return (
    <>
      {notFound ? null : <link rel="canonical" href={url} />}
      <meta property="og:type" content="website" />
      {notFound ? null : <meta property="og:url" content={url} />}
      <meta property="og:site_name" content={site.name} />
      <meta property="og:locale" content="en_US" />
      <script
        type="application/ld+json"
        nonce={nonce || undefined}
        suppressHydrationWarning
        dangerouslySetInnerHTML={{ __html: jsonLdText(organizationJsonLd(baseUrl)) }}
      />
    </>
  );
}
