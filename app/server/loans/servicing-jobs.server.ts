import { and, inArray, isNull, sql } from "drizzle-orm";
import { daysBetween, installmentsDueALateFee, lateFeeCents, replayLedger } from "~/domain/loan-servicing";
import { installmentsCoveredByPlans } from "~/domain/loan-modifications";
import { stayCovers } from "~/domain/bankruptcy-stays";
import { parseServicingTerms } from "~/domain/servicing-terms";
import { loanMailSubject } from "./loan-reference.server";
import { writeAudit } from "~/server/platform/audit/audit.server";
import { getConfig } from "~/server/platform/config.server";
import { addDays, todayUtc } from "~/domain/dates";
import type { Db, DbOrTx } from "~/server/platform/db/client.server";
import { approvedLoans, loanFees, servicingNotices } from "~/server/platform/db/schema.server";
import { peopleByIds, remindersTurnedOff } from "~/server/accounts/index.server";
import { applicationsByIds } from "~/server/applications/index.server";
import { runDelinquencyJob } from "./delinquency-job.server";
import { startRepeatingJob, type RepeatingJob } from "~/server/platform/jobs/repeating-job.server";
import { enqueueEmail } from "~/server/platform/mail/outbox.server";
import { lateNoticeEmail, paymentReminderEmail } from "~/server/loans/servicing-notice-emails.server";
import { ledgerRows, lockLoan, refreshLoan, termsOf } from "./ledger.server";
import { validateMaturedPrenotes } from "./account-validations.server";
import { queueAutopayDebits } from "./autopay-job.server";
import { runCollectionsPass } from "./collections-notices.server";
import { autopayReminder, autopayRemindersOf } from "./autopay-reminders.server";
import { bankruptcyStaysOf } from "./loan-protections.server";

/**
 * The servicing job: late fees, late notices and payment reminders for every active loan
 * that may owe one today. A run is a series of transactions of SERVICING_BATCH_SIZE loans, each under a
 * transaction-scoped advisory lock, so while one instance runs the others skip; and "once per installment" does not rest on the lock: the fee's unique key
 * (loan, kind, installment) and the notice's primary key decide (INSERT … ON CONFLICT DO NOTHING
 * RETURNING: only the run whose insert returned a row assesses, audits or e-mails).
 * - Late fee: an unpaid installment past its due date plus the grace days (installmentsDueALateFee),
 *   assessed on the first day after the grace period, then the loan's summary re-derived (refreshLoan,
 *   under the loan's row lock). Audited 'fee.assess' with no actor (the system).
 * - Late notice: the same installments, one e-mail each.
 * - Payment reminder: the next unpaid installment, PAYMENT_REMINDER_DAYS or fewer days before it is due,
 *   unless the borrower turned payment reminders off (Notification Preferences).
 * The e-mails go through the outbox in the same transaction; amounts and dates only, no account numbers.
 */

const SERVICING_JOB_LOCK_KEY = 724_199_303;

export type ServicingRunResult = { ran: boolean; loans: number; feesAssessed: number; lateNotices: number; reminders: number; prenotesValidated: number; autopayQueued: number };


/** Claims a notice (loan, kind, installment); true only for the one run whose insert wrote the row. */
async function claimNotice(tx: DbOrTx, loanId: string, kind: "reminder" | "late_notice", installmentNumber: number): Promise<boolean> {
  const rows = await tx.insert(servicingNotices).values({ loanId, kind, installmentNumber }).onConflictDoNothing().returning({ loanId: servicingNotices.loanId });
  return rows.length > 0;
}

/** Loans looked at per transaction: each batch's row locks are held only while it runs. */
export const SERVICING_BATCH_SIZE = 100;

/**
 * Where a run stands in approved_loans_servicing_idx (decision 0056): the range it is reading and the
 * key of the last loan it read there. The candidates are three ranges of that index, read in turn: never
 * looked at (or changed since: serviced_on null), looked at before today, and the odd "after today" a
 * clock set back leaves; the loans looked at today are a fourth range that no batch reads.
 */
type Cursor = { range: 0 | 1 | 2 | 3; after: { servicedOn: string | null; dueKey: string; id: string } | null };
const RANGES_DONE = 3;

/** The due date as the index keeps it: a loan with none sorts first (and is always a candidate). */
const dueKey = sql`coalesce(${approvedLoans.nextDueDate}, '-infinity'::date)`;

type Candidate = { id: string; email: string; loanType: string; wantsReminders: boolean; servicedOn: string | null; dueKey: string };

/**
 * The loans with their borrowers' e-mail, loan type and reminder choice (reminders are optional e-mail,
 * on unless the borrower turned them off): three batched reads for the batch, never one per loan.
 */
async function withBorrowers(
  tx: DbOrTx,
  loans: { id: string; userId: string; applicationId: string; servicedOn: string | null; dueKey: string }[],
): Promise<Candidate[]> {
  const userIds = loans.map((l) => l.userId);
  const [people, apps, remindersOff] = await Promise.all([
    peopleByIds(userIds, tx),
    applicationsByIds(loans.map((l) => l.applicationId), tx),
    remindersTurnedOff(userIds, tx),
  ]);
  return loans.flatMap(({ userId, applicationId, ...loan }) => {
    const email = people.get(userId)?.email;
    const loanType = apps.get(applicationId)?.loanType;
    return email === undefined || loanType === undefined ? [] : [{ ...loan, email, loanType, wantsReminders: !remindersOff.has(userId) }];
  });
}

/**
 * Up to `limit` candidates from where `cursor` stands, in index order; moves the cursor. Each read
 * starts at the key after the last loan read (a row comparison the index seeks to) rather than
 * re-reading from the start of the range and skipping the loans done: those were moved to today's
 * range by the previous batch, but their old index entries stay until vacuum.
 */
async function readCandidates(tx: DbOrTx, cursor: Cursor, today: string, reminderHorizon: string, limit: number): Promise<Candidate[]> {
  const out: Candidate[] = [];
  while (out.length < limit && cursor.range < RANGES_DONE) {
    const after = cursor.after;
    // The literal status list is the index's predicate, so the planner can prove the partial index applies.
    const conditions = [sql`${approvedLoans.status} in ('active', 'approved')`, sql`${dueKey} <= ${reminderHorizon}::date`];
    if (cursor.range === 0) {
      conditions.push(isNull(approvedLoans.servicedOn));
      if (after) conditions.push(sql`(${dueKey}, ${approvedLoans.id}) > (${after.dueKey}::date, ${after.id}::uuid)`);
    } else {
      conditions.push(cursor.range === 1 ? sql`${approvedLoans.servicedOn} < ${today}::date` : sql`${approvedLoans.servicedOn} > ${today}::date`);
      if (after) conditions.push(sql`(${approvedLoans.servicedOn}, ${dueKey}, ${approvedLoans.id}) > (${after.servicedOn}::date, ${after.dueKey}::date, ${after.id}::uuid)`);
    }
    const want = limit - out.length;
    const rows = await tx
      .select({
        id: approvedLoans.id,
        userId: approvedLoans.userId,
        applicationId: approvedLoans.applicationId,
        servicedOn: approvedLoans.servicedOn,
        dueKey: sql<string>`${dueKey}::text`,
      })
      .from(approvedLoans)
      .where(and(...conditions))
      // The index's own order (serviced_on included: IS NULL does not let the planner drop it).
      .orderBy(approvedLoans.servicedOn, dueKey, approvedLoans.id)
      .limit(want);
    out.push(...(await withBorrowers(tx, rows)));
    const last = rows.at(-1);
    if (rows.length < want) {
      cursor.range = (cursor.range + 1) as Cursor["range"];
      cursor.after = null;
    } else if (last) cursor.after = { servicedOn: last.servicedOn, dueKey: last.dueKey, id: last.id };
  }
  return out;
}

export async function runServicingJobs(db: Db, now: Date = new Date(), options: { signal?: AbortSignal; batchSize?: number } = {}): Promise<ServicingRunResult> {
  const today = todayUtc(now);
  const { lateFeePolicy: settings, paymentReminderDays } = getConfig();
  const batchSize = options.batchSize ?? SERVICING_BATCH_SIZE;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new Error(`servicing batch size must be a positive integer, got ${batchSize}`);
  const result: ServicingRunResult = { ran: false, loans: 0, feesAssessed: 0, lateNotices: 0, reminders: 0, prenotesValidated: 0, autopayQueued: 0 };
  // Bank accounts whose prenote's wait ended with no return count as validated (its own conditional
  // UPDATE, so every instance may run it; the loser of a race validates none).
  result.prenotesValidated = await validateMaturedPrenotes(db, today, now);
  // Autopay debits due to be queued today (only the authorisations due are read; each loan locked).
  result.autopayQueued = await queueAutopayDebits(db, today, now, { signal: options.signal });
  // The delinquency book: the month-end snapshot and rolls, and yesterday's totals (once a day each).
  await runDelinquencyJob(db, today);
  // Promises to pay kept or broken, and the collections notices due at this hour (decision 0098).
  await runCollectionsPass(db, now);
  // Only a loan with something possibly due today is read (decision 0048): its first unpaid
  // installment falls due within the reminder window or is already past due (late fees and notices
  // follow from that), and it was not looked at today with the same ledger. So a run reads the loans
  // due soon or behind, never every loan the lender holds, and a day's work is done in batches (a
  // stopping server waits for one batch, not the whole run). Each batch goes on from the last loan the
  // previous one read (decision 0056), so a batch costs one batch however many were done before it.
  // A loan whose ledger changes behind the cursor during the run (serviced_on back to null, perhaps an
  // earlier due date) is not lost: it is a candidate again for the next hourly run.
  const reminderHorizon = addDays(today, paymentReminderDays);
  const cursor: Cursor = { range: 0, after: null };
  let more = true;
  while (more && !options.signal?.aborted) {
    more = await db.transaction(async (tx) => {
      const locked = await tx.execute(sql`select pg_try_advisory_xact_lock(${SERVICING_JOB_LOCK_KEY}) as ok`);
      if (!(locked as unknown as { rows: { ok: boolean }[] }).rows[0]?.ok) return false;
      result.ran = true;

      // Read after the lock: a batch of another run that held it has committed, so the loans it
      // serviced are in today's range and not read again. One run at a time (the lock), and a posting
      // locks one loan, so the order of the locks below cannot deadlock.
      const loans = await readCandidates(tx, cursor, today, reminderHorizon, batchSize);
      // The reminder of a loan with autopay on tells the debit instead of asking for a payment (one read a batch).
      const autopays = await autopayRemindersOf(tx, loans.map((l) => l.id));
      // A bankruptcy's automatic stay: no reminder or late notice while it lasts (one read a batch).
      const { activeToday: stayed, periods: stays } = await bankruptcyStaysOf(loans.map((l) => l.id), tx, today);

      for (const { id, email, loanType, wantsReminders } of loans) {
        const loan = await lockLoan(tx, id);
        if (!loan || (loan.status !== "active" && loan.status !== "approved")) continue;
        result.loans += 1;
        const terms = termsOf(loan);
        const rows = await ledgerRows(id, tx);
        let state = replayLedger(terms, rows.payments, rows.fees, today);
        if (state.status === "paid_in_full") continue;

        // The late fee is the one the borrower signed (or none), never today's setting. A loan without
        // a late fee still gets its late notice after the setting's grace days (a notice is not a term).
        const policy = parseServicingTerms(loan.servicingTerms).lateFee;
        const graceDays = policy?.graceDays ?? settings.graceDays;
        const charged = new Set(rows.fees.map((f) => f.installmentNumber).filter((n): n is number => n !== null));
        // No late fee on an installment a signed hardship plan covers (deferred, reduced or moved), nor
        // one whose fee day a bankruptcy stay covers (the stay forbids adding to the debt).
        const covered = installmentsCoveredByPlans(terms.changes ?? []);
        const loanStays = stays.get(id) ?? [];
        const late = policy
          ? installmentsDueALateFee(state, policy, today, charged)
              .filter((installment) => !covered.has(installment.number))
              .map((installment) => ({
                installment,
                amountCents: lateFeeCents(installment.paymentCents, policy),
                assessedOn: addDays(installment.dueDate, policy.graceDays + 1),
              }))
              .filter(({ assessedOn }) => !stayCovers(assessedOn, loanStays))
          : [];
        const feeByInstallment = new Map<number, number>();
        for (const { installment, amountCents, assessedOn } of late) {
          if (amountCents <= 0) continue;
          const [fee] = await tx
            .insert(loanFees)
            .values({ loanId: id, kind: "late_fee", installmentNumber: installment.number, amountCents, assessedOn })
            .onConflictDoNothing()
            .returning({ id: loanFees.id });
          if (!fee) continue;
          feeByInstallment.set(installment.number, amountCents);
          result.feesAssessed += 1;
          await writeAudit(tx, {
            actor: null,
            action: "fee.assess",
            table: "loan_fees",
            recordId: fee.id,
            details: { loanId: id, kind: "late_fee", installmentNumber: installment.number, amountCents, assessedOn, dueDate: installment.dueDate, graceDays },
          });
        }
        if (feeByInstallment.size > 0) state = await refreshLoan(tx, loan, today);

        if (stayed.has(id)) continue;
        const pastGrace = state.installments.filter((row) => !row.paid && daysBetween(row.dueDate, today) > graceDays);
        for (const installment of pastGrace) {
          if (!(await claimNotice(tx, id, "late_notice", installment.number))) continue;
          result.lateNotices += 1;
          await enqueueEmail(tx, {
            to: email,
            ...lateNoticeEmail({
              ...loanMailSubject(loan, loanType),
              installmentNumber: installment.number,
              dueDate: installment.dueDate,
              amountCents: installment.paymentCents,
              lateFeeCents: feeByInstallment.get(installment.number) ?? null,
            }),
          });
        }

        // Late notices above always go (they are transactional); the reminder is the borrower's choice.
        // Not claimed when turned off, so turning reminders back on before the due date still sends it.
        const next = state.nextInstallment;
        if (next && wantsReminders) {
          const daysUntil = daysBetween(today, next.dueDate);
          if (daysUntil >= 0 && daysUntil <= paymentReminderDays && (await claimNotice(tx, id, "reminder", next.number))) {
            result.reminders += 1;
            await enqueueEmail(tx, {
              to: email,
              ...paymentReminderEmail({
                ...loanMailSubject(loan, loanType),
                installmentNumber: next.number,
                dueDate: next.dueDate,
                amountCents: next.amountDueCents,
                feesCents: next.feesCents,
                autopay: await autopayReminder(tx, loan, autopays, next.number, today),
              }),
            });
          }
        }
      }
      if (loans.length > 0) {
        await tx
          .update(approvedLoans)
          .set({ servicedOn: today })
          .where(inArray(approvedLoans.id, loans.map((l) => l.id)));
      }
      return cursor.range < RANGES_DONE;
    });
  }
  return result;
}

export const SERVICING_JOB_INTERVAL_MS = 60 * 60 * 1000;
export const SERVICING_JOB_FIRST_RUN_DELAY_MS = 2 * 60 * 1000;

/** Hourly inside the server process, the first run two minutes after start-up (every instance; the lock and keys decide). */
export function startServicingJob(options: { db: Db; log: (line: string) => void; intervalMs?: number; firstRunDelayMs?: number; now?: () => Date }): RepeatingJob {
  return startRepeatingJob({
    run: (signal) => runServicingJobs(options.db, options.now?.() ?? new Date(), { signal }),
    onDone: (r) => {
      if (r.feesAssessed + r.lateNotices + r.reminders > 0) options.log(`[servicing] ${r.feesAssessed} late fee(s), ${r.lateNotices} late notice(s), ${r.reminders} reminder(s)`);
    },
    onError: (error, next) => options.log(`[servicing] job run failed, next try in ${Math.round(next / 60_000)} min: ${error.message}`),
    intervalMs: options.intervalMs ?? SERVICING_JOB_INTERVAL_MS,
    firstRunDelayMs: options.firstRunDelayMs ?? SERVICING_JOB_FIRST_RUN_DELAY_MS,
    record: { db: options.db, job: "servicing" },
  });
}
