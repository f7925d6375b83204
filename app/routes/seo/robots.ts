import { robotsTxt } from "~/content/seo";
import { getConfig } from "~/server/platform/config.server";

/** /robots.txt: public pages allowed, private areas disallowed, the sitemap's absolute URL. */
export function loader() {
  return new Response(robotsTxt(getConfig().publicUrl), {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
    },
  });
}
