import { createHash } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import { todayUtc } from "~/domain/dates";
import { writeAudit, type AuditActor, type Caller } from "~/server/platform/audit/audit.server";
import { ENCRYPTION_PURPOSES } from "~/server/platform/crypto/encryption-purposes.server";
import { getDb, type Db, type DbOrTx } from "~/server/platform/db/client.server";
import { achBatches, achReturnImports, bankAccountValidations, loanFundings, loanPayments } from "~/server/platform/db/schema.server";
import { AppError, isAppError } from "~/server/platform/http/app-error.server";
import { decryptOrLegacy } from "~/server/staff/index.server";
import { readReturnFile, sentEntriesByTrace, type ReturnEntry, type ReturnFileLineError, type SentEntry } from "./ach-return-file.server";
import { returnPrenote } from "./account-validations.server";
import { returnFunding } from "./funding.server";
import { returnPayment } from "./payments.server";

/**
 * Import Return File (npm run ach:returns, the upload on /admin/ach): every returned entry of the
 * bank's file is matched to the entry we sent (its original trace number, then the amount, account and
 * receiving bank our stored file says) and checked BEFORE anything changes; any bad line refuses the
 * whole file with each bad line's number and reason. Then, all or nothing in one transaction: each debit
 * is returned (returnPayment reacts by code), each prenote (returnPrenote) and each funding credit
 * (returnFunding), on the return batch's effective entry date (today when that is later), the file is
 * recorded once (its SHA-256 is unique: the same file twice, even at once, imports once), and one audit
 * row keeps the counts (never a number from the file).
 *
 * Trace numbers repeat from day to day (a sequence per originator and day), so one original trace may
 * name several of our entries: the one whose amount, account and bank match, still returnable, sent
 * in the most recent file effective on or before the return, is the one returned.
 */

export const ACH_RETURN_IMPORT_MESSAGES = {
  refused: "The return file was refused and nothing was changed. Correct these lines:",
  alreadyImported: "This return file was already imported (the same file, byte for byte). Nothing was changed.",
  neverSent: (trace: string) => `No entry we sent has the original trace number ${trace}.`,
  mismatch: (trace: string, what: string) => `The ${what} does not match the entry we sent with trace number ${trace}.`,
  duplicateInFile: (trace: string, line: number) => `The entry with trace number ${trace} is returned twice in this file (first on line ${line}).`,
  alreadyReturned: (trace: string) => `The entry with trace number ${trace} was already returned.`,
  notReturnable: (trace: string, status: string) => `The entry with trace number ${trace} cannot be returned: it is ${status.replace(/_/g, " ")}.`,
  beforeSent: (trace: string, effective: string) => `The return is dated before the entry with trace number ${trace} took effect (${effective}).`,
} as const;

/** A refused return file: 400 with every bad line (line 0: the file as a whole). */
export class AchReturnFileRefused extends AppError {
  constructor(readonly lines: ReturnFileLineError[]) {
    super("ach_return_file", 400, lines.length === 1 && lines[0]!.line === 0 ? lines[0]!.reason : ACH_RETURN_IMPORT_MESSAGES.refused);
  }
}

/** One sent entry a return can name: a debit (loan_payments), a prenote (bank_account_validations) or a funding credit (loan_fundings). */
type Target = { kind: "debit" | "prenote" | "credit"; id: string; loanId: string | null; status: string; batchId: string; effectiveDate: string; trace: string; sent: SentEntry | undefined };

export type AchReturnImportResult = { importId: string; entryCount: number; debits: number; prenotes: number; credits: number };

const RETURNABLE: Record<Target["kind"], readonly string[]> = {
  // A settled debit can still come back (a late return: an unauthorised one within 60 days).
  debit: ["pending", "posted"],
  // A prenote counted validated after its wait can still come back: the account is wrong after all.
  prenote: ["sent", "validated"],
  credit: ["sent"],
};

const RETURNED: Record<Target["kind"], readonly string[]> = { debit: ["returned"], prenote: ["failed"], credit: ["returned"] };

/** Every sent entry carrying one of these trace numbers, with its file's effective date and our file's copy of the entry. */
async function targetsOf(db: DbOrTx, traces: string[]): Promise<Map<string, Target[]>> {
  const [payments, prenotes, credits] = await Promise.all([
    db
      .select({ id: loanPayments.id, loanId: loanPayments.loanId, status: loanPayments.status, batchId: loanPayments.achBatchId, trace: loanPayments.achTraceNumber })
      .from(loanPayments)
      .where(inArray(loanPayments.achTraceNumber, traces)),
    db
      .select({ id: bankAccountValidations.id, status: bankAccountValidations.status, batchId: bankAccountValidations.achBatchId, trace: bankAccountValidations.achTraceNumber })
      .from(bankAccountValidations)
      .where(inArray(bankAccountValidations.achTraceNumber, traces)),
    db
      .select({ id: loanFundings.id, loanId: loanFundings.loanId, status: loanFundings.status, batchId: loanFundings.achBatchId, trace: loanFundings.achTraceNumber })
      .from(loanFundings)
      .where(inArray(loanFundings.achTraceNumber, traces)),
  ]);
  const rows = [
    ...payments.map((r) => ({ ...r, kind: "debit" as const })),
    ...prenotes.map((r) => ({ ...r, loanId: null, kind: "prenote" as const })),
    ...credits.map((r) => ({ ...r, kind: "credit" as const })),
  ].filter((r): r is typeof r & { batchId: string; trace: string } => r.batchId !== null && r.trace !== null);
  const batchIds = [...new Set(rows.map((r) => r.batchId))];
  const batches = batchIds.length
    ? await db.select({ id: achBatches.id, effectiveDate: achBatches.effectiveDate, content: achBatches.content }).from(achBatches).where(inArray(achBatches.id, batchIds))
    : [];
  const files = new Map(
    batches.map((b) => {
      const content = decryptOrLegacy(b.content, ENCRYPTION_PURPOSES.achFile);
      return [b.id, { effectiveDate: b.effectiveDate, entries: content.ok ? sentEntriesByTrace(content.value) : new Map<string, SentEntry>() }];
    }),
  );
  const out = new Map<string, Target[]>();
  for (const r of rows) {
    const file = files.get(r.batchId);
    if (!file) continue;
    const list = out.get(r.trace) ?? [];
    list.push({ kind: r.kind, id: r.id, loanId: r.loanId, status: r.status, batchId: r.batchId, effectiveDate: file.effectiveDate, trace: r.trace, sent: file.entries.get(r.trace) });
    out.set(r.trace, list);
  }
  return out;
}

/** What of a return entry differs from the entry we sent (null: it matches). */
function mismatchOf(entry: ReturnEntry, sent: SentEntry | undefined): string | null {
  if (!sent) return "stored file";
  if (entry.amountCents !== sent.amountCents) return "amount";
  if (entry.accountNumber.toUpperCase() !== sent.accountNumber.toUpperCase() || entry.originalReceivingDfi !== sent.receivingDfi) return "account";
  return null;
}

type Planned = { entry: ReturnEntry; target: Target; returnedOn: string };

/** Matches every entry to the one we sent, or says why the line is refused. Reads only. */
async function planReturns(db: DbOrTx, entries: ReturnEntry[], today: string): Promise<{ planned: Planned[]; errors: ReturnFileLineError[] }> {
  const targets = await targetsOf(db, [...new Set(entries.map((e) => e.originalTrace))]);
  const errors: ReturnFileLineError[] = [];
  const planned: Planned[] = [];
  const firstLine = new Map<string, number>();
  for (const entry of entries) {
    const trace = entry.originalTrace;
    const bad = (reason: string) => errors.push({ line: entry.line, reason });
    const seen = firstLine.get(trace);
    if (seen !== undefined) {
      bad(ACH_RETURN_IMPORT_MESSAGES.duplicateInFile(trace, seen));
      continue;
    }
    firstLine.set(trace, entry.line);
    // The bank's effective date can be the next banking day; a return is never dated in the future.
    const returnedOn = entry.effectiveDate > today ? today : entry.effectiveDate;
    const candidates = targets.get(trace) ?? [];
    if (candidates.length === 0) {
      bad(ACH_RETURN_IMPORT_MESSAGES.neverSent(trace));
      continue;
    }
    const matching = candidates.filter((c) => mismatchOf(entry, c.sent) === null);
    if (matching.length === 0) {
      bad(ACH_RETURN_IMPORT_MESSAGES.mismatch(trace, mismatchOf(entry, candidates[0]!.sent)!));
      continue;
    }
    const newestFirst = [...matching].sort((a, b) => b.effectiveDate.localeCompare(a.effectiveDate));
    const returnable = newestFirst.filter((c) => RETURNABLE[c.kind].includes(c.status));
    const target = returnable.find((c) => c.effectiveDate <= returnedOn);
    if (target) {
      planned.push({ entry, target, returnedOn });
      continue;
    }
    if (returnable.length > 0) bad(ACH_RETURN_IMPORT_MESSAGES.beforeSent(trace, returnable[returnable.length - 1]!.effectiveDate));
    else if (newestFirst.some((c) => RETURNED[c.kind].includes(c.status))) bad(ACH_RETURN_IMPORT_MESSAGES.alreadyReturned(trace));
    else bad(ACH_RETURN_IMPORT_MESSAGES.notReturnable(trace, newestFirst[0]!.status));
  }
  return { planned, errors };
}

/** The file's name as stored: no control characters (a NUL never reaches PostgreSQL), at most 200 characters. */
function storedName(fileName: string): string {
  // eslint-disable-next-line no-control-regex
  return fileName.replace(/[\u0000-\u001f\u007f]/g, "").trim().slice(0, 200) || "return file";
}

/** The file's hash: what makes it the same file. */
export function returnFileSha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

async function alreadyImported(db: DbOrTx, sha256: string): Promise<boolean> {
  const [row] = await db.select({ id: achReturnImports.id }).from(achReturnImports).where(eq(achReturnImports.sha256, sha256)).limit(1);
  return row !== undefined;
}

/**
 * Imports a return file (see the module comment). `caller.actor` null: the system (the command line
 * without --by); the services it calls then record no person. Throws AchReturnFileRefused (400, with
 * the lines) when anything in the file is wrong; nothing has changed then.
 */
export async function importAchReturns(text: string, fileName: string, caller: Caller<AuditActor | null>, db: Db = getDb(), today: string = todayUtc()): Promise<AchReturnImportResult> {
  const read = readReturnFile(text);
  if (!read.ok) throw new AchReturnFileRefused(read.errors);
  const sha256 = returnFileSha256(text);
  if (await alreadyImported(db, sha256)) throw new AchReturnFileRefused([{ line: 0, reason: ACH_RETURN_IMPORT_MESSAGES.alreadyImported }]);
  const first = await planReturns(db, read.entries, today);
  if (first.errors.length > 0) throw new AchReturnFileRefused(first.errors);

  // The services take a person; the system's own import records none (its audit rows say who ran it).
  const serviceCaller = { actor: caller.actor ?? SYSTEM_ACTOR, request: caller.request } as Caller;
  return db.transaction(async (tx) => {
    const [imported] = await tx
      .insert(achReturnImports)
      .values({ fileName: storedName(fileName), sha256, entryCount: read.entries.length, importedBy: caller.actor?.id ?? null })
      .onConflictDoNothing()
      .returning({ id: achReturnImports.id });
    if (!imported) throw new AchReturnFileRefused([{ line: 0, reason: ACH_RETURN_IMPORT_MESSAGES.alreadyImported }]);
    // Planned again inside the transaction: an entry returned by hand since the check is refused, not returned twice.
    const { planned, errors } = await planReturns(tx, read.entries, today);
    const counts = { debits: 0, prenotes: 0, credits: 0 };
    for (const { entry, target, returnedOn } of planned) {
      try {
        if (target.kind === "debit") {
          await returnPayment(target.id, entry.returnCode, returnedOn, serviceCaller, tx as unknown as Db, today);
          counts.debits++;
        } else if (target.kind === "prenote") {
          await returnPrenote(target.id, entry.returnCode, returnedOn, serviceCaller, tx as unknown as Db, today);
          counts.prenotes++;
        } else {
          await returnFunding(target.loanId!, { returnCode: entry.returnCode, returnedOn }, serviceCaller, tx as unknown as Db, today);
          counts.credits++;
        }
      } catch (error) {
        if (!isAppError(error)) throw error;
        errors.push({ line: entry.line, reason: error.message });
      }
    }
    if (errors.length > 0) throw new AchReturnFileRefused(errors.sort((a, b) => a.line - b.line));
    await writeAudit(tx, {
      actor: caller.actor,
      action: "ach.return_import",
      table: "ach_return_imports",
      recordId: imported.id,
      details: { entryCount: read.entries.length, ...counts, system: caller.actor === null },
      request: caller.request,
    });
    return { importId: imported.id, entryCount: read.entries.length, ...counts };
  });
}

/**
 * The actor the services record when the system imports a file from the command line: no account (its
 * id is null in every row that names a person), the name says what acted.
 */
const SYSTEM_ACTOR = { id: null, name: "System (ach:returns)", email: "" } as unknown as AuditActor;
