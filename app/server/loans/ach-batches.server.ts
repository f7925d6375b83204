import { randomUUID } from "node:crypto";
import { and, asc, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { payoffQuote } from "~/domain/loan-servicing";
import type { AchBatchSummary, AchPageData, BatchEntry, PendingDebit, RefundDue } from "~/domain/views/ach";

import { writeAudit, type Caller } from "~/server/platform/audit/audit.server";
import { decryptOrLegacy } from "~/server/staff/index.server";
import { getConfig } from "~/server/platform/config.server";
import { todayUtc } from "~/domain/dates";
import { nextBankingDay } from "~/domain/banking-days";
import { ENCRYPTION_PURPOSES } from "~/server/platform/crypto/encryption-purposes.server";
import { encryptField } from "~/server/platform/crypto/field-encryption.server";
import { getDb, type Db, type DbOrTx } from "~/server/platform/db/client.server";
import { achBatches, achTraceSequences, approvedLoans, loanPayments } from "~/server/platform/db/schema.server";
import { columnsOf } from "~/server/platform/db/select-columns.server";
import { peopleByIds } from "~/server/accounts/index.server";
import { bankAccountsByIds, sealedBankAccountsByIds } from "~/server/applications/index.server";
import { formatMoney } from "~/domain/money";
import { ledgerRows, termsOf, type LoanRow } from "./ledger.server";
import { buildNachaFile, isValidRoutingNumber, nachaName, type NachaEntry } from "./nacha.server";
import { markRefunded, returnPayment, settlePayment } from "./payments.server";
import { AppError } from "~/server/platform/http/app-error.server";

/**
 * ACH Batch: the borrowers' pending one-time debits exported as a NACHA file, then each entry marked
 * Settled (posted to the ledger with the settlement date; Refund Due when the loan was paid off in the
 * meantime) or Returned (with the bank's return code and date). Creating a batch is one transaction:
 * the pending, unbatched debits are locked (FOR UPDATE SKIP LOCKED, so a second admin at the same
 * moment takes none of them); each is checked (sendability: the loan still active, the amount not
 * above its payoff on the file's effective date, readable bank numbers, a valid routing number, a
 * name the file can carry) and those that fail stay pending with the reason shown on the page; the
 * day's trace numbers are reserved (ach_trace_sequences), the file built, encrypted and stored, and
 * the payments claimed for it by a conditional UPDATE. The audit row has the count and total, never a
 * number.
 */

export const ACH_MESSAGES = {
  nothingPending: "There are no pending borrower debits to put in a batch.",
  nothingSendable: "None of the pending borrower debits can be sent: each one's reason is listed under Pending Debits.",
  batchNotFound: "This ACH batch does not exist.",
  entryNotInBatch: "This payment is not an entry of an ACH batch.",
  fileUnreadable: "This ACH file cannot be decrypted: the key that encrypted it is no longer configured.",
} as const;

/** Why a pending debit is not put in the next file (it stays pending; staff can Cancel Debit). */
export const ACH_SKIP_REASONS = {
  loanNotActive: (status: string) => `The loan is ${status === "paid_off" ? "paid off" : `not active (${status.replace(/_/g, " ")})`}: it is never debited again. Cancel this debit.`,
  abovePayoff: (payoffCents: number, day: string) => `More than the loan's payoff on the file's effective date (${formatMoney(payoffCents)} on ${day}). Cancel this debit; the borrower can authorize a new one.`,
  noAccount: "No bank account on file for this debit.",
  unreadable: "The bank account's numbers cannot be decrypted (the key that encrypted them is no longer configured).",
  invalidRouting: "The routing number is not a valid US routing number.",
  invalidAccount: "The account number is not 1 to 17 letters or digits.",
  blankName: "The account holder's name has no letter or digit an ACH file can carry, even transliterated to Latin letters.",
} as const;

export type { AchBatchSummary, AchPageData, BatchEntry, PendingDebit, RefundDue };

const masked = (last4: string | null) => (last4 ? `••••${last4}` : null);

type Candidate = {
  paymentId: string;
  loanId: string;
  amountCents: number;
  holder: string | null;
  accountType: string | null;
  accountNumber: string | null;
  routingNumber: string | null;
};

type Assessed = { paymentId: string; debit: NachaEntry | null; skipReason: string | null };

/**
 * Whether each pending debit can go in a file effective on `effectiveDate`: one rule for the page
 * (why a debit stays pending) and for Create ACH Batch (what goes in). Each loan's payoff on that day
 * comes from its ledger, so a debit never asks for more than is owed when it settles.
 */
async function assessDebits(db: DbOrTx, candidates: Candidate[], effectiveDate: string): Promise<Assessed[]> {
  const loanIds = [...new Set(candidates.map((c) => c.loanId))];
  const loans = loanIds.length ? await db.select().from(approvedLoans).where(inArray(approvedLoans.id, loanIds)) : [];
  const byId = new Map<string, LoanRow>(loans.map((l) => [l.id, l]));
  const payoff = new Map<string, number>();
  const owed = async (loan: LoanRow) => {
    if (!payoff.has(loan.id)) {
      const rows = await ledgerRows(loan.id, db);
      payoff.set(loan.id, payoffQuote(termsOf(loan), rows.payments, rows.fees, effectiveDate).totalCents);
    }
    return payoff.get(loan.id)!;
  };
  const out: Assessed[] = [];
  for (const c of candidates) {
    const skip = (skipReason: string) => out.push({ paymentId: c.paymentId, debit: null, skipReason });
    const loan = byId.get(c.loanId);
    if (!loan || loan.status !== "active") {
      skip(ACH_SKIP_REASONS.loanNotActive(loan?.status ?? "closed"));
      continue;
    }
    const payoffCents = await owed(loan);
    if (c.amountCents > payoffCents) {
      skip(ACH_SKIP_REASONS.abovePayoff(payoffCents, effectiveDate));
      continue;
    }
    if (c.accountNumber === null || c.routingNumber === null) {
      skip(ACH_SKIP_REASONS.noAccount);
      continue;
    }
    const account = decryptOrLegacy(c.accountNumber, ENCRYPTION_PURPOSES.accountNumber);
    const routing = decryptOrLegacy(c.routingNumber, ENCRYPTION_PURPOSES.routingNumber);
    if (!account.ok || !routing.ok) skip(ACH_SKIP_REASONS.unreadable);
    else if (!isValidRoutingNumber(routing.value)) skip(ACH_SKIP_REASONS.invalidRouting);
    else if (!/^[0-9A-Za-z-]{1,17}$/.test(account.value)) skip(ACH_SKIP_REASONS.invalidAccount);
    else if (!nachaName(c.holder ?? "")) skip(ACH_SKIP_REASONS.blankName);
    else
      out.push({
        paymentId: c.paymentId,
        skipReason: null,
        // The borrower authorised this one debit on the website (Make a Payment): a WEB entry, single.
        debit: {
          secCode: "WEB",
          paymentType: "S",
          direction: "debit",
          routingNumber: routing.value,
          accountNumber: account.value,
          accountType: c.accountType === "savings" ? "savings" : "checking",
          amountCents: c.amountCents,
          individualId: individualIdFor(c.loanId),
          individualName: c.holder!,
        },
      });
  }
  return out;
}

const pendingUnsent = and(eq(loanPayments.status, "pending"), isNull(loanPayments.achBatchId), eq(loanPayments.source, "borrower"), eq(loanPayments.method, "ach"));

const candidateColumns = {
  paymentId: loanPayments.id,
  loanId: loanPayments.loanId,
  amountCents: loanPayments.amountCents,
  bankAccountId: loanPayments.bankAccountId,
};

/** The debits with their bank accounts' holder, type, sealed numbers and last 4 (null when none is on file): one query. */
async function withAccounts<T extends Pick<Candidate, "paymentId" | "loanId" | "amountCents"> & { bankAccountId: string | null }>(rows: T[], db: DbOrTx) {
  const accounts = await sealedBankAccountsByIds(rows.map((r) => r.bankAccountId), db);
  return rows.map((r) => {
    const account = r.bankAccountId ? accounts.get(r.bankAccountId) : undefined;
    return {
      ...r,
      holder: account?.holder ?? null,
      accountType: account?.accountType ?? null,
      accountNumber: account?.accountNumber ?? null,
      routingNumber: account?.routingNumber ?? null,
      last4: account?.last4 ?? null,
    };
  });
}

/** The account names of these people (borrowers, the staff who made a batch), in one query. */
async function namesOf(ids: readonly (string | null)[], db: DbOrTx): Promise<Map<string, string>> {
  return new Map([...(await peopleByIds(ids, db)).values()].map((p) => [p.id, p.name]));
}

/** The pending borrower debits not in a batch yet, oldest first, each with why the next file would leave it out. */
async function pendingDebits(db: Db, effectiveDate: string): Promise<PendingDebit[]> {
  const payments = await db
    .select({ ...candidateColumns, userId: loanPayments.userId, authorizedAt: loanPayments.authorizedAt })
    .from(loanPayments)
    .where(pendingUnsent)
    .orderBy(asc(loanPayments.createdAt), asc(loanPayments.id));
  const [rows, borrowers] = await Promise.all([withAccounts(payments, db), namesOf(payments.map((p) => p.userId), db)]);
  const assessed = new Map((await assessDebits(db, rows, effectiveDate)).map((a) => [a.paymentId, a.skipReason]));
  return rows.flatMap((r) => {
    const borrower = borrowers.get(r.userId);
    if (borrower === undefined) return [];
    return [
      {
        paymentId: r.paymentId,
        loanId: r.loanId,
        borrower,
        amountCents: r.amountCents,
        accountMasked: masked(r.last4),
        authorizedAt: r.authorizedAt?.toISOString() ?? null,
        skipReason: assessed.get(r.paymentId) ?? null,
      },
    ];
  });
}

/** Every debit collected after its loan was paid off and not refunded yet, oldest first. */
export async function refundsDue(db: DbOrTx = getDb(), loanId?: string): Promise<RefundDue[]> {
  const rows = await db
    .select({
      paymentId: loanPayments.id,
      loanId: loanPayments.loanId,
      userId: loanPayments.userId,
      amountCents: loanPayments.amountCents,
      receivedOn: loanPayments.receivedOn,
      reference: loanPayments.reference,
    })
    .from(loanPayments)
    .where(and(eq(loanPayments.status, "refund_due"), loanId ? eq(loanPayments.loanId, loanId) : undefined))
    .orderBy(asc(loanPayments.receivedOn), asc(loanPayments.id));
  const borrowers = await namesOf(rows.map((r) => r.userId), db);
  return rows.flatMap(({ userId, ...r }) => {
    const borrower = borrowers.get(userId);
    return borrower === undefined ? [] : [{ paymentId: r.paymentId, loanId: r.loanId, borrower, amountCents: r.amountCents, receivedOn: r.receivedOn!, reference: r.reference }];
  });
}

/** /admin/ach: the pending debits (with why any would be left out), the refunds due, the last 50 batches with their entries. */
export async function loadAchPage(db: Db = getDb(), today: string = todayUtc()): Promise<AchPageData> {
  const nextEffectiveDate = nextBankingDay(today);
  const batchRows = await db
    .select({
      id: achBatches.id,
      fileName: achBatches.fileName,
      createdAt: achBatches.createdAt,
      createdById: achBatches.createdBy,
      entryCount: achBatches.entryCount,
      totalCents: achBatches.totalCents,
      effectiveDate: achBatches.effectiveDate,
    })
    .from(achBatches)
    .orderBy(desc(achBatches.createdAt), desc(achBatches.id))
    .limit(50);
  const ids = batchRows.map((b) => b.id);
  const payments = ids.length
    ? await db
        .select({
          batchId: loanPayments.achBatchId,
          paymentId: loanPayments.id,
          ...columnsOf(loanPayments, ["loanId", "userId", "bankAccountId", "amountCents", "status", "receivedOn", "returnCode", "returnedOn", "refundedOn"]),
        })
        .from(loanPayments)
        .where(inArray(loanPayments.achBatchId, ids))
        .orderBy(asc(loanPayments.createdAt), asc(loanPayments.id))
    : [];
  const [names, accounts] = await Promise.all([
    namesOf([...batchRows.map((b) => b.createdById), ...payments.map((p) => p.userId)], db),
    bankAccountsByIds(payments.map((p) => p.bankAccountId), db),
  ]);
  const batches = batchRows.map(({ createdById, ...b }) => ({ ...b, createdBy: (createdById && names.get(createdById)) ?? null }));
  const entries = payments.flatMap(({ userId, bankAccountId, ...p }) => {
    const borrower = names.get(userId);
    const last4 = (bankAccountId && accounts.get(bankAccountId)?.last4) || null;
    return borrower === undefined ? [] : [{ ...p, borrower, last4 }];
  });
  const [pending, refunds] = await Promise.all([pendingDebits(db, nextEffectiveDate), refundsDue(db)]);
  return {
    today,
    nextEffectiveDate,
    pending,
    refundsDue: refunds,
    batches: batches.map((b) => ({
      ...b,
      createdAt: b.createdAt.toISOString(),
      entries: entries
        .filter((e) => e.batchId === b.id)
        .map(({ batchId: _batchId, last4, ...e }) => ({ ...e, accountMasked: masked(last4) })),
    })),
  };
}

export type SkippedDebit = { paymentId: string; reason: string };

export type CreateBatchResult =
  | { ok: true; batchId: string; fileName: string; entryCount: number; totalCents: number; effectiveDate: string; skipped: SkippedDebit[] }
  | { ok: false; message: string; skipped: SkippedDebit[] };

/** A–Z by how many files were made today (then 0–9): the File ID Modifier. */
function modifierFor(countToday: number): string {
  const symbols = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  return symbols[countToday % symbols.length]!;
}

/** An entry's Individual Identification Number: the loan, 15 characters. */
export function individualIdFor(loanId: string): string {
  return loanId.replace(/-/g, "").slice(0, 15).toUpperCase();
}

/**
 * Reserves `count` trace sequences for the originator on `day` and returns the first: one upsert, so
 * two batches at once (any instance) get ranges that never overlap; the row stays locked until the
 * batch commits, which also orders the File ID Modifiers of the day's files.
 */
async function reserveTraceSequences(tx: DbOrTx, originatingDfi: string, day: string, count: number): Promise<number> {
  const [row] = await tx
    .insert(achTraceSequences)
    .values({ originatingDfi, day, lastSequence: count })
    .onConflictDoUpdate({ target: [achTraceSequences.originatingDfi, achTraceSequences.day], set: { lastSequence: sql`${achTraceSequences.lastSequence} + ${count}` } })
    .returning({ last: achTraceSequences.lastSequence });
  return row!.last - count + 1;
}

/**
 * Create ACH Batch: every pending, unbatched borrower debit that passes the checks above goes into one
 * new NACHA file; the rest stay pending and are returned with their reasons. Two admins at once: the
 * row locks (SKIP LOCKED) and the conditional claim give each payment to one batch; the other finds
 * nothing.
 */
export async function createAchBatch({ actor, request }: Caller, db: Db = getDb(), now: Date = new Date()): Promise<CreateBatchResult> {
  return db.transaction(async (tx) => {
    const candidates = await withAccounts(
      await tx
        .select(candidateColumns)
        .from(loanPayments)
        .where(pendingUnsent)
        .orderBy(asc(loanPayments.createdAt), asc(loanPayments.id))
        .for("update", { of: loanPayments, skipLocked: true }),
      tx,
    );
    const today = todayUtc(now);
    const effectiveDate = nextBankingDay(today);
    const assessed = await assessDebits(tx, candidates, effectiveDate);
    const ready = assessed.filter((a): a is Assessed & { debit: NachaEntry } => a.debit !== null);
    const skipped = assessed.filter((a) => a.skipReason !== null).map((a) => ({ paymentId: a.paymentId, reason: a.skipReason! }));
    if (ready.length === 0) return { ok: false, message: candidates.length ? ACH_MESSAGES.nothingSendable : ACH_MESSAGES.nothingPending, skipped };

    const originator = getConfig().ach;
    const firstTraceSequence = await reserveTraceSequences(tx, originator.originatingDfi, today, ready.length);
    const [{ n } = { n: 0 }] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(achBatches)
      .where(sql`(${achBatches.createdAt} at time zone 'UTC')::date = ${today}::date`);
    const fileIdModifier = modifierFor(Number(n));
    const file = buildNachaFile({ originator, entries: ready.map((r) => r.debit), createdAt: now, effectiveDate, fileIdModifier, firstTraceSequence });
    const batchId = randomUUID();
    const fileName = `ach-${today.replace(/-/g, "")}-${fileIdModifier}-${batchId.slice(0, 8)}`;
    await tx.insert(achBatches).values({
      id: batchId,
      createdBy: actor.id,
      createdAt: now,
      entryCount: file.entryCount,
      totalCents: file.totalDebitCents,
      fileName,
      effectiveDate,
      content: encryptField(file.content, ENCRYPTION_PURPOSES.achFile),
    });
    const claimed = await tx
      .update(loanPayments)
      .set({ achBatchId: batchId })
      .where(and(inArray(loanPayments.id, ready.map((r) => r.paymentId)), eq(loanPayments.status, "pending"), isNull(loanPayments.achBatchId)))
      .returning({ id: loanPayments.id });
    // The rows are locked by this transaction, so all are claimed; anything else is a bug to roll back.
    if (claimed.length !== ready.length) throw new Error("ACH batch: a locked payment could not be claimed");
    await writeAudit(tx, {
      actor,
      action: "ach.export",
      table: "ach_batches",
      recordId: batchId,
      details: { event: "create", fileName, count: file.entryCount, totalCents: file.totalDebitCents, effectiveDate, firstTraceSequence, skipped: skipped.length },
      request,
    });
    return { ok: true, batchId, fileName, entryCount: file.entryCount, totalCents: file.totalDebitCents, effectiveDate, skipped };
  });
}

const uuid = z.string().uuid();

/**
 * The stored file for the staff download, decrypted here (a file stored before encryption is read as
 * is until 'Encrypt Existing Bank Data' seals it), with its audit row (no numbers in it); null when no
 * such batch. A file whose key is gone is refused with ServicingRefused (409), never sent garbled.
 */
export async function downloadAchBatch(batchId: string, { actor, request }: Caller, db: Db = getDb()): Promise<{ fileName: string; content: string } | null> {
  if (!uuid.safeParse(batchId).success) return null;
  return db.transaction(async (tx) => {
    const [batch] = await tx
      .select({ fileName: achBatches.fileName, content: achBatches.content, entryCount: achBatches.entryCount, totalCents: achBatches.totalCents })
      .from(achBatches)
      .where(eq(achBatches.id, batchId))
      .limit(1);
    if (!batch) return null;
    const content = decryptOrLegacy(batch.content, ENCRYPTION_PURPOSES.achFile);
    if (!content.ok) throw new AppError("servicing", 409, ACH_MESSAGES.fileUnreadable);
    await writeAudit(tx, {
      actor,
      action: "ach.export",
      table: "ach_batches",
      recordId: batchId,
      details: { event: "download", fileName: batch.fileName, count: batch.entryCount, totalCents: batch.totalCents },
      request,
    });
    return { fileName: batch.fileName, content: content.value };
  });
}

async function requireBatchEntry(paymentId: string, db: Db): Promise<void> {
  if (!uuid.safeParse(paymentId).success) throw new AppError("servicing", 404, ACH_MESSAGES.entryNotInBatch);
  const [row] = await db.select({ batchId: loanPayments.achBatchId }).from(loanPayments).where(eq(loanPayments.id, paymentId)).limit(1);
  if (!row?.batchId) throw new AppError("servicing", 404, ACH_MESSAGES.entryNotInBatch);
}

/** Mark Settled: the batch entry posts to its loan's ledger on the settlement date, or becomes Refund Due (payments.server.ts). */
export async function settleAchEntry(paymentId: string, settledOn: string, caller: Caller, db: Db = getDb(), today: string = todayUtc()) {
  await requireBatchEntry(paymentId, db);
  return settlePayment(paymentId, settledOn, caller, db, today);
}

/** Mark Returned: the bank sent the debit back with a return code on `returnedOn`; it never reaches the ledger. */
export async function returnAchEntry(paymentId: string, returnCode: string, returnedOn: string, caller: Caller, db: Db = getDb(), today: string = todayUtc()) {
  await requireBatchEntry(paymentId, db);
  return returnPayment(paymentId, returnCode, returnedOn, caller, db, today);
}

/** Mark Refunded: a Refund Due entry was sent back to the borrower. */
export async function refundAchEntry(paymentId: string, refundedOn: string, reference: string, caller: Caller, db: Db = getDb(), today: string = todayUtc()) {
  await requireBatchEntry(paymentId, db);
  return markRefunded(paymentId, refundedOn, reference, caller, db, today);
}
