import { and, asc, eq, inArray, isNull, lt, sql, type SQL } from "drizzle-orm";
import { CONTACT_CHANNEL_LABELS, CONTACT_OUTCOME_LABELS } from "~/domain/collections-enums";
import { todayUtc } from "~/domain/dates";
import { delinquencyBucket, delinquencyBucketLabel } from "~/domain/delinquency";
import { replayLedger, type AssessedFee, type PostedPayment } from "~/domain/loan-servicing";
import { COLLECTIONS_FILTERS, type CollectionsFilter } from "~/domain/validation/collections";
import type { CollectionsQueue, CollectionsQueueRow, NextAction } from "~/domain/views/collections";
import { peopleByIds } from "~/server/accounts/index.server";
import { applicationsByIds } from "~/server/applications/index.server";
import { writeAudit, type Caller } from "~/server/platform/audit/audit.server";
import { getConfig } from "~/server/platform/config.server";
import { getDb, type Db, type DbOrTx } from "~/server/platform/db/client.server";
import { approvedLoans, collectionContacts, loanFees, loanFlags, loanPayments, paymentPromises } from "~/server/platform/db/schema.server";
import { activeProtections } from "./collections-records.server";
import { termsOf } from "./ledger.server";
import { loanReference } from "./loan-reference.server";

/**
 * The collections queue (/admin/collections): active loans 1 or more days past due, the oldest due
 * date first, 25 a page by keyset (the due date and id of the page's last loan) on
 * approved_loans_collections_idx (all, unassigned) or approved_loans_collector_idx (assigned to me), so
 * a page reads a page of index entries however many loans there are; there is no count. Only the page's
 * loans are then read further, each fact in one batched query: borrowers, ledgers (payments and fees),
 * the latest contact and open promise per loan, protections and broken-promise flags.
 */

export const COLLECTIONS_PAGE_SIZE = 25;

export type CollectionsQuery = { filter: CollectionsFilter; after: { nextDueDate: string; id: string } | null };

const AFTER_PATTERN = /^(\d{4}-\d{2}-\d{2})_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** ?show=all|mine|unassigned&after=<due date>_<loan id>, leniently (anything else: All, the first page). */
export function parseCollectionsUrl(url: URL): CollectionsQuery {
  const show = url.searchParams.get("show") ?? "all";
  const filter = (COLLECTIONS_FILTERS as readonly string[]).includes(show) ? (show as CollectionsFilter) : "all";
  const match = AFTER_PATTERN.exec((url.searchParams.get("after") ?? "").toLowerCase());
  return { filter, after: match ? { nextDueDate: match[1]!, id: match[2]! } : null };
}

/** The page's loans' ids in queue order, from the filter's index range. */
async function pageLoans(db: DbOrTx, query: CollectionsQuery, viewerId: string, today: string, limit: number) {
  // The literal predicates are the partial indexes' own, so the planner can prove they apply.
  const where: (SQL | undefined)[] = [sql`${approvedLoans.status} = 'active'`, lt(approvedLoans.nextDueDate, today)];
  if (query.filter === "mine") where.push(sql`${approvedLoans.collectorId} is not null`, eq(approvedLoans.collectorId, viewerId));
  if (query.filter === "unassigned") where.push(isNull(approvedLoans.collectorId));
  if (query.after) where.push(sql`(${approvedLoans.nextDueDate}, ${approvedLoans.id}) > (${query.after.nextDueDate}::date, ${query.after.id}::uuid)`);
  return db
    .select({ id: approvedLoans.id })
    .from(approvedLoans)
    .where(and(...where))
    .orderBy(asc(approvedLoans.nextDueDate), asc(approvedLoans.id))
    .limit(limit);
}

/** One page of the queue. Audited ('collections.queue_view'). */
export async function collectionsQueuePage(query: CollectionsQuery, { actor, request }: Caller, db: Db = getDb(), today: string = todayUtc()): Promise<CollectionsQueue> {
  const ids = (await pageLoans(db, query, actor.id, today, COLLECTIONS_PAGE_SIZE + 1)).map((r) => r.id);
  const more = ids.length > COLLECTIONS_PAGE_SIZE;
  const pageIds = ids.slice(0, COLLECTIONS_PAGE_SIZE);
  const rows = pageIds.length === 0 ? [] : await db.select().from(approvedLoans).where(inArray(approvedLoans.id, pageIds)).orderBy(asc(approvedLoans.nextDueDate), asc(approvedLoans.id));
  const chargeOffDays = getConfig().chargeOffDays;
  if (rows.length === 0) {
    await writeAudit(db, { actor, action: "collections.queue_view", table: "approved_loans", details: { filter: query.filter, count: 0 }, request });
    return { today, filter: query.filter, rows: [], next: null, paged: query.after !== null, chargeOffDays, viewerId: actor.id };
  }
  const [payments, fees, contacts, promises, flags, protections, apps, people] = await Promise.all([
    db
      .select({ loanId: loanPayments.loanId, id: loanPayments.id, receivedOn: loanPayments.receivedOn, amountCents: loanPayments.amountCents, recovery: loanPayments.recovery })
      .from(loanPayments)
      .where(and(inArray(loanPayments.loanId, pageIds), eq(loanPayments.status, "posted")))
      .orderBy(asc(loanPayments.receivedOn), asc(loanPayments.createdAt), asc(loanPayments.id)),
    db
      .select({ loanId: loanFees.loanId, id: loanFees.id, assessedOn: loanFees.assessedOn, amountCents: loanFees.amountCents, installmentNumber: loanFees.installmentNumber })
      .from(loanFees)
      .where(and(inArray(loanFees.loanId, pageIds), isNull(loanFees.waivedAt)))
      .orderBy(asc(loanFees.assessedOn), asc(loanFees.id)),
    // The latest contact of each loan: one probe of collection_contacts_loan_id_idx per loan.
    db.execute(sql`
      select c.* from unnest(array[${sql.join(pageIds.map((id) => sql`${id}`), sql`, `)}]::uuid[]) as wanted(id)
      cross join lateral (
        select ${collectionContacts.loanId} as "loanId", ${collectionContacts.channel} as "channel", ${collectionContacts.outcome} as "outcome",
          ${collectionContacts.contactedAt} as "contactedAt", ${collectionContacts.nextAction} as "nextAction", ${collectionContacts.nextActionOn}::text as "nextActionOn"
        from ${collectionContacts} where ${collectionContacts.loanId} = wanted.id
        order by ${collectionContacts.contactedAt} desc, ${collectionContacts.id} desc limit 1
      ) c`) as unknown as Promise<{ rows: { loanId: string; channel: keyof typeof CONTACT_CHANNEL_LABELS; outcome: keyof typeof CONTACT_OUTCOME_LABELS; contactedAt: string | Date; nextAction: string | null; nextActionOn: string | null }[] }>,
    db
      .select({ loanId: paymentPromises.loanId, amountCents: paymentPromises.amountCents, promisedOn: paymentPromises.promisedOn })
      .from(paymentPromises)
      .where(and(inArray(paymentPromises.loanId, pageIds), eq(paymentPromises.status, "open")))
      .orderBy(asc(paymentPromises.promisedOn)),
    db
      .select({ loanId: loanFlags.loanId })
      .from(loanFlags)
      .where(and(inArray(loanFlags.loanId, pageIds), eq(loanFlags.kind, "broken_promise"), isNull(loanFlags.resolvedAt))),
    activeProtections(pageIds, today, db),
    applicationsByIds(rows.map((r) => r.applicationId), db),
    peopleByIds(rows.flatMap((r) => [r.userId, r.collectorId]), db),
  ]);
  const group = <T extends { loanId: string }>(list: T[]) => {
    const out = new Map<string, T[]>();
    for (const item of list) out.set(item.loanId, [...(out.get(item.loanId) ?? []), item]);
    return out;
  };
  const paymentsOf = group(payments);
  const feesOf = group(fees);
  const lastContact = new Map(contacts.rows.map((c) => [c.loanId, c]));
  const openPromise = new Map<string, { amountCents: number; promisedOn: string }>();
  for (const p of promises) if (!openPromise.has(p.loanId)) openPromise.set(p.loanId, p);
  const broken = new Set(flags.map((f) => f.loanId));
  const queueRows = rows.map((loan): CollectionsQueueRow => {
    const state = replayLedger(
      termsOf(loan),
      (paymentsOf.get(loan.id) ?? []).map((p): PostedPayment => ({ id: p.id, receivedOn: p.receivedOn!, amountCents: p.amountCents, recovery: p.recovery })),
      (feesOf.get(loan.id) ?? []).map((f): AssessedFee => ({ id: f.id, assessedOn: f.assessedOn, amountCents: f.amountCents, installmentNumber: f.installmentNumber })),
      today,
    );
    const person = people.get(loan.userId);
    const app = apps.get(loan.applicationId);
    const contact = lastContact.get(loan.id);
    const promise = openPromise.get(loan.id);
    // An open promise is the next thing to watch; else what the latest contact planned.
    const nextAction: NextAction | null = promise
      ? { kind: "promise", amountCents: promise.amountCents, on: promise.promisedOn }
      : contact?.nextAction
        ? { kind: "action", text: contact.nextAction, on: contact.nextActionOn }
        : null;
    const collector = loan.collectorId ? { id: loan.collectorId, name: people.get(loan.collectorId)?.name ?? "Former staff member" } : null;
    const bucket = delinquencyBucket(state.daysPastDue);
    return {
      loanId: loan.id,
      reference: loanReference(loan),
      borrowerName: person?.profileName?.trim() || (app ? `${app.firstName} ${app.lastName}` : (person?.name ?? "—")),
      nextDueDate: loan.nextDueDate!,
      daysPastDue: state.daysPastDue,
      bucket,
      bucketLabel: delinquencyBucketLabel(bucket),
      amountDueCents: state.nextInstallment?.amountDueCents ?? 0,
      lastContact: contact
        ? { at: new Date(contact.contactedAt).toISOString(), channel: contact.channel, channelLabel: CONTACT_CHANNEL_LABELS[contact.channel], outcomeLabel: CONTACT_OUTCOME_LABELS[contact.outcome] }
        : null,
      nextAction,
      collector,
      contactStopped: protections.has(loan.id),
      brokenPromise: broken.has(loan.id),
      proposedForChargeOff: state.daysPastDue >= chargeOffDays,
    };
  });
  const last = rows.at(-1)!;
  await writeAudit(db, { actor, action: "collections.queue_view", table: "approved_loans", details: { filter: query.filter, count: queueRows.length }, request });
  return {
    today,
    filter: query.filter,
    rows: queueRows,
    next: more ? `${last.nextDueDate}_${last.id}` : null,
    paged: query.after !== null,
    chargeOffDays,
    viewerId: actor.id,
  };
}
