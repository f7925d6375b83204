import { data } from "react-router";

/** What a staff record page's loader found, or the 404 page when it names no record (a malformed id, or no such row). */
export function orNotFound<T>(found: T | null | undefined): T {
  if (!found) throw data(null, { status: 404, statusText: "Not Found" });
  return found;
}
