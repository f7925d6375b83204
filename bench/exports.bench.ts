import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { ensureStaff } from "~/server/accounts/index.server";
import { loadConfig, setConfig } from "~/server/platform/config.server";
import { openDatabase } from "~/server/platform/db/client.server";
import { runMigrations } from "~/server/platform/db/migrate.server";
import { signInAdminWithMfa } from "../tests/helpers/admins";
import { startTestServer, testSecrets } from "../tests/e2e/harness";
import { mb, memorySampler, type BenchResult, type Figure } from "./lib";

/**
 * Export CSV at scale (issue 22, decision 0038): 100,000 applications (each with a bank account) and
 * 100,000 audit rows on PostgreSQL, then an admin downloads both CSVs over HTTP from one server
 * process. Measured: rows, seconds, and the server's resident memory growth during each download
 * (peak sampled every 20 ms minus the figure just before), against a fixed budget: a streamed export
 * holds one batch at a time, so its memory must not grow with the row count.
 *
 * Seeding is INSERT ... SELECT generate_series (seconds, not minutes). The audit rows are written
 * with chain columns already set, as a restore writes them, so the per-row seal trigger (one hash
 * each at commit) does not dominate the set-up; the export reads those columns either way.
 */

const ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 100_000);
const BUDGET_MB = Number(process.env.BENCH_EXPORT_BUDGET_MB ?? 64);
const ADMIN = { email: "bench.exports@example.com", password: "Str0ng!Passw0rd", name: "Bench Exports", role: "admin" as const };
const FROM = "2025-01-01";
const TO = "2026-12-31";

async function seed(databaseUrl: string) {
  // Two connections: the migrations hold their lock on one while running on another.
  const database = await openDatabase({ databaseUrl, poolSize: 2 });
  const started = performance.now();
  try {
    await runMigrations(database);
    await ensureStaff(database, ADMIN);
    const db = database.db;
    await db.execute(sql`insert into "user" (id, name, email, email_verified) values ('bench-export-applicant', 'Bench Applicant', 'bench.export.applicant@example.com', true)`);
    // Spread over 2025-2026; names with commas and quotes now and then so the quoting path is exercised.
    await db.execute(sql`
      insert into loan_applications (user_id, status, loan_type, requested_amount_cents, desired_rate_milli, loan_duration, purpose,
        first_name, last_name, date_of_birth, email, phone, address_line1, city, state, zip_code, ssn_encrypted,
        employment_status, employer_name, monthly_income_cents, submitted_at, reviewed_at, decision_reasons)
      select 'bench-export-applicant',
        (array['pending','under_review','approved','denied','incomplete'])[1 + g % 5], 'personal', (1000 + g % 90000) * 100, 9500, 36,
        'Consolidating two credit cards into one payment',
        case when g % 10 = 0 then 'Ann, "the first"' else 'Applicant' end, 'Number ' || g, '1985-02-03', 'a' || g || '@example.com',
        '3025550199', '1 Main Street', 'Wilmington', 'DE', '19801', 'enc:v1:bench' || g, 'full-time', 'Acme', 800000,
        timestamptz '2025-01-01 00:00:00+00' + (g * interval '10 minutes'),
        case when g % 5 in (2, 3, 4) then timestamptz '2025-01-01 00:00:00+00' + (g * interval '10 minutes') + interval '3 days' end,
        case when g % 5 = 3 then array['Insufficient income', 'Credit history'] end
      from generate_series(1, ${ROWS}) g`);
    await db.execute(sql`
      insert into bank_accounts (user_id, application_id, account_holder_name, bank_name, account_number, routing_number,
        account_number_last4, routing_number_last2)
      select user_id, id, 'Bench Applicant', 'Bench Bank', 'enc:v1:acct', 'enc:v1:rout', '1234', '21' from loan_applications`);
    await db.execute(sql`
      insert into audit_log (actor_id, actor_name, actor_email, action, table_name, record_id, details, ip_address, user_agent, created_at, chain_seq, prev_hash, row_hash)
      select 'bench', 'Bench Admin', 'bench@example.com', 'application.view', 'loan_applications', g::text,
        jsonb_build_object('n', g, 'note', 'viewed, "quoted"'), '203.0.113.1', 'bench', timestamptz '2025-01-01 00:00:00+00' + (g * interval '5 minutes'),
        1000000 + g, encode(sha256((g - 1)::text::bytea), 'hex'), encode(sha256(g::text::bytea), 'hex')
      from generate_series(1, ${ROWS}) g`);
    await db.execute(sql`analyze`);
  } finally {
    await database.close();
  }
  return Math.round((performance.now() - started) / 100) / 10;
}

/** Downloads one export, counting lines and bytes as they arrive (the client keeps nothing). */
function download(url: string, cookie: string): Promise<{ status: number; lines: number; bytes: number; seconds: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.get(url, { headers: { cookie } }, (res) => {
      let lines = 0;
      let bytes = 0;
      res.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, lines, bytes, seconds: Math.round((performance.now() - started) / 10) / 100 }));
      res.on("error", reject);
    });
    req.on("error", reject);
  });
}

export async function exportsBench(databaseUrl: string): Promise<BenchResult> {
  const secrets = testSecrets();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-bench-exports-"));
  setConfig(loadConfig({ ...secrets, DATA_DIR: dataDir, DATABASE_URL: databaseUrl }));
  const seedSeconds = await seed(databaseUrl);
  console.log(`  seeded ${ROWS} applications (with bank accounts) and ${ROWS} audit rows in ${seedSeconds} s`);

  const server = await startTestServer({ ...secrets, DATABASE_URL: databaseUrl, PWNED_PASSWORDS_URL: "off", TRUST_PROXY: "true", WEB_CONCURRENCY: "1" }, { dataDir });
  const figures: Figure[] = [{ name: "seed", value: seedSeconds, unit: "s" }];
  let pass = true;
  try {
    const { cookie } = await signInAdminWithMfa(server.url, ADMIN.email, ADMIN.password, "198.18.50.1");
    const pid = server.process.pid!;
    // Unmeasured: a one-day export of each kind loads and compiles the code paths first.
    for (const kind of ["applications", "audit"]) await download(`${server.url}/admin/exports/${kind}?from=2025-01-02&to=2025-01-02`, cookie);
    for (const kind of ["applications", "audit"] as const) {
      const sampler = memorySampler(pid, 20);
      const result = await download(`${server.url}/admin/exports/${kind}?from=${FROM}&to=${TO}`, cookie);
      const memory = sampler.stop();
      const growth = memory.peakRss - memory.baselineRss;
      const rows = result.lines - 1;
      const ok = result.status === 200 && rows >= ROWS && mb(growth) < BUDGET_MB;
      pass &&= ok;
      figures.push(
        { name: `${kind}: rows`, value: rows, unit: "rows", note: `HTTP ${result.status}` },
        { name: `${kind}: time`, value: result.seconds, unit: "s", note: `${Math.round(rows / Math.max(result.seconds, 0.01))} rows/s` },
        { name: `${kind}: size`, value: mb(result.bytes), unit: "MB" },
        { name: `${kind}: server RSS growth`, value: mb(growth), unit: "MB", note: `${ok ? "PASS" : "FAIL"} (budget < ${BUDGET_MB} MB; baseline ${mb(memory.baselineRss)} MB, peak ${mb(memory.peakRss)} MB)` },
      );
    }
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(`  exports within the memory budget: ${pass ? "PASS" : "FAIL"}`);
  return { bench: "exports", figures, params: { rows: ROWS, budgetMB: BUDGET_MB, batchRows: 1000, range: `${FROM}..${TO}` } };
}
