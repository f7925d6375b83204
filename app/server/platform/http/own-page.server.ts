import { data } from "react-router";

/**
 * A loader's answer for a signed-in person's own page (their loan, their offer): the 404 page when the
 * lookup found nothing for them (not there, or not theirs: the answer never says which), else the
 * page's data with a header that keeps it out of every cache.
 */
export function ownPageOr404<T>(page: T | null | undefined) {
  if (!page) throw data(null, { status: 404, statusText: "Not Found" });
  return data(page, { headers: { "Cache-Control": "no-store, private" } });
}
