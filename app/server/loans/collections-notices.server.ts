import { and, asc, eq, gte, lte, sql } from "drizzle-orm";
import { withinContactHours } from "~/domain/contact-hours";
import { addDays, todayUtc } from "~/domain/dates";
import { COLLECTIONS_NOTICE_DAYS } from "~/domain/delinquency";
import { replayLedger } from "~/domain/loan-servicing";
import type { Db } from "~/server/platform/db/client.server";
import { approvedLoans, servicingNotices } from "~/server/platform/db/schema.server";
import { enqueueEmail } from "~/server/platform/mail/outbox.server";
import { collectionsNoticeEmail } from "./collections-notice-emails.server";
import { breakPromises } from "./collections.server";
import { activeProtections, borrowerZones, COLLECTIONS_NOTICE_KIND } from "./collections-records.server";
import { ledgerRows, termsOf } from "./ledger.server";
import { loanMailSubject } from "./loan-reference.server";
import { loanOwner } from "./loan-owner.server";

/**
 * The collections notices (decision 0098): an e-mail when a loan is 15, 30 and 60 days past due,
 * counted from its oldest unpaid installment, once for that installment and threshold (claimed in
 * servicing_notices with ON CONFLICT DO NOTHING, so two runs at once send one). Only the highest
 * threshold reached is sent (a loan first seen at 40 days gets the 30-day notice, not the 15 as well).
 * Not sent while a protection stops collections (servicemember, bankruptcy), and only from 8 a.m. to
 * 8:59 p.m. in the borrower's time zone: outside those hours the notice is not claimed, so a later
 * hourly run sends it. Required servicing notices: the borrower's optional-reminder choice does not stop
 * them, and e-mail is the only channel the product sends.
 *
 * Cost: each threshold reads one range of approved_loans_collections_idx (the loans whose oldest unpaid
 * installment fell due within that threshold's window), leaving out by an index probe those that
 * already had this threshold's notice for their current oldest installment (a notice sent on or after
 * the day it became due), in batches of NOTICE_BATCH_SIZE.
 */

/** The 60-day notice is tried for this many days after it falls due (a job down for a week still sends it). */
export const SIXTY_DAY_CATCH_UP_DAYS = 7;
export const NOTICE_BATCH_SIZE = 100;

type Threshold = (typeof COLLECTIONS_NOTICE_DAYS)[number];

/** Days past due for which threshold N is the one to send: from N up to the next threshold (or the catch-up). */
function windowOf(n: Threshold): { from: number; through: number } {
  const i = COLLECTIONS_NOTICE_DAYS.indexOf(n);
  const next = COLLECTIONS_NOTICE_DAYS[i + 1];
  return { from: n, through: next !== undefined ? next - 1 : n + SIXTY_DAY_CATCH_UP_DAYS - 1 };
}

export async function sendCollectionsNotices(db: Db, now: Date = new Date()): Promise<number> {
  const today = todayUtc(now);
  let sent = 0;
  for (const n of COLLECTIONS_NOTICE_DAYS) {
    const kind = COLLECTIONS_NOTICE_KIND[n];
    const { from, through } = windowOf(n);
    // Due between these days: days past due within [from, through].
    const dueFrom = addDays(today, -through);
    const dueThrough = addDays(today, -from);
    let after: { nextDueDate: string; id: string } | null = null;
    for (;;) {
      const batch: { id: string; nextDueDate: string | null }[] = await db
        .select({ id: approvedLoans.id, nextDueDate: approvedLoans.nextDueDate })
        .from(approvedLoans)
        .where(
          and(
            sql`${approvedLoans.status} = 'active'`,
            gte(approvedLoans.nextDueDate, dueFrom),
            lte(approvedLoans.nextDueDate, dueThrough),
            after ? sql`(${approvedLoans.nextDueDate}, ${approvedLoans.id}) > (${after.nextDueDate}::date, ${after.id}::uuid)` : undefined,
            sql`not exists (select 1 from ${servicingNotices} n where n.loan_id = ${approvedLoans.id} and n.kind = ${kind} and n.sent_at >= (${approvedLoans.nextDueDate} + ${n}::int)::timestamp at time zone 'UTC')`,
          ),
        )
        .orderBy(asc(approvedLoans.nextDueDate), asc(approvedLoans.id))
        .limit(NOTICE_BATCH_SIZE);
      if (batch.length === 0) break;
      sent += await noticeBatch(db, batch.map((b) => b.id), n, now);
      const last = batch.at(-1)!;
      after = { nextDueDate: last.nextDueDate!, id: last.id };
      if (batch.length < NOTICE_BATCH_SIZE) break;
    }
  }
  return sent;
}

/** One batch in one transaction: each loan replayed, checked (still this threshold, not protected, within hours), claimed and e-mailed. */
async function noticeBatch(db: Db, loanIds: string[], n: Threshold, now: Date): Promise<number> {
  const today = todayUtc(now);
  const kind = COLLECTIONS_NOTICE_KIND[n];
  const { from, through } = windowOf(n);
  return db.transaction(async (tx) => {
    const loans = await tx.select().from(approvedLoans).where(and(sql`${approvedLoans.id} in (${sql.join(loanIds.map((id) => sql`${id}::uuid`), sql`, `)})`, eq(approvedLoans.status, "active")));
    const protections = await activeProtections(loans.map((l) => l.id), today, tx);
    const zones = await borrowerZones(loans, tx);
    let sent = 0;
    for (const loan of loans) {
      if (protections.has(loan.id)) continue;
      if (!withinContactHours(now, zones.get(loan.id)?.timeZone ?? null)) continue;
      const rows = await ledgerRows(loan.id, tx);
      const state = replayLedger(termsOf(loan), rows.payments, rows.fees, today);
      const next = state.nextInstallment;
      if (!next || state.status !== "late" || state.daysPastDue < from || state.daysPastDue > through) continue;
      const claimed = await tx
        .insert(servicingNotices)
        .values({ loanId: loan.id, kind, installmentNumber: next.number, sentAt: now })
        .onConflictDoNothing()
        .returning({ loanId: servicingNotices.loanId });
      if (claimed.length === 0) continue;
      const owner = await loanOwner(tx, loan);
      if (!owner) continue;
      await enqueueEmail(tx, { to: owner.email, ...collectionsNoticeEmail({ ...loanMailSubject(loan, owner.loanType), daysPastDue: n, dueDate: next.dueDate, amountDueCents: next.amountDueCents }) });
      sent += 1;
    }
    return sent;
  });
}

/**
 * The servicing job's collections pass (one call, every hourly run): promises still open after their
 * day are kept or broken, then the collections notices due at this hour are sent.
 */
export async function runCollectionsPass(db: Db, now: Date = new Date()): Promise<{ kept: number; broken: number; notices: number }> {
  const promises = await breakPromises(db, todayUtc(now));
  const notices = await sendCollectionsNotices(db, now);
  return { ...promises, notices };
}
