import { formatMoneyDecimal } from "~/domain/money";
import { and, asc, eq, gt, gte, lt, lte, max, min, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { APPLICATION_STATUS_LABELS, LOAN_TYPE_LABELS } from "~/domain/labels";
import { rangeInstants, type ReportRange } from "~/domain/validation/reports";
import { writeAudit, type AuditActor, type RequestInfo } from "~/server/platform/audit/audit.server";
import { getDb, type Db } from "~/server/platform/db/client.server";
import { auditActivityHourly, auditLog, bankAccounts, loanApplications, user as userTable } from "~/server/platform/db/schema.server";
import { privateDownloadHeaders } from "~/server/platform/http/private-download.server";
import { describeError } from "~/server/platform/log/describe-error.server";
import { csvRow, type CsvValue } from "./csv.server";

/**
 * Export CSV: the applications and the audit log of a date range, streamed. The response
 * body is a pull-based ReadableStream: a batch of EXPORT_BATCH_ROWS rows is read (keyset pagination,
 * never OFFSET) only when the client has taken the previous one, so the server holds one batch at a
 * time whatever the size of the export, and a slow download holds no database connection between
 * batches. Each export is audited before its first byte (decision 0038).
 *
 * Sensitive values never leave the database: the applications query selects whether an SSN is on
 * file and the plaintext last digits kept for masked display, never ssn_encrypted, account_number or
 * routing_number, so nothing is decrypted for an export.
 */

export const EXPORT_BATCH_ROWS = 1000;

export const APPLICATION_EXPORT_COLUMNS = [
  "Application ID",
  "Submitted",
  "Status",
  "Loan Type",
  "Requested Amount",
  "First Name",
  "Last Name",
  "Email",
  "Phone",
  "State",
  "SSN",
  "Bank Account",
  "Routing Number",
  "Assigned To",
  "Reviewed At",
  "Decision Reasons",
] as const;

export const AUDIT_EXPORT_COLUMNS = ["ID", "Time", "Actor Name", "Actor Email", "Action", "Table", "Record ID", "IP Address", "Details", "Chain Seq", "Row Hash"] as const;

export const MASKED_SSN = "***-**-****";

type Batch<Row> = { rows: Row[]; lines: CsvValue[][] };

/**
 * A CSV body that reads the next batch only on demand. `next(after)` returns the batch following the
 * cursor `after` (null: the first); the stream ends on a short batch.
 */
export function keysetCsvStream<Row, Cursor>(
  header: readonly string[],
  next: (after: Cursor | null) => Promise<Batch<Row>>,
  cursorOf: (row: Row) => Cursor,
  batchRows: number = EXPORT_BATCH_ROWS,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cursor: Cursor | null = null;
  let headerSent = false;
  let done = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!headerSent) {
          headerSent = true;
          controller.enqueue(encoder.encode(csvRow(header)));
          return;
        }
        if (done) return;
        try {
          const batch = await next(cursor);
          if (batch.rows.length > 0) {
            cursor = cursorOf(batch.rows[batch.rows.length - 1]!);
            controller.enqueue(encoder.encode(batch.lines.map(csvRow).join("")));
          }
          if (batch.rows.length < batchRows) {
            done = true;
            controller.close();
          }
        } catch (error) {
          // The headers are gone already: the client sees a cut-off download; the log says why.
          console.error(`CSV export failed mid-stream: ${describeError(error)}`);
          done = true;
          controller.error(error);
        }
      },
      cancel() {
        done = true;
      },
    },
    // Nothing read ahead: the next batch is fetched when the consumer asks for it.
    { highWaterMark: 0 },
  );
}

function iso(value: Date | string | null): string | null {
  if (value === null) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

/** The cursor keeps submitted_at as PostgreSQL's own text (microseconds), which a JS Date would cut to milliseconds. */
type ApplicationCursor = { at: string; id: string };

const assignee = alias(userTable, "assignee");

/**
 * The primary bank account, else the first one given (the masked digits only). Correlated on
 * loan_applications.id: the query it is used in must have a join (Drizzle qualifies column names only
 * then; unqualified, "id" would be the bank account's own).
 */
function firstBankAccount(column: typeof bankAccounts.accountNumberLast4 | typeof bankAccounts.routingNumberLast2) {
  return sql<string | null>`(select ${sql.raw(column.name)} from ${bankAccounts} b where b.application_id = ${loanApplications.id} order by b.is_primary desc, b.created_at asc, b.id asc limit 1)`;
}

export function applicationsCsvStream(range: ReportRange, db: Db = getDb(), batchRows: number = EXPORT_BATCH_ROWS): ReadableStream<Uint8Array> {
  const { start, end } = rangeInstants(range);
  return keysetCsvStream<{ cursorAt: string; id: string }, ApplicationCursor>(
    APPLICATION_EXPORT_COLUMNS,
    async (after) => {
      const rows = await db
        .select({
          id: loanApplications.id,
          cursorAt: sql<string>`${loanApplications.submittedAt}::text`,
          submittedAt: loanApplications.submittedAt,
          status: loanApplications.status,
          loanType: loanApplications.loanType,
          requestedAmountCents: loanApplications.requestedAmountCents,
          firstName: loanApplications.firstName,
          lastName: loanApplications.lastName,
          email: loanApplications.email,
          phone: loanApplications.phone,
          state: loanApplications.state,
          hasSsn: sql<boolean>`(${loanApplications.ssnEncrypted} is not null)`,
          accountLast4: firstBankAccount(bankAccounts.accountNumberLast4),
          routingLast2: firstBankAccount(bankAccounts.routingNumberLast2),
          assignedTo: assignee.name,
          reviewedAt: loanApplications.reviewedAt,
          decisionReasons: loanApplications.decisionReasons,
        })
        .from(loanApplications)
        .leftJoin(assignee, eq(assignee.id, loanApplications.assignedTo))
        .where(
          and(
            gte(loanApplications.submittedAt, start),
            lt(loanApplications.submittedAt, end),
            after ? sql`(${loanApplications.submittedAt}, ${loanApplications.id}) > (${after.at}::timestamptz, ${after.id}::uuid)` : undefined,
          ),
        )
        .orderBy(asc(loanApplications.submittedAt), asc(loanApplications.id))
        .limit(batchRows);
      return {
        rows,
        lines: rows.map((r) => [
          r.id,
          iso(r.submittedAt),
          APPLICATION_STATUS_LABELS[r.status],
          LOAN_TYPE_LABELS[r.loanType],
          formatMoneyDecimal(r.requestedAmountCents),
          r.firstName,
          r.lastName,
          r.email,
          r.phone,
          r.state,
          r.hasSsn ? MASKED_SSN : "",
          r.accountLast4 ? `****${r.accountLast4}` : "",
          r.routingLast2 ? `*******${r.routingLast2}` : "",
          r.assignedTo ?? "",
          iso(r.reviewedAt),
          (r.decisionReasons ?? []).join("; "),
        ]),
      };
    },
    (row) => ({ at: row.cursorAt, id: row.id }),
    batchRows,
  );
}

/**
 * The audit log of the range, oldest first. Rows written after the export began are left out (its own
 * audit row, written just before, is the last one in): the upper id bound is read once, so a busy
 * system cannot make the download endless.
 *
 * The rows stream in id (chain) order. For a range of up to a month, between the range's smallest and
 * largest id, which the hourly rollups keep per hour and actor (drizzle/0015; the range is whole UTC
 * days, so whole hours): the first batch starts inside the primary key at the range's first entry
 * instead of walking it from the oldest entry, and the last stops at the range's last entry. Entries are numbered as they are
 * written, so the interval holds the range's entries and, at most, those of transactions that were
 * open across its edges (decision 0051).
 */
/**
 * Ranges up to this long read their id interval from the hourly rollups (at most 744 hours × actors
 * rows). A longer range reads none: the interval would cost a read of every hour of it, and a long
 * range is mostly the whole log anyway, whose oldest entries the primary key finds first.
 */
export const AUDIT_ID_BOUNDS_MAX_DAYS = 31;
const DAY_MS = 86_400_000;

export async function auditCsvStream(range: ReportRange, db: Db = getDb(), batchRows: number = EXPORT_BATCH_ROWS): Promise<ReadableStream<Uint8Array>> {
  const { start, end } = rangeInstants(range);
  const [bound] = await db.select({ maxId: max(auditLog.id) }).from(auditLog);
  let firstId = 0;
  let maxId = Number(bound?.maxId ?? 0);
  if (end.getTime() - start.getTime() <= AUDIT_ID_BOUNDS_MAX_DAYS * DAY_MS) {
    const [ids] = await db
      .select({ first: min(auditActivityHourly.minId), last: max(auditActivityHourly.maxId) })
      .from(auditActivityHourly)
      .where(and(gte(auditActivityHourly.hour, start), lt(auditActivityHourly.hour, end)));
    // No rollup row: no entry in the range (an empty interval leaves every batch empty).
    firstId = ids?.first == null ? 1 : Number(ids.first);
    maxId = ids?.last == null ? 0 : Math.min(maxId, Number(ids.last));
  }
  return keysetCsvStream<{ id: number }, number>(
    AUDIT_EXPORT_COLUMNS,
    async (after) => {
      const rows = await db
        .select({
          id: auditLog.id,
          createdAt: auditLog.createdAt,
          actorName: auditLog.actorName,
          actorEmail: auditLog.actorEmail,
          action: auditLog.action,
          tableName: auditLog.tableName,
          recordId: auditLog.recordId,
          ipAddress: auditLog.ipAddress,
          details: sql<string>`${auditLog.details}::text`,
          chainSeq: auditLog.chainSeq,
          rowHash: auditLog.rowHash,
        })
        .from(auditLog)
        .where(and(gte(auditLog.createdAt, start), lt(auditLog.createdAt, end), after !== null ? gt(auditLog.id, after) : gte(auditLog.id, firstId), lte(auditLog.id, maxId)))
        .orderBy(asc(auditLog.id))
        .limit(batchRows);
      return {
        rows,
        lines: rows.map((r) => [r.id, iso(r.createdAt), r.actorName, r.actorEmail, r.action, r.tableName, r.recordId, r.ipAddress, r.details, r.chainSeq, r.rowHash]),
      };
    },
    (row) => Number(row.id),
    batchRows,
  );
}

export type ExportKind = "applications" | "audit";

/** A streamed CSV download: attachment, never cached, never sniffed; no Content-Length (its size is not known up front). */
export function csvDownloadHeaders(fileName: string): Headers {
  const headers = privateDownloadHeaders(fileName, 0, "text/csv; charset=utf-8");
  headers.delete("Content-Length");
  return headers;
}

/**
 * Audits the export (applications.export / audit.export with the range), then answers with the
 * streamed body. The audit row is committed before the first byte, so an export is never unrecorded.
 */
export async function exportResponse(kind: ExportKind, range: ReportRange, actor: AuditActor, request: RequestInfo, method: string, db: Db = getDb()): Promise<Response> {
  await writeAudit(db, {
    actor,
    action: kind === "applications" ? "applications.export" : "audit.export",
    table: kind === "applications" ? "loan_applications" : "audit_log",
    details: { from: range.from, to: range.to },
    request,
  });
  const headers = csvDownloadHeaders(`${kind}-${range.from}-to-${range.to}.csv`);
  if (method === "HEAD") return new Response(null, { status: 200, headers });
  const body = kind === "applications" ? applicationsCsvStream(range, db) : await auditCsvStream(range, db);
  return new Response(body, { status: 200, headers });
}
