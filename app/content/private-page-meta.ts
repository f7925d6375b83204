import type { MetaDescriptor } from "react-router";
import { pageMeta } from "./site";

/**
 * `pageMeta` for a signed-in page (admin area, portal, staff invitation): search engines are asked not to
 * index it, since what it shows belongs to one person and a crawler only ever sees the sign-in redirect.
 * Kept out of site.ts, which every page loads, so the public pages do not ship it.
 */
export function privatePageMeta(title: string, description: string): MetaDescriptor[] {
  return [...pageMeta(title, description), { name: "robots", content: "noindex" }];
}
