import { and, asc, desc, eq, inArray, isNull, lte, ne, sql } from "drizzle-orm";
import { z } from "zod";
import { addBankingDays } from "~/domain/banking-days";
import { isoDay, todayUtc } from "~/domain/dates";
import { ACH_RETURN_CODES, type AccountValidationMethod } from "~/domain/servicing-enums";
import { ACCOUNT_VALIDATION_MESSAGES, STAFF_VALIDATION_METHODS } from "~/domain/validation/account-validation";
import type { AccountValidationView } from "~/domain/views/account-validation";
import { peopleByIds } from "~/server/accounts/index.server";
import { writeAudit, type Caller } from "~/server/platform/audit/audit.server";
import { getConfig } from "~/server/platform/config.server";
import { getDb, type Db, type DbOrTx } from "~/server/platform/db/client.server";
import { bankAccountValidations, loanPayments } from "~/server/platform/db/schema.server";
import { AppError } from "~/server/platform/http/app-error.server";
import { traceNumberOf } from "./trace-numbers.server";
import { enqueueEmail } from "~/server/platform/mail/outbox.server";
import { liveLoansUsingAccount } from "./account-loans.server";
import { loanMailSubject } from "./loan-reference.server";
import { loanOwner } from "./loan-owner.server";
import { prenoteReturnedEmail } from "./prenote-emails.server";

/**
 * Bank accounts validated before their first debit or credit (Nacha's WEB debit rule asks it of a new
 * account debited online; the lender asks it of every account it credits). An account is validated
 * by a zero-dollar prenote in the next ACH file, which counts as validated when no return arrived
 * within ACH_PRENOTE_WAIT_DAYS banking days of its effective date, or by another method staff record
 * with a reference. bank_account_validations keeps one live row per account (pending → sent →
 * validated; the partial unique index allows one whose status is not failed), so parallel requests
 * make one prenote; a returned prenote is failed with its return code and the account needs another
 * (or the borrower another account).
 */

type Row = typeof bankAccountValidations.$inferSelect;

export type ValidationRequest = { secCode: "PPD" | "CCD" | "WEB"; direction: "credit" | "debit" };

const uuid = z.string().uuid();
const RETURN_CODES: ReadonlySet<string> = new Set(ACH_RETURN_CODES.map((r) => r.code));

/** A sent prenote's day of validation: its effective date plus the wait in banking days. */
export function prenoteReadyOn(effectiveDate: string, waitDays: number = getConfig().achPrenoteWaitDays): string {
  return addBankingDays(effectiveDate, waitDays);
}

function viewOf(row: Row, names: Map<string, string>): AccountValidationView {
  return {
    validationId: row.id,
    bankAccountId: row.bankAccountId,
    status: row.status,
    method: row.method,
    secCode: row.secCode,
    direction: row.direction,
    effectiveDate: row.effectiveDate,
    readyOn: row.status === "sent" && row.effectiveDate ? prenoteReadyOn(row.effectiveDate) : null,
    validatedAt: row.validatedAt?.toISOString() ?? null,
    returnCode: row.returnCode,
    returnedOn: row.returnedOn,
    reference: row.reference,
    recordedBy: (row.recordedBy && names.get(row.recordedBy)) ?? null,
  };
}

/**
 * Asks for a prenote of `bankAccountId` in the next ACH file, unless the account already has a live
 * validation (queued, sent or validated): one INSERT … ON CONFLICT DO NOTHING on the one-live-row
 * index, so two requests at once make one row. Audited when it made one (with no caller: the system,
 * as when a loan opens). Inside the caller's transaction.
 */
export async function requestAccountValidation(
  tx: DbOrTx,
  bankAccountId: string,
  { secCode, direction }: ValidationRequest,
  caller?: Caller | null,
): Promise<{ validationId: string | null; created: boolean }> {
  const [row] = await tx
    .insert(bankAccountValidations)
    .values({ bankAccountId, method: "prenote", status: "pending", secCode, direction })
    .onConflictDoNothing()
    .returning({ id: bankAccountValidations.id });
  if (!row) return { validationId: null, created: false };
  await writeAudit(tx, {
    actor: caller?.actor ?? null,
    action: "bank_account.validation",
    table: "bank_account_validations",
    recordId: row.id,
    details: { event: "prenote_requested", bankAccountId, secCode, direction },
    request: caller?.request,
  });
  return { validationId: row.id, created: true };
}

/**
 * Each account's validation: the live row, else its last failed one (an account with none is absent).
 * One query for all the ids; the funding checklist, the ACH page and the loan pages read this.
 */
export async function accountValidations(bankAccountIds: readonly (string | null)[], db: DbOrTx = getDb()): Promise<Map<string, AccountValidationView>> {
  const wanted = [...new Set(bankAccountIds.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .select()
    .from(bankAccountValidations)
    .where(inArray(bankAccountValidations.bankAccountId, wanted))
    .orderBy(desc(bankAccountValidations.createdAt), desc(bankAccountValidations.id));
  const chosen = new Map<string, Row>();
  for (const row of rows) {
    const had = chosen.get(row.bankAccountId);
    if (!had || (had.status === "failed" && row.status !== "failed")) chosen.set(row.bankAccountId, row);
  }
  const names = new Map([...(await peopleByIds([...chosen.values()].map((r) => r.recordedBy), db)).values()].map((p) => [p.id, p.name]));
  return new Map([...chosen].map(([id, row]) => [id, viewOf(row, names)]));
}

/**
 * Sent prenotes whose wait is over with no return (effective date + ACH_PRENOTE_WAIT_DAYS banking days
 * ≤ `today`) become validated: one conditional UPDATE (status still 'sent', so a return marked at the
 * same moment wins or loses whole), one audit row each. Run by the servicing job, and before the ACH
 * page and a batch read the state, so it is current without waiting for the job. Returns how many.
 */
export async function validateMaturedPrenotes(db: DbOrTx, today: string = todayUtc(), now: Date = new Date()): Promise<number> {
  const wait = getConfig().achPrenoteWaitDays;
  const sent = await db
    .select({ id: bankAccountValidations.id, effectiveDate: bankAccountValidations.effectiveDate })
    .from(bankAccountValidations)
    .where(and(eq(bankAccountValidations.status, "sent"), lte(bankAccountValidations.effectiveDate, today)));
  const matured = sent.filter((r) => r.effectiveDate !== null && prenoteReadyOn(r.effectiveDate, wait) <= today).map((r) => r.id);
  if (matured.length === 0) return 0;
  return db.transaction(async (tx) => {
    const done = await tx
      .update(bankAccountValidations)
      .set({ status: "validated", validatedAt: now, updatedAt: now })
      .where(and(inArray(bankAccountValidations.id, matured), eq(bankAccountValidations.status, "sent")))
      .returning({ id: bankAccountValidations.id, bankAccountId: bankAccountValidations.bankAccountId, effectiveDate: bankAccountValidations.effectiveDate });
    for (const row of done) {
      await writeAudit(tx, {
        actor: null,
        action: "bank_account.validation",
        table: "bank_account_validations",
        recordId: row.id,
        details: { event: "prenote_validated", bankAccountId: row.bankAccountId, effectiveDate: row.effectiveDate, waitBankingDays: wait, today },
      });
    }
    return done.length;
  });
}

/**
 * Record Validation: staff validated the account another way (an account verification service, a bank
 * letter or voided check, a prior successful entry) and give its reference. Under the account's live
 * row lock: a queued prenote not yet in a file, or a sent one, becomes this validation (the queued one is
 * then never sent); an account with no live row gets one. Refused when already validated.
 */
export async function recordAccountValidation(
  bankAccountId: string,
  input: { method: Exclude<AccountValidationMethod, "prenote">; reference: string },
  { actor, request }: Caller,
  db: Db = getDb(),
  now: Date = new Date(),
): Promise<AccountValidationView> {
  if (!uuid.safeParse(bankAccountId).success) throw new AppError("servicing", 404, ACCOUNT_VALIDATION_MESSAGES.bankAccountId);
  if (!(STAFF_VALIDATION_METHODS as readonly string[]).includes(input.method)) throw new AppError("servicing", 400, ACCOUNT_VALIDATION_MESSAGES.method, { field: "method" });
  const reference = input.reference.trim();
  if (reference.length < 3 || reference.length > 100) throw new AppError("servicing", 400, ACCOUNT_VALIDATION_MESSAGES.referenceRequired, { field: "reference" });
  return db.transaction(async (tx) => {
    const [live] = await tx
      .select()
      .from(bankAccountValidations)
      .where(and(eq(bankAccountValidations.bankAccountId, bankAccountId), ne(bankAccountValidations.status, "failed")))
      .for("update")
      .limit(1);
    if (live?.status === "validated") throw new AppError("servicing", 409, ACCOUNT_VALIDATION_MESSAGES.alreadyValidated);
    const values = { method: input.method, status: "validated" as const, reference, recordedBy: actor.id, validatedAt: now, updatedAt: now };
    let row: Row | undefined;
    if (live) {
      [row] = await tx
        .update(bankAccountValidations)
        .set(values)
        .where(and(eq(bankAccountValidations.id, live.id), eq(bankAccountValidations.status, live.status)))
        .returning();
    } else {
      [row] = await tx
        .insert(bankAccountValidations)
        .values({ bankAccountId, ...values })
        .onConflictDoNothing()
        .returning();
    }
    // Another request made or changed the live row between the read and the write.
    if (!row) throw new AppError("servicing", 409, ACCOUNT_VALIDATION_MESSAGES.changed);
    await writeAudit(tx, {
      actor,
      action: "bank_account.validation",
      table: "bank_account_validations",
      recordId: row.id,
      details: { event: "recorded", bankAccountId, method: input.method, reference, replaced: live ? { status: live.status, method: live.method } : null },
      request,
    });
    return viewOf(row, new Map([[actor.id, actor.name]]));
  });
}

/**
 * Mark Returned for a prenote: the bank sent it back with a return code on `returnedOn` (not before
 * the file's effective date, not in the future), so the account is not validated: the row is failed
 * with the code and date (also a prenote already counted validated: a late return still says the
 * account is wrong). A debit from the account then waits for another account. Audited; the borrower
 * is e-mailed (the return code's label, and to add another account with Change Bank Account).
 */
export async function returnPrenote(validationId: string, returnCode: string, returnedOn: string, { actor, request }: Caller, db: Db = getDb(), today: string = todayUtc()): Promise<{ bankAccountId: string }> {
  if (!uuid.safeParse(validationId).success) throw new AppError("servicing", 404, ACCOUNT_VALIDATION_MESSAGES.prenoteNotFound);
  if (!RETURN_CODES.has(returnCode)) throw new AppError("servicing", 400, "Choose the return code the bank gave.", { field: "returnCode" });
  if (!/^\d{4}-\d{2}-\d{2}$/.test(returnedOn) || isoDay(new Date(`${returnedOn}T00:00:00Z`)) !== returnedOn) throw new AppError("servicing", 400, "Enter the return date as YYYY-MM-DD.", { field: "returnedOn" });
  if (returnedOn > today) throw new AppError("servicing", 400, ACCOUNT_VALIDATION_MESSAGES.returnInFuture, { field: "returnedOn" });
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(bankAccountValidations).where(eq(bankAccountValidations.id, validationId)).for("update").limit(1);
    if (!row) throw new AppError("servicing", 404, ACCOUNT_VALIDATION_MESSAGES.prenoteNotFound);
    if (row.method !== "prenote" || row.achBatchId === null || (row.status !== "sent" && row.status !== "validated")) throw new AppError("servicing", 409, ACCOUNT_VALIDATION_MESSAGES.prenoteNotReturnable);
    if (row.effectiveDate && returnedOn < row.effectiveDate) throw new AppError("servicing", 400, ACCOUNT_VALIDATION_MESSAGES.returnBeforeEffective, { field: "returnedOn" });
    await tx
      .update(bankAccountValidations)
      .set({ status: "failed", returnCode, returnedOn, validatedAt: null, updatedAt: new Date() })
      .where(eq(bankAccountValidations.id, row.id));
    await writeAudit(tx, {
      actor,
      action: "bank_account.validation",
      table: "bank_account_validations",
      recordId: row.id,
      details: { event: "prenote_returned", bankAccountId: row.bankAccountId, returnCode, returnedOn, previousStatus: row.status },
      request,
    });
    // The borrower learns it from us, not from a payment that cannot be made: once per live loan that
    // pays from (or is to be funded to) the account, through the outbox, so a rollback sends nothing.
    for (const loan of await liveLoansUsingAccount(tx, row.bankAccountId)) {
      const owner = await loanOwner(tx, loan);
      if (owner) await enqueueEmail(tx, { to: owner.email, ...prenoteReturnedEmail({ ...loanMailSubject(loan, owner.loanType), returnCode }) });
    }
    return { bankAccountId: row.bankAccountId };
  });
}

/** The prenotes waiting for the next file, oldest first, locked for a batch (SKIP LOCKED: another batch at once takes none). */
export async function lockUnsentPrenotes(tx: DbOrTx): Promise<Row[]> {
  return tx
    .select()
    .from(bankAccountValidations)
    .where(and(eq(bankAccountValidations.status, "pending"), eq(bankAccountValidations.method, "prenote"), isNull(bankAccountValidations.achBatchId)))
    .orderBy(asc(bankAccountValidations.createdAt), asc(bankAccountValidations.id))
    .for("update", { skipLocked: true });
}

/** The prenotes waiting for the next file, for the ACH page (not locked). */
export async function unsentPrenotes(db: DbOrTx): Promise<Row[]> {
  return db
    .select()
    .from(bankAccountValidations)
    .where(and(eq(bankAccountValidations.status, "pending"), eq(bankAccountValidations.method, "prenote"), isNull(bankAccountValidations.achBatchId)))
    .orderBy(asc(bankAccountValidations.createdAt), asc(bankAccountValidations.id));
}

/** The prenotes of these batches, for the ACH page. */
export async function prenotesOfBatches(batchIds: readonly string[], db: DbOrTx): Promise<Row[]> {
  if (batchIds.length === 0) return [];
  return db
    .select()
    .from(bankAccountValidations)
    .where(inArray(bankAccountValidations.achBatchId, [...batchIds]))
    .orderBy(asc(bankAccountValidations.createdAt), asc(bankAccountValidations.id));
}

/** Claims locked prenotes for a batch: sent, in it, with its effective date; one conditional UPDATE. */
export async function claimPrenotes(tx: DbOrTx, ids: readonly string[], batchId: string, effectiveDate: string, now: Date, traces: ReadonlyMap<string, string> = new Map()): Promise<number> {
  if (ids.length === 0) return 0;
  const claimed = await tx
    .update(bankAccountValidations)
    .set({ status: "sent", achBatchId: batchId, effectiveDate, updatedAt: now, achTraceNumber: traceNumberOf(bankAccountValidations.id, traces) })
    .where(and(inArray(bankAccountValidations.id, [...ids]), eq(bankAccountValidations.status, "pending"), isNull(bankAccountValidations.achBatchId)))
    .returning({ id: bankAccountValidations.id });
  return claimed.length;
}

/**
 * Accounts validated before validation began to be stored: an account with a posted borrower ACH debit
 * was already debited successfully, which Nacha accepts as validation ('prior_payment', on the day of
 * the first such debit). Written as stored rows by a data step (each start; a no-op once done) rather
 * than as a rule in every read: the table stays the one place a validation is found (the one-live-row
 * index, the pages, the funding checklist and the ACH file read only it), each row is audited once, and
 * a later failed prenote of the same account is not overruled by an old payment.
 */
export async function recordPriorPaymentValidations(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = await tx.execute<{ id: string; bank_account_id: string; first_on: string }>(sql`
      insert into ${bankAccountValidations} (bank_account_id, method, status, validated_at, reference)
      select p.bank_account_id, 'prior_payment', 'validated', min(p.received_on)::timestamp at time zone 'UTC', 'First posted ACH debit ' || min(p.received_on)::text
      from ${loanPayments} p
      where p.source = 'borrower' and p.method = 'ach' and p.status = 'posted' and p.bank_account_id is not null
        and not exists (select 1 from ${bankAccountValidations} v where v.bank_account_id = p.bank_account_id)
      group by p.bank_account_id
      on conflict do nothing
      returning id, bank_account_id, (validated_at at time zone 'UTC')::date::text as first_on`);
    const inserted = (rows as unknown as { rows: { id: string; bank_account_id: string; first_on: string }[] }).rows;
    for (const row of inserted) {
      await writeAudit(tx, {
        actor: null,
        action: "bank_account.validation",
        table: "bank_account_validations",
        recordId: row.id,
        details: { event: "prior_payment", bankAccountId: row.bank_account_id, firstPostedOn: row.first_on, source: "a posted borrower ACH debit from before accounts were validated" },
      });
    }
    return inserted.length;
  });
}
