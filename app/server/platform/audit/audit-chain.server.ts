import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import type { DbOrTx } from "~/server/platform/db/client.server";

/**
 * The audit log's hash chain (decision 0035). The database seals each row at commit
 * (drizzle/0009_staff_roles.sql: chain_seq, prev_hash, row_hash = SHA-256 of the row's canonical text).
 * This walks the chain in order and recomputes every hash here, in JavaScript, from the raw columns:
 * a row changed, inserted or deleted behind the application's back (by someone able to bypass the
 * append-only trigger) breaks the chain at that row or the one after it, and the first such row is named.
 */

export type AuditChainRow = {
  id: string;
  chainSeq: string | null;
  prevHash: string | null;
  rowHash: string | null;
  actorId: string | null;
  actorName: string | null;
  actorEmail: string | null;
  action: string;
  tableName: string | null;
  recordId: string | null;
  detailsText: string;
  ipAddress: string | null;
  userAgent: string | null;
  createdText: string;
};

export type AuditChainBreak = { id: string; chainSeq: string | null; reason: string };
export type AuditChainResult = { ok: true; rows: number } | { ok: false; rows: number; broken: AuditChainBreak };

const field = (value: string | null): string => (value === null ? "~" : `${Buffer.byteLength(value, "utf8")}:${value}`);

/** The canonical text the database hashes (audit_log_canonical), rebuilt from the columns. */
export function canonicalAuditText(row: AuditChainRow, seq: string, prevHash: string | null): string {
  return [
    seq,
    prevHash ?? "~",
    row.id,
    field(row.actorId),
    field(row.actorName),
    field(row.actorEmail),
    field(row.action),
    field(row.tableName),
    field(row.recordId),
    field(row.detailsText),
    field(row.ipAddress),
    field(row.userAgent),
    row.createdText,
  ].join("|");
}

export function auditRowHash(row: AuditChainRow, seq: string, prevHash: string | null): string {
  return createHash("sha256").update(canonicalAuditText(row, seq, prevHash), "utf8").digest("hex");
}

const COLUMNS = sql.raw(`id::text as "id", chain_seq::text as "chainSeq", prev_hash as "prevHash", row_hash as "rowHash",
  actor_id as "actorId", actor_name as "actorName", actor_email as "actorEmail", action, table_name as "tableName",
  record_id as "recordId", details::text as "detailsText", ip_address as "ipAddress", user_agent as "userAgent",
  to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "createdText"`);

async function rowsOf(db: DbOrTx, query: ReturnType<typeof sql>): Promise<AuditChainRow[]> {
  const result = (await db.execute(query)) as unknown as { rows?: AuditChainRow[] } | AuditChainRow[];
  return Array.isArray(result) ? result : (result.rows ?? []);
}

/**
 * Verifies the whole chain, `batchSize` rows at a time (constant memory at any size). Every committed
 * row is sealed before its transaction commits, so an unsealed row is itself a break.
 */
export async function verifyAuditChain(db: DbOrTx, options: { batchSize?: number; onProgress?: (rows: number) => void } = {}): Promise<AuditChainResult> {
  const batchSize = options.batchSize ?? 2000;
  const [unsealed] = await rowsOf(db, sql`select ${COLUMNS} from audit_log where chain_seq is null order by id limit 1`);
  let rows = 0;
  let expectedSeq = 1n;
  let prevHash: string | null = null;
  let after = 0n;
  for (;;) {
    const batch = await rowsOf(db, sql`select ${COLUMNS} from audit_log where chain_seq > ${after.toString()}::bigint order by chain_seq limit ${batchSize}`);
    for (const row of batch) {
      const seq = BigInt(row.chainSeq!);
      const broken = (reason: string): AuditChainResult => ({ ok: false, rows, broken: { id: row.id, chainSeq: row.chainSeq, reason } });
      if (seq !== expectedSeq) return broken(`expected chain position ${expectedSeq} but found ${seq}: a row before it is missing`);
      if (row.prevHash !== prevHash) return broken("its previous-row hash does not match the row before it");
      if (row.rowHash !== auditRowHash(row, row.chainSeq!, prevHash)) return broken("its contents do not match its hash (the row was changed)");
      prevHash = row.rowHash;
      expectedSeq += 1n;
      rows += 1;
    }
    options.onProgress?.(rows);
    if (batch.length < batchSize) break;
    after = BigInt(batch[batch.length - 1]!.chainSeq!);
  }
  if (unsealed) return { ok: false, rows, broken: { id: unsealed.id, chainSeq: null, reason: "it was never sealed into the chain (written with the seal trigger bypassed)" } };
  return { ok: true, rows };
}

export function describeAuditChain(result: AuditChainResult): string {
  if (result.ok) return `Audit chain intact: ${result.rows} row${result.rows === 1 ? "" : "s"} verified.`;
  const { id, chainSeq, reason } = result.broken;
  return `Audit chain BROKEN at audit_log row ${id}${chainSeq ? ` (chain position ${chainSeq})` : ""}: ${reason}. ${result.rows} row${result.rows === 1 ? "" : "s"} before it verified.`;
}
