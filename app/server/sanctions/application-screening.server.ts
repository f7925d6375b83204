import { and, count, eq } from "drizzle-orm";
import type { SanctionsScreeningTrigger } from "~/domain/sanctions";
import type { DbOrTx } from "~/server/platform/db/client.server";
import { sanctionsMatches, sanctionsScreenings } from "~/server/platform/db/schema.server";
import { sanctionsClearance, type SanctionsClearance } from "./clearance.server";
import { screenPerson } from "./screening.server";

/**
 * Screening an application's applicant and keeping the result (decision 0089): at submission, at Fund
 * Loan and after each list load. Each screening is one sanctions_screenings row (which publications it
 * compared against, the threshold, how many names matched) and one sanctions_matches row per list entry
 * the applicant matched that this application does not hold yet. A match is kept by the entry's
 * fingerprint: one staff cleared is not flagged again while the entry stays the same, and is flagged
 * again (a new row) once the list changes what it says about that entry. Nothing leaves the process.
 */

/** Who is screened: the application and what its applicant gave (the applications module builds it). */
export type ScreeningSubject = {
  applicationId: string;
  /** The applicant's full name as the application gives it. */
  name: string;
  /** yyyy-MM-dd. */
  dateOfBirth?: string;
  country?: string;
};

export type ApplicantScreening = {
  screeningId: string;
  /** The application's potential matches staff have not decided, after this screening. */
  openMatches: number;
  /** Matches this screening added (entries not flagged for this application before, or changed since). */
  newMatches: number;
};

/**
 * Screens the applicant and records it, in one transaction (a savepoint when `db` is already one, so a
 * caller may keep its own work when a screening fails). Never throws on what the name holds: the name
 * is only compared, never stored or sent anywhere.
 */
export async function screenApplicant(
  db: DbOrTx,
  subject: ScreeningSubject,
  trigger: SanctionsScreeningTrigger,
  now: Date = new Date(),
): Promise<ApplicantScreening> {
  return db.transaction(async (tx) => {
    const result = await screenPerson({ name: subject.name, dateOfBirth: subject.dateOfBirth, country: subject.country }, tx);
    const [screening] = await tx
      .insert(sanctionsScreenings)
      .values({
        applicationId: subject.applicationId,
        trigger,
        screenedAt: now,
        lists: result.lists.map((list) => ({ ...list, loadedAt: list.loadedAt.toISOString() })),
        threshold: result.threshold,
        matchCount: result.matches.length,
      })
      .returning({ id: sanctionsScreenings.id });
    const screeningId = screening!.id;
    // One row per entry; two entries the lists write alike share a fingerprint, and the first is kept.
    const byFingerprint = new Map(result.matches.map((match) => [match.fingerprint, match] as const));
    const added = byFingerprint.size
      ? await tx
          .insert(sanctionsMatches)
          .values([...byFingerprint.values()].map((match) => ({ applicationId: subject.applicationId, screeningId, entryFingerprint: match.fingerprint, match, createdAt: now })))
          .onConflictDoNothing({ target: [sanctionsMatches.applicationId, sanctionsMatches.entryFingerprint] })
          .returning({ id: sanctionsMatches.id })
      : [];
    const [open] = await tx
      .select({ n: count() })
      .from(sanctionsMatches)
      .where(and(eq(sanctionsMatches.applicationId, subject.applicationId), eq(sanctionsMatches.status, "open")));
    return { screeningId, openMatches: Number(open?.n ?? 0), newMatches: added.length };
  });
}

/**
 * The screening Fund Loan runs: the applicant screened again against the current lists (trigger
 * "funding"), then where the application stands. Funding may go ahead only when the answer is "clear".
 */
export async function screenForFunding(db: DbOrTx, subject: ScreeningSubject, now: Date = new Date()): Promise<SanctionsClearance> {
  await screenApplicant(db, subject, "funding", now);
  return sanctionsClearance(subject.applicationId, db);
}

/**
 * One page of the applications to screen again, in a stable order: `after` is the previous page's
 * `next` (null for the first page); `next` is null after the last page. The applications module
 * provides it (this module does not read its tables).
 */
export type ScreeningSubjectsPage = (after: string | null, limit: number) => Promise<{ subjects: ScreeningSubject[]; next: string | null }>;

export type Rescreening = { screened: number; newMatches: number; withOpenMatches: number };

/** Applications per page: a big book is read a page at a time, never whole. */
const RESCREEN_PAGE = 200;

/**
 * After a list load: every application the subjects provider names (open applications and active
 * borrowers) is screened against the lists just loaded (trigger "list_load"), each in its own
 * transaction, so one failure loses no other's result and no long transaction holds the book.
 */
export async function rescreenAll(db: DbOrTx, subjects: ScreeningSubjectsPage, now: Date = new Date(), pageSize = RESCREEN_PAGE): Promise<Rescreening> {
  const total: Rescreening = { screened: 0, newMatches: 0, withOpenMatches: 0 };
  let after: string | null = null;
  do {
    const page = await subjects(after, pageSize);
    for (const subject of page.subjects) {
      const result = await screenApplicant(db, subject, "list_load", now);
      total.screened += 1;
      total.newMatches += result.newMatches;
      if (result.openMatches > 0) total.withOpenMatches += 1;
    }
    after = page.next;
  } while (after !== null);
  return total;
}
