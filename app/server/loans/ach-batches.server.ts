import { randomUUID } from "node:crypto";
import { and, asc, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { payoffQuote } from "~/domain/loan-servicing";
import type { AchBatchSummary, AchPageData, BatchCredit, BatchEntry, BatchPrenote, PendingDebit, PendingPrenote, RefundDue } from "~/domain/views/ach";
import { isValidated, returnCodeText, type AccountValidationView } from "~/domain/views/account-validation";

import { writeAudit, type Caller } from "~/server/platform/audit/audit.server";
import { decryptOrLegacy } from "~/server/staff/index.server";
import { getConfig } from "~/server/platform/config.server";
import { todayUtc } from "~/domain/dates";
import { nextBankingDay } from "~/domain/banking-days";
import { formatDay } from "~/domain/formats";
import { ENCRYPTION_PURPOSES } from "~/server/platform/crypto/encryption-purposes.server";
import { encryptField } from "~/server/platform/crypto/field-encryption.server";
import { getDb, type Db, type DbOrTx } from "~/server/platform/db/client.server";
import { achBatches, achTraceSequences, approvedLoans, loanFundings, loanPayments } from "~/server/platform/db/schema.server";
import { columnsOf } from "~/server/platform/db/select-columns.server";
import { peopleByIds } from "~/server/accounts/index.server";
import { bankAccountsByIds, sealedBankAccountsByIds } from "~/server/applications/index.server";
import { formatMoney } from "~/domain/money";
import { ledgerRows, termsOf, type LoanRow } from "./ledger.server";
import { traceNumberOf } from "./trace-numbers.server";
import { claimFundingCredits, fundingCreditsForBatch } from "./funding.server";
import { buildNachaFile, isValidRoutingNumber, nachaName, type NachaEntry } from "./nacha.server";
import { markRefunded, returnPayment, settlePayment } from "./payments.server";
import { accountValidations, claimPrenotes, lockUnsentPrenotes, prenoteReadyOn, prenotesOfBatches, requestAccountValidation, unsentPrenotes, validateMaturedPrenotes } from "./account-validations.server";
import { AppError } from "~/server/platform/http/app-error.server";
import { RETRY_ENTRY_DESCRIPTION } from "~/domain/ach-returns";
import type { WebPaymentType } from "~/domain/servicing-enums";
import { accountRestrictions, restrictionReason, type AccountRestriction } from "./account-restrictions.server";

/**
 * ACH Batch: what the lender sends the bank in one NACHA file, then each entry marked Settled or
 * Returned. A file carries entries from several sources, each one batch per Standard Entry Class
 * (buildNachaFile): the borrowers' pending one-time debits (WEB), the zero-dollar prenotes that
 * validate a bank account before its first debit or credit (WEB, PPD or CCD, with their prenote
 * transaction codes) and, from the funding module, the loans' proceeds (PPD/CCD credits). Creating a
 * batch is one transaction: each source's rows are locked (FOR UPDATE SKIP LOCKED, so a second admin
 * at the same moment takes none of them); each entry is checked (sendability: for a debit the loan
 * still active, the account validated, the amount not above its payoff on the file's effective date;
 * for every entry readable bank numbers, a valid routing number, a name the file can carry) and those
 * that fail stay pending with the reason shown on the page; the day's trace numbers are reserved
 * (ach_trace_sequences), the file built, encrypted and stored, and each source's rows claimed for it by
 * a conditional UPDATE. The audit row has the counts and totals, never a number.
 */

export const ACH_MESSAGES = {
  nothingPending: "There are no pending borrower debits, prenotes or credits to put in a batch.",
  nothingSendable: "None of the pending entries can be sent: each one's reason is listed under Pending Debits or Prenotes for the Next File.",
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
  prenoteSent: (sentOn: string, readyOn: string) => `The bank account is not validated yet: its prenote was sent on ${formatDay(sentOn)} and counts as validated on ${formatDay(readyOn)}.`,
  prenoteQueued: "The bank account is not validated yet: its prenote is queued for the next ACH file.",
  prenoteReturned: (returnCode: string | null) => `Its prenote was returned (${returnCodeText(returnCode)}): the borrower must add another account.`,
  scheduled: (day: string) => `Scheduled to settle on ${formatDay(day)}: it goes in the file effective that day.`,
  restricted: (r: AccountRestriction) => restrictionReason(r),
} as const;

/** Why a debit from an account that is not validated waits (a debit never goes before its account is validated). */
function notValidatedReason(v: AccountValidationView | undefined): string {
  if (v?.status === "sent" && v.effectiveDate && v.readyOn) return ACH_SKIP_REASONS.prenoteSent(v.effectiveDate, v.readyOn);
  if (v?.status === "failed") return ACH_SKIP_REASONS.prenoteReturned(v.returnCode);
  // Queued, or none yet: Create ACH Batch queues a prenote for an account that has none.
  return ACH_SKIP_REASONS.prenoteQueued;
}

export type { AchBatchSummary, AchPageData, BatchCredit, BatchEntry, BatchPrenote, PendingDebit, PendingPrenote, RefundDue };

const masked = (last4: string | null) => (last4 ? `••••${last4}` : null);

/** A bank account as a file's entry needs it: holder, type and sealed numbers (null when none is on file). */
type SealedAccount = { holder: string | null; accountType: string | null; accountNumber: string | null; routingNumber: string | null };

type Candidate = SealedAccount & {
  paymentId: string;
  loanId: string;
  amountCents: number;
  bankAccountId: string | null;
  /** The day an autopay debit or a retry is to settle (null: as soon as possible). */
  scheduledOn: string | null;
  paymentType: WebPaymentType | null;
  retryOf: string | null;
};

type Assessed = { paymentId: string; debit: NachaEntry | null; skipReason: string | null };

/**
 * The account's numbers decrypted and checked for a file (a valid routing number, 1–17 letters or
 * digits, a name the file can carry), or why they cannot go in one: the same rule for every kind of entry.
 */
function sendableAccount(a: SealedAccount): { ok: true; routingNumber: string; accountNumber: string; accountType: "checking" | "savings"; holder: string } | { ok: false; reason: string } {
  if (a.accountNumber === null || a.routingNumber === null) return { ok: false, reason: ACH_SKIP_REASONS.noAccount };
  const account = decryptOrLegacy(a.accountNumber, ENCRYPTION_PURPOSES.accountNumber);
  const routing = decryptOrLegacy(a.routingNumber, ENCRYPTION_PURPOSES.routingNumber);
  if (!account.ok || !routing.ok) return { ok: false, reason: ACH_SKIP_REASONS.unreadable };
  if (!isValidRoutingNumber(routing.value)) return { ok: false, reason: ACH_SKIP_REASONS.invalidRouting };
  if (!/^[0-9A-Za-z-]{1,17}$/.test(account.value)) return { ok: false, reason: ACH_SKIP_REASONS.invalidAccount };
  if (!nachaName(a.holder ?? "")) return { ok: false, reason: ACH_SKIP_REASONS.blankName };
  return { ok: true, routingNumber: routing.value, accountNumber: account.value, accountType: a.accountType === "savings" ? "savings" : "checking", holder: a.holder! };
}

/**
 * Whether each pending debit can go in a file effective on `effectiveDate`: one rule for the page
 * (why a debit stays pending) and for Create ACH Batch (what goes in). Each loan's payoff on that day
 * comes from its ledger, so a debit never asks for more than is owed when it settles; the account must
 * be validated (a prenote past its wait, or another method staff recorded) before its first debit.
 */
async function assessDebits(db: DbOrTx, candidates: Candidate[], effectiveDate: string, validations: Map<string, AccountValidationView>): Promise<Assessed[]> {
  const restrictions = await accountRestrictions(candidates.map((c) => c.bankAccountId), db);
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
    // A debit to settle on a later day waits for the file effective that day (never early).
    if (c.scheduledOn !== null && c.scheduledOn > effectiveDate) {
      skip(ACH_SKIP_REASONS.scheduled(c.scheduledOn));
      continue;
    }
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
    if (c.bankAccountId === null || c.accountNumber === null || c.routingNumber === null) {
      skip(ACH_SKIP_REASONS.noAccount);
      continue;
    }
    const restriction = restrictions.get(c.bankAccountId);
    if (restriction) {
      skip(ACH_SKIP_REASONS.restricted(restriction));
      continue;
    }
    const validation = validations.get(c.bankAccountId);
    if (!isValidated(validation)) {
      skip(notValidatedReason(validation));
      continue;
    }
    const account = sendableAccount(c);
    if (!account.ok) skip(account.reason);
    else
      out.push({
        paymentId: c.paymentId,
        skipReason: null,
        // The borrower authorised the debit on the website: a WEB entry, single (Make a Payment) or
        // recurring (autopay); a re-presented debit carries the description Nacha requires.
        debit: {
          secCode: "WEB",
          paymentType: c.paymentType ?? "S",
          ...(c.retryOf !== null ? { entryDescription: RETRY_ENTRY_DESCRIPTION } : {}),
          direction: "debit",
          routingNumber: account.routingNumber,
          accountNumber: account.accountNumber,
          accountType: account.accountType,
          amountCents: c.amountCents,
          individualId: individualIdFor(c.loanId),
          individualName: account.holder,
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
  scheduledOn: loanPayments.scheduledOn,
  paymentType: loanPayments.paymentType,
  retryOf: loanPayments.retryOf,
};

/** The debits with their bank accounts' holder, type, sealed numbers and last 4 (null when none is on file): one query. */
async function withAccounts<T extends Pick<Candidate, "paymentId" | "loanId" | "amountCents" | "scheduledOn" | "paymentType" | "retryOf"> & { bankAccountId: string | null }>(rows: T[], db: DbOrTx) {
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
  const [rows, borrowers, validations] = await Promise.all([withAccounts(payments, db), namesOf(payments.map((p) => p.userId), db), accountValidations(payments.map((p) => p.bankAccountId), db)]);
  const assessed = new Map((await assessDebits(db, rows, effectiveDate, validations)).map((a) => [a.paymentId, a.skipReason]));
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

/** The newest loan of each application (a prenote's account belongs to an application; its loan is what the entry names). */
async function loansOfApplications(applicationIds: readonly string[], db: DbOrTx): Promise<Map<string, string>> {
  const wanted = [...new Set(applicationIds)];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .select({ id: approvedLoans.id, applicationId: approvedLoans.applicationId })
    .from(approvedLoans)
    .where(inArray(approvedLoans.applicationId, wanted))
    .orderBy(asc(approvedLoans.createdAt));
  return new Map(rows.map((r) => [r.applicationId, r.id]));
}

type PrenoteRow = Awaited<ReturnType<typeof lockUnsentPrenotes>>[number];

/** A prenote's entry: zero dollars, its class and direction from the row, the account's numbers, the loan as its id. */
function prenoteEntry(row: PrenoteRow, account: SealedAccount | undefined, loanId: string | undefined): { entry: NachaEntry | null; skipReason: string | null } {
  const sendable = sendableAccount(account ?? { holder: null, accountType: null, accountNumber: null, routingNumber: null });
  if (!sendable.ok) return { entry: null, skipReason: sendable.reason };
  const fields = {
    direction: row.direction ?? (row.secCode === "WEB" ? "debit" : "credit"),
    prenote: true,
    routingNumber: sendable.routingNumber,
    accountNumber: sendable.accountNumber,
    accountType: sendable.accountType,
    amountCents: 0,
    individualId: individualIdFor(loanId ?? row.bankAccountId),
    individualName: sendable.holder,
  } as const;
  // A debit prenote announces the borrower's single online payments: WEB, Payment Type S like them.
  const entry: NachaEntry = row.secCode === "WEB" ? { ...fields, secCode: "WEB", paymentType: "S" } : { ...fields, secCode: row.secCode === "CCD" ? "CCD" : "PPD" };
  return { entry, skipReason: null };
}

/** Prenotes with their accounts, masked facts, borrowers and loans: for the page and for a file. */
async function prenoteDetails(rows: PrenoteRow[], db: DbOrTx) {
  const accounts = await sealedBankAccountsByIds(rows.map((r) => r.bankAccountId), db);
  const [names, loans] = await Promise.all([namesOf([...accounts.values()].map((a) => a.userId), db), loansOfApplications([...accounts.values()].map((a) => a.applicationId), db)]);
  return rows.map((row) => {
    const account = accounts.get(row.bankAccountId);
    const loanId = account ? loans.get(account.applicationId) : undefined;
    return { row, account, loanId: loanId ?? null, borrower: (account && names.get(account.userId)) ?? "—", last4: account?.last4 ?? null, ...prenoteEntry(row, account, loanId) };
  });
}

/** /admin/ach: the pending debits and prenotes (with why any would be left out), the refunds due, the last 50 batches with their entries. */
export async function loadAchPage(db: Db = getDb(), today: string = todayUtc()): Promise<AchPageData> {
  // Prenotes past their wait count as validated before the page says which debits can go.
  await validateMaturedPrenotes(db, today);
  const nextEffectiveDate = nextBankingDay(today);
  const batchRows = await db
    .select({
      id: achBatches.id,
      fileName: achBatches.fileName,
      createdAt: achBatches.createdAt,
      createdById: achBatches.createdBy,
      entryCount: achBatches.entryCount,
      totalCents: achBatches.totalCents,
      creditTotalCents: achBatches.creditTotalCents,
      effectiveDate: achBatches.effectiveDate,
    })
    .from(achBatches)
    .orderBy(desc(achBatches.createdAt), desc(achBatches.id))
    .limit(50);
  const ids = batchRows.map((b) => b.id);
  const [payments, prenoteRows, fundings] = ids.length
    ? await Promise.all([
        db
          .select({
            batchId: loanPayments.achBatchId,
            paymentId: loanPayments.id,
            ...columnsOf(loanPayments, ["loanId", "userId", "bankAccountId", "amountCents", "status", "receivedOn", "returnCode", "returnedOn", "refundedOn"]),
          })
          .from(loanPayments)
          .where(inArray(loanPayments.achBatchId, ids))
          .orderBy(asc(loanPayments.createdAt), asc(loanPayments.id)),
        prenotesOfBatches(ids, db),
        // The funding credits are read-only here: the loan page settles or returns them.
        db
          .select({ ...columnsOf(loanFundings, ["id", "loanId", "bankAccountId", "amountCents", "status", "secCode", "settledOn", "returnedOn", "returnCode"]), batchId: loanFundings.achBatchId })
          .from(loanFundings)
          .where(inArray(loanFundings.achBatchId, ids))
          .orderBy(asc(loanFundings.preparedAt), asc(loanFundings.id)),
      ])
    : [[], [], []];
  const fundedLoans = fundings.length ? await db.select({ id: approvedLoans.id, userId: approvedLoans.userId }).from(approvedLoans).where(inArray(approvedLoans.id, fundings.map((f) => f.loanId))) : [];
  const loanOwners = new Map(fundedLoans.map((l) => [l.id, l.userId]));
  const [names, accounts, prenotes, pendingPrenoteRows] = await Promise.all([
    namesOf([...batchRows.map((b) => b.createdById), ...payments.map((p) => p.userId), ...fundedLoans.map((l) => l.userId)], db),
    bankAccountsByIds([...payments.map((p) => p.bankAccountId), ...fundings.map((f) => f.bankAccountId)], db),
    prenoteDetails(prenoteRows, db),
    unsentPrenotes(db).then((rows) => prenoteDetails(rows, db)),
  ]);
  const batches = batchRows.map(({ createdById, ...b }) => ({ ...b, createdBy: (createdById && names.get(createdById)) ?? null }));
  const entries = payments.flatMap(({ userId, bankAccountId, ...p }) => {
    const borrower = names.get(userId);
    const last4 = (bankAccountId && accounts.get(bankAccountId)?.last4) || null;
    return borrower === undefined ? [] : [{ ...p, borrower, last4 }];
  });
  const batchPrenote = (p: (typeof prenotes)[number]): BatchPrenote => ({
    validationId: p.row.id,
    loanId: p.loanId,
    borrower: p.borrower,
    accountMasked: masked(p.last4),
    secCode: p.row.secCode ?? "PPD",
    direction: p.row.direction ?? "credit",
    status: p.row.status,
    method: p.row.method,
    readyOn: p.row.status === "sent" && p.row.effectiveDate ? prenoteReadyOn(p.row.effectiveDate) : null,
    validatedAt: p.row.validatedAt?.toISOString() ?? null,
    returnCode: p.row.returnCode,
    returnedOn: p.row.returnedOn,
  });
  const [pending, refunds] = await Promise.all([pendingDebits(db, nextEffectiveDate), refundsDue(db)]);
  return {
    today,
    nextEffectiveDate,
    pending,
    pendingPrenotes: pendingPrenoteRows.map((p) => ({
      validationId: p.row.id,
      loanId: p.loanId,
      borrower: p.borrower,
      accountMasked: masked(p.last4),
      secCode: p.row.secCode ?? "PPD",
      direction: p.row.direction ?? "credit",
      queuedAt: p.row.createdAt.toISOString(),
      skipReason: p.skipReason,
    })),
    refundsDue: refunds,
    batches: batches.map((b) => ({
      ...b,
      createdAt: b.createdAt.toISOString(),
      entries: entries
        .filter((e) => e.batchId === b.id)
        .map(({ batchId: _batchId, last4, ...e }) => ({ ...e, accountMasked: masked(last4) })),
      prenotes: prenotes.filter((p) => p.row.achBatchId === b.id).map(batchPrenote),
      credits: fundings
        .filter((f) => f.batchId === b.id)
        .map((f) => ({
          fundingId: f.id,
          loanId: f.loanId,
          borrower: names.get(loanOwners.get(f.loanId) ?? "") ?? "—",
          amountCents: f.amountCents,
          accountMasked: masked(accounts.get(f.bankAccountId)?.last4 ?? null),
          secCode: f.secCode,
          status: f.status,
          settledOn: f.settledOn,
          returnedOn: f.returnedOn,
          returnCode: f.returnCode,
        })),
    })),
  };
}

export type SkippedDebit = { paymentId: string; reason: string };
/** A prenote or credit the file leaves out, with why (it stays queued). */
export type SkippedEntry = { kind: EntryKind; id: string; reason: string };

export type CreateBatchResult =
  | {
      ok: true;
      batchId: string;
      fileName: string;
      entryCount: number;
      /** The debits' total. */
      totalCents: number;
      creditTotalCents: number;
      /** How many entries of each kind the file carries. */
      counts: Record<EntryKind, number>;
      effectiveDate: string;
      skipped: SkippedDebit[];
      skippedOther: SkippedEntry[];
    }
  | { ok: false; message: string; skipped: SkippedDebit[]; skippedOther: SkippedEntry[] };

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

export type EntryKind = "debit" | "prenote" | "credit";

/**
 * One kind of entry a file carries: its rows (already locked by the caller's transaction), each with
 * its entry or why it stays out, and the claim that marks the rows sent in a batch (one conditional
 * UPDATE returning how many it claimed; all of them, since the rows are locked).
 */
export type EntrySource = {
  kind: EntryKind;
  rows: { id: string; entry: NachaEntry | null; skipReason: string | null }[];
  /** traces: each claimed row's trace number in the file, stored by the same UPDATE (one write per row, so a transaction waiting on the row cannot deadlock with a second write). */
  claim: (ids: string[], batchId: string, effectiveDate: string, traces: ReadonlyMap<string, string>) => Promise<number>;
};

/** The funding credits of the next file: the released, unbatched credits of the loans' net proceeds (funding.server.ts). */
async function creditSources(tx: DbOrTx): Promise<EntrySource[]> {
  const credits = await fundingCreditsForBatch(tx);
  return [
    {
      kind: "credit",
      rows: credits.map((c) => ({ id: c.fundingId, entry: c.entry, skipReason: c.skipReason })),
      claim: async (ids, batchId, _effectiveDate, traces) => {
        await claimFundingCredits(tx, ids, batchId, traces);
        return ids.length;
      },
    },
  ];
}

/**
 * Create ACH Batch: every pending, unbatched entry that passes the checks above (borrower debits from
 * validated accounts, queued prenotes, released funding credits) goes into one new NACHA file; the
 * rest stay pending and are returned with their reasons. A pending debit from an account with no
 * validation at all (an account from before validation, never debited) gets its prenote queued here,
 * in this file. Two admins at once: the row locks (SKIP LOCKED) and the conditional claims give each
 * row to one batch; the other finds nothing.
 */
export async function createAchBatch(
  caller: Caller,
  db: Db = getDb(),
  now: Date = new Date(),
  /** Where the file's credits come from: the funding module's released credits unless a test passes its own. */
  credits: (tx: DbOrTx) => Promise<EntrySource[]> = creditSources,
): Promise<CreateBatchResult> {
  const { actor, request } = caller;
  const today = todayUtc(now);
  // Prenotes past their wait count as validated before the debits from their accounts are assessed.
  await validateMaturedPrenotes(db, today, now);
  return db.transaction(async (tx) => {
    const effectiveDate = nextBankingDay(today);
    const candidates = await withAccounts(
      await tx
        .select(candidateColumns)
        .from(loanPayments)
        .where(pendingUnsent)
        .orderBy(asc(loanPayments.createdAt), asc(loanPayments.id))
        .for("update", { of: loanPayments, skipLocked: true }),
      tx,
    );
    const validations = await accountValidations(candidates.map((c) => c.bankAccountId), tx);
    // In id order, so two batches at once queueing prenotes of the same accounts cannot deadlock.
    const unvalidated = [...new Set(candidates.map((c) => c.bankAccountId).filter((id): id is string => id !== null && !validations.has(id)))].sort();
    for (const id of unvalidated) await requestAccountValidation(tx, id, { secCode: "WEB", direction: "debit" }, caller);

    const debits = await assessDebits(tx, candidates, effectiveDate, validations);
    const prenotes = await prenoteDetails(await lockUnsentPrenotes(tx), tx);
    const sources: EntrySource[] = [
      {
        kind: "debit",
        rows: debits.map((d) => ({ id: d.paymentId, entry: d.debit, skipReason: d.skipReason })),
        claim: async (ids, batchId, _effectiveDate, traces) =>
          (
            await tx
              .update(loanPayments)
              .set({ achBatchId: batchId, achTraceNumber: traceNumberOf(loanPayments.id, traces) })
              .where(and(inArray(loanPayments.id, ids), eq(loanPayments.status, "pending"), isNull(loanPayments.achBatchId)))
              .returning({ id: loanPayments.id })
          ).length,
      },
      { kind: "prenote", rows: prenotes.map((p) => ({ id: p.row.id, entry: p.entry, skipReason: p.skipReason })), claim: (ids, batchId, effective, traces) => claimPrenotes(tx, ids, batchId, effective, now, traces) },
      ...(await credits(tx)),
    ];

    const ready = sources.flatMap((s) => s.rows.filter((r): r is typeof r & { entry: NachaEntry } => r.entry !== null).map((r) => ({ kind: s.kind, id: r.id, entry: r.entry })));
    const skippedRows = sources.flatMap((s) => s.rows.filter((r) => r.entry === null).map((r) => ({ kind: s.kind, id: r.id, reason: r.skipReason ?? "Not sendable." })));
    const skipped = skippedRows.filter((s) => s.kind === "debit").map((s) => ({ paymentId: s.id, reason: s.reason }));
    const skippedOther = skippedRows.filter((s) => s.kind !== "debit");
    if (ready.length === 0) {
      const any = sources.some((s) => s.rows.length > 0);
      return { ok: false, message: any ? ACH_MESSAGES.nothingSendable : ACH_MESSAGES.nothingPending, skipped, skippedOther };
    }

    const originator = getConfig().ach;
    const firstTraceSequence = await reserveTraceSequences(tx, originator.originatingDfi, today, ready.length);
    const [{ n } = { n: 0 }] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(achBatches)
      .where(sql`(${achBatches.createdAt} at time zone 'UTC')::date = ${today}::date`);
    const fileIdModifier = modifierFor(Number(n));
    const file = buildNachaFile({ originator, entries: ready.map((r) => r.entry), createdAt: now, effectiveDate, fileIdModifier, firstTraceSequence });
    const batchId = randomUUID();
    const fileName = `ach-${today.replace(/-/g, "")}-${fileIdModifier}-${batchId.slice(0, 8)}`;
    await tx.insert(achBatches).values({
      id: batchId,
      createdBy: actor.id,
      createdAt: now,
      entryCount: file.entryCount,
      totalCents: file.totalDebitCents,
      creditTotalCents: file.totalCreditCents,
      fileName,
      effectiveDate,
      content: encryptField(file.content, ENCRYPTION_PURPOSES.achFile),
      originatorId: originator.companyId,
    });
    const counts: Record<EntryKind, number> = { debit: 0, prenote: 0, credit: 0 };
    // Each entry keeps its trace number, so the bank's return file can name it.
    const traces = new Map(ready.map((r, index) => [r.id, file.traceNumbers[index]!]));
    for (const source of sources) {
      const ids = ready.filter((r) => r.kind === source.kind).map((r) => r.id);
      if (ids.length === 0) continue;
      const claimed = await source.claim(ids, batchId, effectiveDate, traces);
      // The rows are locked by this transaction, so all are claimed; anything else is a bug to roll back.
      if (claimed !== ids.length) throw new Error(`ACH batch: a locked ${source.kind} entry could not be claimed`);
      counts[source.kind] += ids.length;
    }
    await writeAudit(tx, {
      actor,
      action: "ach.export",
      table: "ach_batches",
      recordId: batchId,
      details: {
        event: "create",
        fileName,
        count: file.entryCount,
        totalCents: file.totalDebitCents,
        creditTotalCents: file.totalCreditCents,
        counts,
        effectiveDate,
        firstTraceSequence,
        skipped: skipped.length,
        skippedOther: skippedOther.length,
      },
      request,
    });
    return { ok: true, batchId, fileName, entryCount: file.entryCount, totalCents: file.totalDebitCents, creditTotalCents: file.totalCreditCents, counts, effectiveDate, skipped, skippedOther };
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
