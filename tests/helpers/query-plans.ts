import type { Pool } from "pg";
import { expect } from "vitest";

/**
 * Query-plan assertions for pages at scale (issues 8 and 24): the statements a page view sends through
 * the pool are captured as the real code runs, then EXPLAIN ANALYZEd with their own parameters, so a
 * query added to a page later is checked too. PostgreSQL only: its planner's choices are production's.
 */

/** Tables that grow with the business: none may be read by a sequential scan. */
export const GROWING_TABLES = [
  "user",
  "session",
  "account",
  "profiles",
  "loan_applications",
  "loan_documents",
  "bank_accounts",
  "approved_loans",
  "audit_log",
  "audit_activity_hourly",
  "application_messages",
  "application_events",
  "request_items",
  "loan_offers",
  "loan_payments",
  "loan_fees",
  "contact_messages",
  "application_assignments",
  "approval_proposals",
  "conversation_reads",
  "signed_agreements",
  "esign_consents",
  "servicing_notices",
  "email_outbox",
];

export type Captured = { text: string; values: unknown[] };

export type PlanNode = {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  Plans?: PlanNode[];
};

/** Every node that reads a table or an index, depth first. */
export function scans(node: PlanNode, out: PlanNode[] = []): PlanNode[] {
  if (node["Relation Name"]) out.push(node);
  for (const child of node.Plans ?? []) scans(child, out);
  return out;
}

/** Rows a node handed up over all its loops. */
export function rowsRead(node: PlanNode): number {
  return (node["Actual Rows"] ?? 0) * (node["Actual Loops"] ?? 1);
}

export type StatementCapture = {
  /** Runs `view` with capture on; returns what it returned and the statements it sent. */
  capture<T>(view: () => Promise<T>): Promise<{ result: T; statements: Captured[] }>;
};

/**
 * Wraps `pool.query` (the Better Auth adapter and Drizzle share the pool) and the clients `pool.connect`
 * hands out (transactions run on one) to record statements on demand. With `clients: false`, only
 * `pool.query`: what runs on a client `pool.connect` handed out is not recorded.
 */
export function captureStatements(pool: Pool, { clients = true }: { clients?: boolean } = {}): StatementCapture {
  let captured: Captured[] = [];
  let capturing = false;
  async function capture<T>(view: () => Promise<T>) {
    captured = [];
    capturing = true;
    try {
      const result = await view();
      return { result, statements: captured };
    } finally {
      capturing = false;
    }
  }
  type Querying = { query: (...args: unknown[]) => Promise<unknown> };
  const wrap = (target: Querying) => {
    const original = target.query.bind(target);
    target.query = (...args: unknown[]) => {
      if (capturing) {
        const [first, second] = args;
        // pg takes (text, values) or ({ text, values }); Drizzle passes ({ text, rowMode }, values).
        const config = typeof first === "string" ? { text: first } : (first as { text: string; values?: unknown[] });
        captured.push({ text: config.text, values: config.values ?? (second as unknown[] | undefined) ?? [] });
      }
      return original(...args);
    };
  };
  wrap(pool as unknown as Querying);
  if (!clients) return { capture };
  // Only the promise form is wrapped: pool.query itself connects with a callback, and is wrapped above.
  const wrapped = new WeakSet<object>();
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => Promise<Querying> | undefined;
  (pool as unknown as { connect: (...args: unknown[]) => unknown }).connect = (...args: unknown[]) => {
    if (args.length > 0) return connect(...args);
    return connect()!.then((client) => {
      if (!wrapped.has(client)) {
        wrapped.add(client);
        wrap(client);
      }
      return client;
    });
  };
  return { capture };
}

/** Statements that plan nothing worth checking (transaction control, settings, locks). */
const NOT_A_QUERY = /^\s*(begin|commit|rollback|savepoint|release|set |select set_config|select pg_advisory)/i;

export async function planOf(pool: Pool, statement: Captured): Promise<PlanNode> {
  // Writes are planned, not run again (audit_log is append-only and a second row would be a lie).
  const analyze = /^\s*(select|with)\b/i.test(statement.text) && !/\b(insert|update|delete)\b/i.test(statement.text) ? "analyze, " : "";
  const result = await pool.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(`explain (${analyze}format json) ${statement.text}`, statement.values);
  return result.rows[0]!["QUERY PLAN"][0].Plan;
}

export type Bounds = {
  /** The most table rows any one scan may hand up. */
  rows: number;
  /** The most entries an index-only scan may hand up (defaults to `rows`). */
  indexEntries?: number;
  /** Growing tables a known, documented linear page may still read whole (decision 0044). */
  allowSeqScanOf?: string[];
  /** Per table, a bound of its own instead of `rows` (row_counts: one kept count per due day, bounded by the calendar). */
  rowsOf?: Record<string, number>;
};

/**
 * Fails on a sequential scan of a growing table, or a scan handing up more than the bounds allow:
 * what catches a missing index, OFFSET on a deep page, and a count over a growing range.
 */
export async function expectBounded(pool: Pool, statements: Captured[], bounds: Bounds): Promise<void> {
  expect(statements.length).toBeGreaterThan(0);
  // A table the seed left (nearly) empty is read whole by any sensible plan: its plan proves nothing.
  const small = await pool.query<{ relname: string }>(`select relname from pg_class where relkind = 'r' and relnamespace = 'public'::regnamespace and reltuples < 1000`);
  const tooSmallToTell = new Set(small.rows.map((r) => r.relname));
  const problems: string[] = [];
  for (const statement of statements) {
    if (NOT_A_QUERY.test(statement.text)) continue;
    for (const node of scans(await planOf(pool, statement))) {
      const what = `${node["Node Type"]} on ${node["Relation Name"]} (${rowsRead(node)} rows) in: ${statement.text}`;
      const limit = bounds.rowsOf?.[node["Relation Name"]!] ?? (node["Node Type"] === "Index Only Scan" ? (bounds.indexEntries ?? bounds.rows) : bounds.rows);
      const growing = GROWING_TABLES.includes(node["Relation Name"]!) && !tooSmallToTell.has(node["Relation Name"]!);
      const allowed = bounds.allowSeqScanOf?.includes(node["Relation Name"]!) ?? false;
      if (growing && !allowed && node["Node Type"] === "Seq Scan") problems.push(`sequential scan: ${what}`);
      else if (rowsRead(node) > limit) problems.push(`more than ${limit} rows: ${what}`);
    }
  }
  expect(problems).toEqual([]);
}
