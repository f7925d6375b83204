import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditRowHash, describeAuditChain, verifyAuditChain, type AuditChainRow } from "~/server/platform/audit/audit-chain.server";
import { writeAudit } from "~/server/platform/audit/audit.server";
import type { Db } from "~/server/platform/db/client.server";
import { openDatabase } from "~/server/platform/db/client.server";
import { runMigrations } from "~/server/platform/db/migrate.server";
import { databaseErrorOf, testTargets, useTestDatabase } from "../helpers/test-db";

/**
 * The tamper-evident audit log (issue 22): rows are chained at commit; `verifyAuditChain` (what
 * `npm run audit:verify` runs) recomputes every hash and names the first row that no longer fits.
 * The tampering goes through a superuser connection that switches the append-only triggers off, as an
 * insider with database access would.
 */

const actor = { id: "u-chain", name: "Chain Tester", email: "chain@example.com" };

async function rows<T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** As a superuser with triggers off (session_replication_role = replica), inside one transaction. */
async function tamper(db: Db, statement: ReturnType<typeof sql>) {
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(statement);
  });
}

describe.each(testTargets)("audit hash chain on %s", (target) => {
  const database = useTestDatabase({ target });
  const db = () => database().db;

  it("seals every row at commit: consecutive positions, each naming the previous row's hash", async () => {
    for (let i = 0; i < 5; i += 1) await writeAudit(db(), { actor, action: "application.view", recordId: `r-${i}`, details: { i, note: "ünïcödé ✓ 𝄞" } });
    await db().transaction(async (tx) => {
      await writeAudit(tx, { actor, action: "application.note", details: { in: "transaction", n: 1 } });
      await writeAudit(tx, { actor: null, action: "records.dispose", details: {} });
    });
    const chain = await rows<{ chain_seq: string; prev_hash: string | null; row_hash: string }>(
      db(),
      sql`select chain_seq::text, prev_hash, row_hash from audit_log order by chain_seq`,
    );
    expect(chain.length).toBeGreaterThanOrEqual(7);
    chain.forEach((row, i) => {
      expect(row.chain_seq).toBe(String(i + 1));
      expect(row.prev_hash).toBe(i === 0 ? null : chain[i - 1]!.row_hash);
      expect(row.row_hash).toMatch(/^[0-9a-f]{64}$/);
    });
    const result = await verifyAuditChain(db(), { batchSize: 3 });
    expect(result).toEqual({ ok: true, rows: chain.length });
    expect(describeAuditChain(result)).toBe(`Audit chain intact: ${chain.length} rows verified.`);
  });

  it("recomputes in JavaScript exactly what the database hashed", async () => {
    const [row] = await rows<AuditChainRow & { chainSeq: string }>(
      db(),
      sql.raw(`select id::text as "id", chain_seq::text as "chainSeq", prev_hash as "prevHash", row_hash as "rowHash", actor_id as "actorId",
        actor_name as "actorName", actor_email as "actorEmail", action, table_name as "tableName", record_id as "recordId",
        details::text as "detailsText", ip_address as "ipAddress", user_agent as "userAgent",
        to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "createdText" from audit_log where chain_seq = 2`),
    );
    expect(auditRowHash(row!, row!.chainSeq, row!.prevHash)).toBe(row!.rowHash);
  });

  it("still refuses UPDATE and DELETE through the application (append-only), the chain columns included", async () => {
    for (const statement of [
      sql`update audit_log set details = '{"forged":true}'::jsonb where chain_seq = 1`,
      sql`update audit_log set row_hash = null, chain_seq = null where chain_seq = 1`,
      sql`delete from audit_log where chain_seq = 1`,
    ]) {
      const error = await db().execute(statement).then(() => null, (e: unknown) => e);
      expect(databaseErrorOf(error).message).toMatch(/append-only/);
    }
    // Setting the sealing flag by hand does not open a sealed row either.
    const error = await db()
      .transaction(async (tx) => {
        await tx.execute(sql`select set_config('audit.sealing', 'on', true)`);
        await tx.execute(sql`update audit_log set details = '{"forged":true}'::jsonb where chain_seq = 1`);
      })
      .then(() => null, (e: unknown) => e);
    expect(databaseErrorOf(error).message).toMatch(/append-only/);
    expect((await verifyAuditChain(db())).ok).toBe(true);
  });

  it("names the row a superuser altered, and no row before it", async () => {
    const [victim] = await rows<{ id: string }>(db(), sql`select id::text from audit_log where chain_seq = 4`);
    await tamper(db(), sql`update audit_log set details = '{"i":3,"note":"nothing to see"}'::jsonb where chain_seq = 4`);
    const result = await verifyAuditChain(db(), { batchSize: 2 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.broken.id).toBe(victim!.id);
    expect(result.broken.chainSeq).toBe("4");
    expect(result.rows).toBe(3);
    expect(describeAuditChain(result)).toContain(`BROKEN at audit_log row ${victim!.id} (chain position 4)`);
  });

  it("names the gap when a row is deleted, and a row slipped in with the seal bypassed", async () => {
    const fresh = await openDatabaseFor(target, database().url);
    try {
      const d = fresh.db;
      for (let i = 0; i < 4; i += 1) await writeAudit(d, { actor, action: "client.view", recordId: `c-${i}` });
      expect((await verifyAuditChain(d)).ok).toBe(true);
      // An inserted row without a seal (triggers off): named as never sealed.
      await tamper(d, sql`insert into audit_log (action, details) values ('ssn.reveal', '{}'::jsonb)`);
      const unsealed = await verifyAuditChain(d);
      expect(unsealed.ok).toBe(false);
      if (!unsealed.ok) expect(unsealed.broken.reason).toMatch(/never sealed/);
      await tamper(d, sql`delete from audit_log where chain_seq is null`);
      // A deleted row in the middle: the row after it no longer follows.
      const [next] = await rows<{ id: string }>(d, sql`select id::text from audit_log where chain_seq = 3`);
      await tamper(d, sql`delete from audit_log where chain_seq = 2`);
      const gap = await verifyAuditChain(d);
      expect(gap.ok).toBe(false);
      if (!gap.ok) {
        expect(gap.broken.id).toBe(next!.id);
        expect(gap.broken.reason).toMatch(/missing/);
      }
    } finally {
      await fresh.close();
    }
  });

  it("chains rows from parallel transactions without gaps or forks", async () => {
    if (target !== "postgres") return; // one connection on PGlite: nothing runs in parallel
    const fresh = await openDatabaseFor(target, database().url);
    try {
      const before = Number((await rows<{ n: string }>(fresh.db, sql`select count(*)::text as n from audit_log`))[0]!.n);
      await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          fresh.db.transaction(async (tx) => {
            await writeAudit(tx, { actor, action: "application.view", recordId: `p-${i}` });
            await tx.execute(sql`select pg_sleep(0.005)`);
            await writeAudit(tx, { actor, action: "application.note", recordId: `p-${i}` });
          }),
        ),
      );
      const [{ n, max }] = await rows<{ n: string; max: string }>(fresh.db, sql`select count(*)::text as n, max(chain_seq)::text as max from audit_log`) as [{ n: string; max: string }];
      expect(Number(n)).toBe(before + 80);
      expect(max).toBe(n);
    } finally {
      await fresh.close();
    }
  });
});

/** A second, fresh database of the same kind (the tampered one above stays broken). */
async function openDatabaseFor(target: string, _url: string | undefined) {
  if (target === "postgres") {
    const { openTestDatabase } = await import("../helpers/test-db");
    const t = await openTestDatabase({ target: "postgres", poolSize: 10 });
    return { db: t.db, close: t.cleanup };
  }
  const d = await openDatabase({ memory: true });
  await runMigrations(d);
  return { db: d.db, close: () => d.close() };
}

describe("npm run audit:verify", () => {
  it("says the chain is intact (exit 0), then names the altered row (exit 1)", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "audit-verify-"));
    const root = path.resolve(import.meta.dirname, "../..");
    const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", NODE_ENV: "development" };
    const verify = () =>
      promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/audit-verify.ts"], { cwd: root, env }).then(
        (r) => ({ code: 0, out: r.stdout + r.stderr }),
        (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
      );
    try {
      // The data folder as the server keeps it (the command opens it the same way: config.dataDir).
      const seeded = await openDatabase({ dataDir });
      await runMigrations(seeded);
      for (let i = 0; i < 3; i += 1) await writeAudit(seeded.db, { actor, action: "ssn.reveal", recordId: `app-${i}` });
      await seeded.close();
      const intact = await verify();
      expect(intact).toEqual({ code: 0, out: "Audit chain intact: 3 rows verified.\n" });

      const again = await openDatabase({ dataDir });
      const [victim] = await rows<{ id: string }>(again.db, sql`select id::text from audit_log where chain_seq = 2`);
      await tamper(again.db, sql`update audit_log set record_id = 'app-999' where chain_seq = 2`);
      await again.close();
      const broken = await verify();
      expect(broken.code).toBe(1);
      expect(broken.out).toContain(`Audit chain BROKEN at audit_log row ${victim!.id} (chain position 2)`);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
