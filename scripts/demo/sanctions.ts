import fs from "node:fs";
import path from "node:path";
import { screeningSubjectsPage } from "~/server/applications/index.server";
import type { Db } from "~/server/platform/db/client.server";
import { currentSanctionsLists, loadSanctionsLists, rescreenAll } from "~/server/sanctions/index.server";

/** The sample list the demo loads (scripts/demo/sanctions/README.md): invented names, one close to a demo applicant's. */
const FILES = ["sdn.csv", "add.csv", "alt.csv"].map((name) => path.join(import.meta.dirname, "sanctions", name));
export const DEMO_SANCTIONS_PUBLISHED_ON = "2026-12-01";

/**
 * Screening for the demo's applications, as an operator's first list load would run it: the sample list
 * is loaded when no list is (a list an operator loaded is never replaced), then every open application
 * and current loan is screened against the lists. Returns the potential matches it found.
 */
export async function screenDemoApplications(db: Db): Promise<number> {
  if ((await currentSanctionsLists(db)).length === 0) {
    await loadSanctionsLists(db, FILES.map((file) => ({ name: path.basename(file), content: fs.readFileSync(file) })), DEMO_SANCTIONS_PUBLISHED_ON);
  }
  const result = await rescreenAll(db, (after, limit) => screeningSubjectsPage(db, after, limit));
  return result.newMatches;
}
