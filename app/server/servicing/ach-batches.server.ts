import { randomUUID } from "node:crypto";
import { and, asc, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { writeAudit, type AuditActor, type RequestInfo } from "~/server/audit.server";
import { decryptOrLegacy } from "~/server/admin/reveal.server";
import { getConfig } from "~/server/config.server";
import { todayUtc } from "~/server/conversation/requests.server";
import { ENCRYPTION_PURPOSES } from "~/server/crypto/encryption-purposes.server";
import { getDb, type Db } from "~/server/db/client.server";
import { achBatches, bankAccounts, loanPayments, user as userTable } from "~/server/db/schema.server";
import { buildNachaFile, isValidRoutingNumber, nextBankingDay, type NachaDebit } from "./nacha.server";
import { returnPayment, ServicingRefused, settlePayment } from "./payments.server";

/**
 * ACH Batch (issue 21): the borrowers' pending one-time debits exported as a NACHA file, then each
 * entry marked Settled (posted to the ledger with the settlement date) or Returned (with the bank's
 * return code). Creating a batch is one transaction: the pending, unbatched debits are locked
 * (FOR UPDATE SKIP LOCKED, so a second admin at the same moment takes none of them), their account
 * and routing numbers decrypted here on the server, the file built and stored, and the payments
 * claimed for it by a conditional UPDATE; the audit row has the count and total, never a number.
 */

export const ACH_MESSAGES = {
  nothingPending: "There are no pending borrower debits to put in a batch.",
  batchNotFound: "This ACH batch does not exist.",
  entryNotInBatch: "This payment is not an entry of an ACH batch.",
} as const;

export type PendingDebit = {
  paymentId: string;
  loanId: string;
  borrower: string;
  amountCents: number;
  /** "••••1234", or null when the payment has no bank account on file any more. */
  accountMasked: string | null;
  authorizedAt: string | null;
};

export type BatchEntry = {
  paymentId: string;
  loanId: string;
  borrower: string;
  amountCents: number;
  accountMasked: string | null;
  status: string;
  receivedOn: string | null;
  returnCode: string | null;
};

export type AchBatchSummary = {
  id: string;
  fileName: string;
  createdAt: string;
  createdBy: string | null;
  entryCount: number;
  totalCents: number;
  entries: BatchEntry[];
};

export type AchPageData = { pending: PendingDebit[]; batches: AchBatchSummary[]; today: string };

const masked = (last4: string | null) => (last4 ? `••••${last4}` : null);

/** The pending borrower debits not in a batch yet, oldest first. */
async function pendingDebits(db: Db): Promise<PendingDebit[]> {
  const rows = await db
    .select({
      paymentId: loanPayments.id,
      loanId: loanPayments.loanId,
      borrower: userTable.name,
      amountCents: loanPayments.amountCents,
      last4: bankAccounts.accountNumberLast4,
      authorizedAt: loanPayments.authorizedAt,
    })
    .from(loanPayments)
    .innerJoin(userTable, eq(userTable.id, loanPayments.userId))
    .leftJoin(bankAccounts, eq(bankAccounts.id, loanPayments.bankAccountId))
    .where(and(eq(loanPayments.status, "pending"), isNull(loanPayments.achBatchId), eq(loanPayments.source, "borrower"), eq(loanPayments.method, "ach")))
    .orderBy(asc(loanPayments.createdAt), asc(loanPayments.id));
  return rows.map((r) => ({ ...r, accountMasked: masked(r.last4), authorizedAt: r.authorizedAt?.toISOString() ?? null }));
}

/** /admin/ach: the pending debits and the last 50 batches with their entries. */
export async function loadAchPage(db: Db = getDb(), today: string = todayUtc()): Promise<AchPageData> {
  const batches = await db
    .select({
      id: achBatches.id,
      fileName: achBatches.fileName,
      createdAt: achBatches.createdAt,
      createdBy: userTable.name,
      entryCount: achBatches.entryCount,
      totalCents: achBatches.totalCents,
    })
    .from(achBatches)
    .leftJoin(userTable, eq(userTable.id, achBatches.createdBy))
    .orderBy(desc(achBatches.createdAt), desc(achBatches.id))
    .limit(50);
  const ids = batches.map((b) => b.id);
  const entries = ids.length
    ? await db
        .select({
          batchId: loanPayments.achBatchId,
          paymentId: loanPayments.id,
          loanId: loanPayments.loanId,
          borrower: userTable.name,
          amountCents: loanPayments.amountCents,
          last4: bankAccounts.accountNumberLast4,
          status: loanPayments.status,
          receivedOn: loanPayments.receivedOn,
          returnCode: loanPayments.returnCode,
        })
        .from(loanPayments)
        .innerJoin(userTable, eq(userTable.id, loanPayments.userId))
        .leftJoin(bankAccounts, eq(bankAccounts.id, loanPayments.bankAccountId))
        .where(inArray(loanPayments.achBatchId, ids))
        .orderBy(asc(loanPayments.createdAt), asc(loanPayments.id))
    : [];
  return {
    today,
    pending: await pendingDebits(db),
    batches: batches.map((b) => ({
      ...b,
      createdAt: b.createdAt.toISOString(),
      entries: entries
        .filter((e) => e.batchId === b.id)
        .map(({ batchId: _batchId, last4, ...e }) => ({ ...e, accountMasked: masked(last4) })),
    })),
  };
}

export type CreateBatchResult =
  | { ok: true; batchId: string; fileName: string; entryCount: number; totalCents: number; skipped: number }
  | { ok: false; message: string; skipped: number };

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
 * Create ACH Batch: every pending, unbatched borrower debit whose bank account decrypts to a valid
 * routing and account number goes into one new NACHA file (those that do not are left pending and
 * counted in `skipped`). Two admins at once: the row locks (SKIP LOCKED) and the conditional claim
 * give each payment to one batch; the other finds nothing.
 */
export async function createAchBatch(actor: AuditActor, request: RequestInfo = {}, db: Db = getDb(), now: Date = new Date()): Promise<CreateBatchResult> {
  return db.transaction(async (tx) => {
    const candidates = await tx
      .select({
        paymentId: loanPayments.id,
        loanId: loanPayments.loanId,
        amountCents: loanPayments.amountCents,
        holder: bankAccounts.accountHolderName,
        accountType: bankAccounts.accountType,
        accountNumber: bankAccounts.accountNumber,
        routingNumber: bankAccounts.routingNumber,
      })
      .from(loanPayments)
      .innerJoin(bankAccounts, eq(bankAccounts.id, loanPayments.bankAccountId))
      .where(and(eq(loanPayments.status, "pending"), isNull(loanPayments.achBatchId), eq(loanPayments.source, "borrower"), eq(loanPayments.method, "ach")))
      .orderBy(asc(loanPayments.createdAt), asc(loanPayments.id))
      .for("update", { of: loanPayments, skipLocked: true });

    const ready: { paymentId: string; debit: NachaDebit }[] = [];
    let skipped = 0;
    for (const c of candidates) {
      const account = decryptOrLegacy(c.accountNumber, ENCRYPTION_PURPOSES.accountNumber);
      const routing = decryptOrLegacy(c.routingNumber, ENCRYPTION_PURPOSES.routingNumber);
      if (!account.ok || !routing.ok || !isValidRoutingNumber(routing.value) || !/^[0-9A-Za-z-]{1,17}$/.test(account.value)) {
        skipped += 1;
        continue;
      }
      ready.push({
        paymentId: c.paymentId,
        debit: {
          routingNumber: routing.value,
          accountNumber: account.value,
          accountType: c.accountType === "savings" ? "savings" : "checking",
          amountCents: c.amountCents,
          individualId: individualIdFor(c.loanId),
          individualName: c.holder,
        },
      });
    }
    if (ready.length === 0) return { ok: false, message: ACH_MESSAGES.nothingPending, skipped };

    const today = todayUtc(now);
    const [{ n } = { n: 0 }] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(achBatches)
      .where(sql`(${achBatches.createdAt} at time zone 'UTC')::date = ${today}::date`);
    const fileIdModifier = modifierFor(Number(n));
    const file = buildNachaFile({
      originator: getConfig().ach,
      entries: ready.map((r) => r.debit),
      createdAt: now,
      effectiveDate: nextBankingDay(today),
      fileIdModifier,
    });
    const batchId = randomUUID();
    const fileName = `ach-${today.replace(/-/g, "")}-${fileIdModifier}-${batchId.slice(0, 8)}`;
    await tx.insert(achBatches).values({ id: batchId, createdBy: actor.id, createdAt: now, entryCount: file.entryCount, totalCents: file.totalDebitCents, fileName, content: file.content });
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
      details: { event: "create", fileName, count: file.entryCount, totalCents: file.totalDebitCents, skipped },
      request,
    });
    return { ok: true, batchId, fileName, entryCount: file.entryCount, totalCents: file.totalDebitCents, skipped };
  });
}

const uuid = z.string().uuid();

/** The stored file for the staff download, with its audit row (no numbers in it); null when no such batch. */
export async function downloadAchBatch(batchId: string, actor: AuditActor, request: RequestInfo = {}, db: Db = getDb()): Promise<{ fileName: string; content: string } | null> {
  if (!uuid.safeParse(batchId).success) return null;
  return db.transaction(async (tx) => {
    const [batch] = await tx
      .select({ fileName: achBatches.fileName, content: achBatches.content, entryCount: achBatches.entryCount, totalCents: achBatches.totalCents })
      .from(achBatches)
      .where(eq(achBatches.id, batchId))
      .limit(1);
    if (!batch) return null;
    await writeAudit(tx, {
      actor,
      action: "ach.export",
      table: "ach_batches",
      recordId: batchId,
      details: { event: "download", fileName: batch.fileName, count: batch.entryCount, totalCents: batch.totalCents },
      request,
    });
    return { fileName: batch.fileName, content: batch.content };
  });
}

async function requireBatchEntry(paymentId: string, db: Db): Promise<void> {
  if (!uuid.safeParse(paymentId).success) throw new ServicingRefused(404, ACH_MESSAGES.entryNotInBatch);
  const [row] = await db.select({ batchId: loanPayments.achBatchId }).from(loanPayments).where(eq(loanPayments.id, paymentId)).limit(1);
  if (!row?.batchId) throw new ServicingRefused(404, ACH_MESSAGES.entryNotInBatch);
}

/** Mark Settled: the batch entry posts to its loan's ledger on the settlement date (payments.server.ts). */
export async function settleAchEntry(paymentId: string, settledOn: string, actor: AuditActor, request: RequestInfo = {}, db: Db = getDb(), today: string = todayUtc()) {
  await requireBatchEntry(paymentId, db);
  return settlePayment(paymentId, settledOn, actor, request, db, today);
}

/** Mark Returned: the bank sent the debit back with a return code; it never reaches the ledger. */
export async function returnAchEntry(paymentId: string, returnCode: string, actor: AuditActor, request: RequestInfo = {}, db: Db = getDb()) {
  await requireBatchEntry(paymentId, db);
  return returnPayment(paymentId, returnCode, actor, request, db);
}
