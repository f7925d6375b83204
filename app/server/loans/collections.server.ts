import { and, asc, desc, eq, gte, lt, lte, sql } from "drizzle-orm";
import { errorToast } from "~/domain/action-result";
import { CONTACT_CHANNEL_LABELS, CONTACT_OUTCOME_LABELS, PROMISE_STATUS_LABELS } from "~/domain/collections-enums";
import { CONTACT_HOURS_MESSAGE, localTimeText, UNKNOWN_STATE_ZONES, withinContactHours } from "~/domain/contact-hours";
import { todayUtc } from "~/domain/dates";
import { delinquencyBucket, delinquencyBucketLabel } from "~/domain/delinquency";
import { formatDay } from "~/domain/formats";
import { formatMoney } from "~/domain/money";
import type { LedgerState } from "~/domain/loan-servicing";
import { UUID_PATTERN } from "~/domain/ids";
import {
  COLLECTIONS_FAILED,
  COLLECTIONS_MESSAGES,
  COLLECTIONS_TOASTS,
  collectionsSchemaFor,
  type CollectionsActionData,
  type CollectionsIntent,
  type LogContactInput,
  type PromiseToPayInput,
} from "~/domain/validation/collections";
import { issuesToFieldErrors } from "~/domain/validation/field-errors";
import type { CollectionsPanelData } from "~/domain/views/collections";
import { peopleByIds } from "~/server/accounts/index.server";
import { activeStaffIdsSql } from "~/server/staff/index.server";
import { PERMISSIONS } from "~/domain/staff-permissions";
import { writeAudit, type AuditAction, type Caller } from "~/server/platform/audit/audit.server";
import { getDb, type Db, type DbOrTx } from "~/server/platform/db/client.server";
import { approvedLoans, collectionContacts, loanFlags, loanPayments, paymentPromises } from "~/server/platform/db/schema.server";
import { readActionForm, formTexts, type ServiceAnswer } from "~/server/platform/http/action-answer.server";
import { AppError, actionRefusal, stampedRefusal } from "~/server/platform/http/app-error.server";
import { logFailure } from "~/server/platform/log/describe-error.server";
import { borrowerZones, protectionOf } from "./collections-records.server";
import { loadLedger, lockLoan, type LoanRow } from "./ledger.server";

/**
 * Collections on one loan (staff with collections.work): Assign to Me, Log Contact, Promise to Pay and
 * Cancel Promise, each one transaction under the loan's row lock that first checks the loan is active
 * and that no protection stops collections (an active servicemember or bankruptcy record), then writes
 * its row and the audit row. Contacts and promises are staff-only facts: audit rows and the loan page's
 * Collections panel, never the borrower's timeline. A promise closes itself as kept when the payments
 * posted after it add up to its amount by its day (settlePromises, called where payments post), and the
 * hourly servicing job marks the ones still open the day after their day broken, with a loan flag
 * (breakPromises).
 */

/** The largest collections form: a 2,000-character note in 4-byte UTF-8, form-encoded, and the rest. */
export const MAX_COLLECTIONS_FORM_BYTES = 32 * 1024;

const refuse = (code: number, message: string, field?: string) => new AppError("collections", code, message, field ? { field } : {});

/** The loan, locked, if it is active and no protection stops collections on it today. */
async function workableLoan(tx: DbOrTx, loanId: string, today: string): Promise<LoanRow> {
  const loan = await lockLoan(tx, loanId);
  if (!loan) throw refuse(404, COLLECTIONS_MESSAGES.loanNotFound);
  if (loan.status !== "active") throw refuse(409, COLLECTIONS_MESSAGES.notWorkable);
  const protection = await protectionOf(tx, loanId, today);
  if (protection) throw refuse(409, COLLECTIONS_MESSAGES.protected(protection.label));
  return loan;
}

/**
 * Assign to Me: the collector becomes the caller in one conditional statement (still active, and
 * nobody else's), so of two officers at once one gets it and the other is told who did. A loan whose
 * collector no longer works collections (deactivated, or moved to a role without it) is free to take.
 */
export async function assignLoanToMe(loanId: string, { actor, request }: Caller, db: Db = getDb()): Promise<{ alreadyMine: boolean }> {
  return db.transaction(async (tx) => {
    const [taken] = await tx
      .update(approvedLoans)
      .set({ collectorId: actor.id, updatedAt: sql`now()` })
      .where(
        and(
          eq(approvedLoans.id, loanId),
          eq(approvedLoans.status, "active"),
          // Free, already mine, or held by someone who no longer works collections (deactivated, another role).
          sql`(${approvedLoans.collectorId} is null or ${approvedLoans.collectorId} = ${actor.id} or ${approvedLoans.collectorId} not in (${activeStaffIdsSql(PERMISSIONS["collections.work"])}))`,
        ),
      )
      .returning({ id: approvedLoans.id });
    if (!taken) {
      const [loan] = await tx.select({ status: approvedLoans.status, collectorId: approvedLoans.collectorId }).from(approvedLoans).where(eq(approvedLoans.id, loanId)).limit(1);
      if (!loan) throw refuse(404, COLLECTIONS_MESSAGES.loanNotFound);
      if (loan.status !== "active") throw refuse(409, COLLECTIONS_MESSAGES.notWorkable);
      const name = loan.collectorId ? ((await peopleByIds([loan.collectorId], tx)).get(loan.collectorId)?.name ?? "Another staff member") : "Another staff member";
      throw refuse(409, COLLECTIONS_MESSAGES.takenByOther(name));
    }
    await writeAudit(tx, { actor, action: "loan.collector_assign", table: "approved_loans", recordId: loanId, details: { collectorId: actor.id }, request });
    return { alreadyMine: false };
  });
}

/**
 * Log Contact. A call or a text is refused outside the borrower's contact hours (8 a.m. to 9 p.m.
 * their local time, at `now`): an e-mail or a letter does not ring at night, and an attempt made
 * earlier is logged when it was made.
 */
export async function logContact(loanId: string, input: LogContactInput, { actor, request }: Caller, db: Db = getDb(), now: Date = new Date()): Promise<string> {
  const today = todayUtc(now);
  return db.transaction(async (tx) => {
    const loan = await workableLoan(tx, loanId, today);
    if (input.channel === "call" || input.channel === "text") {
      const zone = (await borrowerZones([loan], tx)).get(loan.id);
      if (!withinContactHours(now, zone?.timeZone ?? null)) throw refuse(409, CONTACT_HOURS_MESSAGE, "channel");
    }
    const [row] = await tx
      .insert(collectionContacts)
      .values({ loanId, staffId: actor.id, channel: input.channel, outcome: input.outcome, note: input.note, nextAction: input.nextAction, nextActionOn: input.nextActionOn, contactedAt: now })
      .returning({ id: collectionContacts.id });
    await writeAudit(tx, {
      actor,
      action: "collections.contact",
      table: "collection_contacts",
      recordId: row!.id,
      details: { loanId, channel: input.channel, outcome: input.outcome, nextActionOn: input.nextActionOn },
      request,
    });
    return row!.id;
  });
}

/** Promise to Pay: a row of its own (two officers at once both keep theirs; each is kept or broken on its own). */
export async function promiseToPay(loanId: string, input: PromiseToPayInput, { actor, request }: Caller, db: Db = getDb(), today: string = todayUtc()): Promise<string> {
  return db.transaction(async (tx) => {
    await workableLoan(tx, loanId, today);
    const [row] = await tx
      .insert(paymentPromises)
      .values({ loanId, staffId: actor.id, amountCents: input.amount, promisedOn: input.promisedOn, createdAt: sql`clock_timestamp()` })
      .returning({ id: paymentPromises.id });
    await writeAudit(tx, { actor, action: "collections.promise", table: "payment_promises", recordId: row!.id, details: { loanId, amountCents: input.amount, promisedOn: input.promisedOn }, request });
    return row!.id;
  });
}

/** Cancel Promise (entered in error, or replaced by a new one): only an open promise of this loan. */
export async function cancelPromise(loanId: string, promiseId: string, { actor, request }: Caller, db: Db = getDb()): Promise<void> {
  await db.transaction(async (tx) => {
    const loan = await lockLoan(tx, loanId);
    if (!loan) throw refuse(404, COLLECTIONS_MESSAGES.loanNotFound);
    const [cancelled] = await tx
      .update(paymentPromises)
      .set({ status: "cancelled", resolvedAt: sql`now()`, resolvedBy: actor.id })
      .where(and(eq(paymentPromises.id, promiseId), eq(paymentPromises.loanId, loanId), eq(paymentPromises.status, "open")))
      .returning({ id: paymentPromises.id });
    if (!cancelled) {
      const [exists] = await tx.select({ id: paymentPromises.id }).from(paymentPromises).where(and(eq(paymentPromises.id, promiseId), eq(paymentPromises.loanId, loanId))).limit(1);
      throw exists ? refuse(409, COLLECTIONS_MESSAGES.promiseNotOpen) : refuse(404, COLLECTIONS_MESSAGES.promiseId);
    }
    await writeAudit(tx, { actor, action: "collections.promise_cancel", table: "payment_promises", recordId: promiseId, details: { loanId }, request });
  });
}

/**
 * What the payments posted on the loan since each open promise was made, received by its day, add up
 * to; the promises they cover become kept. Called with the loan locked, in the posting's transaction
 * (Record Payment, a borrower debit settling), so a promise and the payment that keeps it change together.
 */
export function settlePromises(tx: DbOrTx, loanId: string, caller: Partial<Caller> = {}): Promise<number> {
  return recheckPromises(tx, loanId, { from: "open", to: "kept", when: (paid, amount) => paid >= amount, action: "collections.promise_kept" }, caller);
}

/**
 * A posted payment left the ledger (reversed, or returned by the bank after it settled): a promise it
 * had kept is open again when the payments still posted no longer reach its amount. One whose day has
 * passed is then marked broken by the job's next promise pass, as if the payment had never come. Called
 * with the loan locked, in the transaction that takes the payment out.
 */
export function reopenPromises(tx: DbOrTx, loanId: string, caller: Partial<Caller> = {}): Promise<number> {
  return recheckPromises(tx, loanId, { from: "kept", to: "open", when: (paid, amount) => paid < amount, action: "collections.promise_reopened" }, caller);
}

/**
 * The loan's promises in status `from` whose payments toward them (paidToward) meet `when` move to
 * `to`, each by a conditional update and audited as `action`; returns how many moved.
 */
async function recheckPromises(
  tx: DbOrTx,
  loanId: string,
  change: { from: "open" | "kept"; to: "open" | "kept"; when: (paidCents: number, amountCents: number) => boolean; action: AuditAction },
  caller: Partial<Caller>,
): Promise<number> {
  const candidates = await tx
    .select({ id: paymentPromises.id, amountCents: paymentPromises.amountCents, promisedOn: paymentPromises.promisedOn, createdAt: paymentPromises.createdAt })
    .from(paymentPromises)
    .where(and(eq(paymentPromises.loanId, loanId), eq(paymentPromises.status, change.from)));
  let moved = 0;
  for (const promise of candidates) {
    const paid = await paidToward(tx, loanId, promise);
    if (!change.when(paid, promise.amountCents)) continue;
    const [done] = await tx
      .update(paymentPromises)
      .set({ status: change.to, resolvedAt: change.to === "open" ? null : sql`now()` })
      .where(and(eq(paymentPromises.id, promise.id), eq(paymentPromises.status, change.from)))
      .returning({ id: paymentPromises.id });
    if (!done) continue;
    moved += 1;
    await writeAudit(tx, { actor: caller.actor ?? null, action: change.action, table: "payment_promises", recordId: promise.id, details: { loanId, amountCents: promise.amountCents, paidCents: paid }, request: caller.request });
  }
  return moved;
}

/**
 * A loan that owes nothing more has no promise left to keep or break: each open promise closes at
 * once, as kept when the loan was paid in full, as cancelled when a settlement closed the debt, audited.
 * Called with the loan locked where the loan closes (the payoff's posting, the settlement); the job's
 * promise pass closes the same way any it finds on such a loan, so none is ever flagged broken.
 */
export async function closeOpenPromises(tx: DbOrTx, loanId: string, outcome: "kept" | "cancelled", caller: Partial<Caller> = {}): Promise<number> {
  const closed = await tx
    .update(paymentPromises)
    .set({ status: outcome, resolvedAt: sql`now()`, resolvedBy: outcome === "cancelled" ? (caller.actor?.id ?? null) : null })
    .where(and(eq(paymentPromises.loanId, loanId), eq(paymentPromises.status, "open")))
    .returning({ id: paymentPromises.id, amountCents: paymentPromises.amountCents });
  for (const promise of closed)
    await writeAudit(tx, {
      actor: caller.actor ?? null,
      action: outcome === "kept" ? "collections.promise_kept" : "collections.promise_cancel",
      table: "payment_promises",
      recordId: promise.id,
      details: { loanId, amountCents: promise.amountCents, reason: outcome === "kept" ? "paid_in_full" : "settled" },
      request: caller.request,
    });
  return closed.length;
}

/** The posted payments that count toward a promise: posted after it was made, received by its day. */
async function paidToward(tx: DbOrTx, loanId: string, promise: { promisedOn: string; createdAt: Date }): Promise<number> {
  const [sum] = await tx
    .select({ cents: sql<string>`coalesce(sum(${loanPayments.amountCents}), 0)::text` })
    .from(loanPayments)
    .where(and(eq(loanPayments.loanId, loanId), eq(loanPayments.status, "posted"), gte(loanPayments.postedAt, promise.createdAt), lte(loanPayments.receivedOn, promise.promisedOn)));
  return Number(sum?.cents ?? 0);
}

export const PROMISE_BATCH_SIZE = 100;

/**
 * The servicing job's promise pass: each promise still open after its day (payment_promises_open_idx,
 * promised_on before today) is looked at once more with its loan locked: kept if the payments add up
 * (a posting path that did not settle it), else broken, with a broken_promise flag on the loan for staff
 * and an audit row (no actor: the system). Batches of PROMISE_BATCH_SIZE, each its own transaction.
 */
export async function breakPromises(db: Db, today: string): Promise<{ kept: number; broken: number }> {
  const result = { kept: 0, broken: 0 };
  let after: { promisedOn: string; id: string } | null = null;
  for (;;) {
    const batch: { id: string; loanId: string; promisedOn: string }[] = await db
      .select({ id: paymentPromises.id, loanId: paymentPromises.loanId, promisedOn: paymentPromises.promisedOn })
      .from(paymentPromises)
      .where(
        and(
          eq(paymentPromises.status, "open"),
          lt(paymentPromises.promisedOn, today),
          after ? sql`(${paymentPromises.promisedOn}, ${paymentPromises.id}) > (${after.promisedOn}::date, ${after.id}::uuid)` : undefined,
        ),
      )
      .orderBy(asc(paymentPromises.promisedOn), asc(paymentPromises.id))
      .limit(PROMISE_BATCH_SIZE);
    if (batch.length === 0) break;
    await db.transaction(async (tx) => {
      for (const p of batch) {
        const loan = await lockLoan(tx, p.loanId);
        if (!loan) continue;
        const [promise] = await tx.select().from(paymentPromises).where(and(eq(paymentPromises.id, p.id), eq(paymentPromises.status, "open"))).limit(1);
        if (!promise) continue;
        if (loan.status === "paid_off" || loan.status === "settled") {
          const closed = await closeOpenPromises(tx, loan.id, loan.status === "paid_off" ? "kept" : "cancelled");
          if (loan.status === "paid_off") result.kept += closed;
          continue;
        }
        const paid = await paidToward(tx, loan.id, promise);
        const kept = paid >= promise.amountCents;
        await tx.update(paymentPromises).set({ status: kept ? "kept" : "broken", resolvedAt: sql`now()` }).where(eq(paymentPromises.id, promise.id));
        if (kept) {
          result.kept += 1;
          await writeAudit(tx, { actor: null, action: "collections.promise_kept", table: "payment_promises", recordId: promise.id, details: { loanId: loan.id, amountCents: promise.amountCents, paidCents: paid } });
          continue;
        }
        result.broken += 1;
        const summary = `Promise to pay ${formatMoney(promise.amountCents)} by ${formatDay(promise.promisedOn)} was broken (${formatMoney(paid)} received).`;
        const [flag] = await tx.insert(loanFlags).values({ loanId: loan.id, kind: "broken_promise", summary }).returning({ id: loanFlags.id });
        await writeAudit(tx, {
          actor: null,
          action: "collections.promise_broken",
          table: "payment_promises",
          recordId: promise.id,
          details: { loanId: loan.id, amountCents: promise.amountCents, promisedOn: promise.promisedOn, paidCents: paid, flagId: flag!.id },
        });
      }
    });
    const last = batch.at(-1)!;
    after = { promisedOn: last.promisedOn, id: last.id };
    if (batch.length < PROMISE_BATCH_SIZE) break;
  }
  return result;
}

/**
 * The loan page's Collections panel: null unless the loan is active and past due, or has collections
 * history (a contact or a promise), so a loan that never fell behind shows no panel.
 */
export async function collectionsPanel(loan: LoanRow, state: LedgerState, viewerId: string, db: DbOrTx = getDb(), now: Date = new Date()): Promise<CollectionsPanelData | null> {
  const today = todayUtc(now);
  const [contacts, promises] = await Promise.all([
    db.select().from(collectionContacts).where(eq(collectionContacts.loanId, loan.id)).orderBy(desc(collectionContacts.contactedAt), desc(collectionContacts.id)).limit(100),
    db.select().from(paymentPromises).where(eq(paymentPromises.loanId, loan.id)).orderBy(desc(paymentPromises.createdAt), desc(paymentPromises.id)).limit(100),
  ]);
  const pastDue = loan.status === "active" && state.daysPastDue > 0;
  if (!pastDue && contacts.length === 0 && promises.length === 0) return null;
  const [protection, zones, people] = await Promise.all([
    protectionOf(db, loan.id, today),
    borrowerZones([loan], db),
    peopleByIds([loan.collectorId, ...contacts.map((c) => c.staffId), ...promises.map((p) => p.staffId)], db),
  ]);
  const nameOf = (id: string | null) => (id ? (people.get(id)?.name ?? "Former staff member") : "Former staff member");
  const zone = zones.get(loan.id) ?? { state: null, timeZone: null };
  const shownZone = zone.timeZone ?? UNKNOWN_STATE_ZONES[0];
  return {
    loanId: loan.id,
    workable: loan.status === "active" && protection === null,
    stoppedBecause: loan.status === "active" ? protection : null,
    daysPastDue: state.daysPastDue,
    bucketLabel: delinquencyBucketLabel(delinquencyBucket(state.daysPastDue)),
    collector: loan.collectorId ? { id: loan.collectorId, name: nameOf(loan.collectorId) } : null,
    viewerId,
    borrowerClock: { text: localTimeText(now, shownZone), timeZone: zone.timeZone ?? "unknown", state: zone.state, withinHours: withinContactHours(now, zone.timeZone) },
    contacts: contacts.map((c) => ({
      id: c.id,
      at: c.contactedAt.toISOString(),
      channel: c.channel,
      channelLabel: CONTACT_CHANNEL_LABELS[c.channel],
      outcome: c.outcome,
      outcomeLabel: CONTACT_OUTCOME_LABELS[c.outcome],
      note: c.note,
      nextAction: c.nextAction,
      nextActionOn: c.nextActionOn,
      staffName: nameOf(c.staffId),
    })),
    promises: promises.map((p) => ({
      id: p.id,
      amountCents: p.amountCents,
      promisedOn: p.promisedOn,
      status: p.status,
      statusLabel: PROMISE_STATUS_LABELS[p.status],
      createdAt: p.createdAt.toISOString(),
      staffName: nameOf(p.staffId),
    })),
    today,
  };
}

export type CollectionsAnswer = ServiceAnswer<CollectionsActionData>;

const refusal = stampedRefusal<CollectionsIntent>("The request was refused");

function failed(status: number, intent: CollectionsIntent | null, message: string, fieldErrors?: Record<string, string[]>): CollectionsAnswer {
  const answer = refusal(status, intent, message, fieldErrors);
  return intent ? { ...answer, body: { ...answer.body, toast: errorToast(COLLECTIONS_FAILED[intent], message) } } : answer;
}

/**
 * POST /admin/loans/:id/collections (and Assign to Me on /admin/collections, with the loan id in the
 * form; `intents` limits what a route takes) after the route's guards (same origin, collections.work): the size-limited form (413), its
 * intent's schema (400 naming the field), then the service; its refusals (404, 409) become error toasts.
 */
export async function collectionsAction(
  request: Request,
  urlId: string | undefined,
  caller: Caller,
  { db = getDb(), now = new Date(), intents }: { db?: Db; now?: Date; intents?: readonly CollectionsIntent[] } = {},
): Promise<CollectionsAnswer> {
  const read = await readActionForm(request, (message): CollectionsActionData => refusal(400, null, message).body, { limitBytes: MAX_COLLECTIONS_FORM_BYTES, unreadableAsEmpty: true });
  if (!read.ok) return read.answer;
  const values = formTexts(read.form);
  const today = todayUtc(now);
  const schema = collectionsSchemaFor(values.intent, today);
  if (!schema || (intents && !intents.includes(values.intent as CollectionsIntent))) return failed(400, null, COLLECTIONS_MESSAGES.intent);
  const intent = values.intent as CollectionsIntent;
  const loanId = urlId ?? values.loanId;
  if (!loanId || !UUID_PATTERN.test(loanId)) return failed(404, intent, COLLECTIONS_MESSAGES.loanNotFound);
  const id = loanId.toLowerCase();
  const parsed = schema.safeParse(values);
  if (!parsed.success) return failed(400, intent, parsed.error.issues[0]?.message ?? COLLECTIONS_MESSAGES.intent, issuesToFieldErrors(parsed.error));
  const ok = (toast: CollectionsActionData["toast"]): CollectionsAnswer => ({ status: 200, body: { ok: true, intent, toast, at: Date.now() } });
  try {
    const input = parsed.data;
    switch (input.intent) {
      case "assign-to-me":
        await assignLoanToMe(id, caller, db);
        return ok(COLLECTIONS_TOASTS.assigned);
      case "log-contact":
        await logContact(id, input, caller, db, now);
        return ok(COLLECTIONS_TOASTS.contactLogged);
      case "promise-to-pay":
        await promiseToPay(id, input, caller, db, today);
        return ok(COLLECTIONS_TOASTS.promiseRecorded);
      case "cancel-promise":
        await cancelPromise(id, input.promiseId, caller, db);
        return ok(COLLECTIONS_TOASTS.promiseCancelled);
    }
  } catch (error) {
    if (error instanceof AppError) return actionRefusal(error, { title: COLLECTIONS_FAILED[intent], stamped: true }, { intent });
    logFailure("admin", "a collections action failed", error, { admin: caller.actor.id, loanId: id, intent });
    return failed(500, intent, "Something went wrong on our side. Please try again.");
  }
}

/** The staff loan page's Collections panel for this loan (its own ledger read), or null (see collectionsPanel). */
export async function loanCollectionsPanel(loanId: string, viewerId: string, db: Db = getDb(), now: Date = new Date()): Promise<CollectionsPanelData | null> {
  const ledger = await loadLedger(loanId, db, todayUtc(now));
  return ledger ? collectionsPanel(ledger.loan, ledger.state, viewerId, db, now) : null;
}
