import { and, gte, inArray, isNull, or } from "drizzle-orm";
import { PROTECTION_KIND_LABELS, type ProtectionKind } from "~/domain/collections-enums";
import { timeZoneOfState } from "~/domain/contact-hours";
import { getDb, type DbOrTx } from "~/server/platform/db/client.server";
import { loanProtections } from "~/server/platform/db/schema.server";
import { profileStatesByIds } from "~/server/accounts/index.server";
import { applicationsByIds } from "~/server/applications/index.server";

/**
 * What the collections queue, panel, actions and notices read about a loan's borrower: whether a
 * protection stops collections (an active loan_protections row: not ended by staff, and its end day, if
 * any, not passed), and the borrower's time zone (from the state on their profile, else the one on the
 * application). Batched: one query per kind of fact for a whole page or job batch.
 */

/** The protection that stops collections on each loan today (bankruptcy before servicemember when both). */
export async function activeProtections(loanIds: readonly string[], today: string, db: DbOrTx = getDb()): Promise<Map<string, { kind: ProtectionKind; label: string }>> {
  const wanted = [...new Set(loanIds)];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .select({ loanId: loanProtections.loanId, kind: loanProtections.kind })
    .from(loanProtections)
    .where(and(inArray(loanProtections.loanId, wanted), isNull(loanProtections.endedAt), or(isNull(loanProtections.endsOn), gte(loanProtections.endsOn, today))));
  const out = new Map<string, { kind: ProtectionKind; label: string }>();
  for (const row of rows) {
    const held = out.get(row.loanId);
    if (!held || row.kind === "bankruptcy") out.set(row.loanId, { kind: row.kind, label: PROTECTION_KIND_LABELS[row.kind] });
  }
  return out;
}

/** Whether a protection stops collections on the loan today, read inside the caller's transaction (after its loan lock). */
export async function protectionOf(tx: DbOrTx, loanId: string, today: string): Promise<{ kind: ProtectionKind; label: string } | null> {
  return (await activeProtections([loanId], today, tx)).get(loanId) ?? null;
}

export type BorrowerZone = { state: string | null; timeZone: string | null };

/** Each loan's borrower's state and time zone (null zone: no US state known; contact hours then hold on both coasts). */
export async function borrowerZones(loans: readonly { id: string; userId: string; applicationId: string }[], db: DbOrTx = getDb()): Promise<Map<string, BorrowerZone>> {
  if (loans.length === 0) return new Map();
  // One after the other: inside a transaction both go through its one connection.
  const states = await profileStatesByIds(loans.map((l) => l.userId), db);
  const apps = await applicationsByIds(loans.map((l) => l.applicationId), db);
  const out = new Map<string, BorrowerZone>();
  for (const loan of loans) {
    // The profile is where the borrower keeps their address current; the application's is where they lived when applying.
    const candidates = [states.get(loan.userId), apps.get(loan.applicationId)?.state];
    const state = candidates.find((s) => timeZoneOfState(s) !== null) ?? null;
    out.set(loan.id, { state: state?.trim().toUpperCase() ?? null, timeZone: timeZoneOfState(state) });
  }
  return out;
}

/** A literal for the servicing notice kinds this module claims. */
export const COLLECTIONS_NOTICE_KIND = { 15: "collections_15", 30: "collections_30", 60: "collections_60" } as const;

