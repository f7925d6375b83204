import { sitemapXml } from "~/content/seo";
import { getConfig } from "~/server/platform/config.server";

/** /sitemap.xml: every public page with its absolute URL (PUBLIC_URL as the base). */
export function loader() {
  return new Response(sitemapXml(getConfig().publicUrl), {
    headers: {
      "Content-Type": "application/xml; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
    },
  });
}
