import { formatMoneyDecimal } from "~/domain/money";
import { APPLICATION_STATUS_LABELS, LOAN_TYPE_LABELS } from "~/domain/labels";
import { rangeInstants, type ReportRange } from "~/domain/validation/reports";
import { writeAudit, type Caller } from "~/server/platform/audit/audit.server";
import { getDb, type Db } from "~/server/platform/db/client.server";
import { auditExportBatch, auditIdBounds } from "~/server/platform/audit/audit-export.server";
import { peopleByIds } from "~/server/accounts/index.server";
import { applicationExportBatch, type ApplicationCursor } from "~/server/applications/index.server";
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

export function applicationsCsvStream(range: ReportRange, db: Db = getDb(), batchRows: number = EXPORT_BATCH_ROWS): ReadableStream<Uint8Array> {
  const { start, end } = rangeInstants(range);
  return keysetCsvStream<{ cursorAt: string; id: string }, ApplicationCursor>(
    APPLICATION_EXPORT_COLUMNS,
    async (after) => {
      const rows = await applicationExportBatch(start, end, after, batchRows, db);
      // The assignees' names, one read for the batch.
      const assignees = await peopleByIds(rows.map((r) => r.assignedToId), db);
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
          r.assignedToId ? (assignees.get(r.assignedToId)?.name ?? "") : "",
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
 * The audit log of the range, oldest first, in id (chain) order; rows written after the export began
 * are left out (its own audit row, written just before, is the last one in). The reads are platform's
 * (audit/audit-export.server.ts, decision 0051).
 */
export async function auditCsvStream(range: ReportRange, db: Db = getDb(), batchRows: number = EXPORT_BATCH_ROWS): Promise<ReadableStream<Uint8Array>> {
  const { start, end } = rangeInstants(range);
  const bounds = await auditIdBounds(start, end, db);
  return keysetCsvStream<{ id: number }, number>(
    AUDIT_EXPORT_COLUMNS,
    async (after) => {
      const rows = await auditExportBatch(start, end, after, bounds, batchRows, db);
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
export async function exportResponse(kind: ExportKind, range: ReportRange, { actor, request }: Caller, method: string, db: Db = getDb()): Promise<Response> {
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
