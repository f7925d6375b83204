import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadConfig, setConfig } from "~/server/platform/config.server";
import { openDatabase } from "~/server/platform/db/client.server";
import { runMigrations } from "~/server/platform/db/migrate.server";
import { signInOverHttp } from "../tests/helpers/admins";
import { startTestServer, testSecrets } from "../tests/e2e/harness";
import { adminSessions, BROWSER_HEADERS, childPids, cpuMs, percentile, postgresPids, settleWrites, type BenchResult, type Figure } from "./lib";
import { seedScale } from "./seed-scale";

/**
 * What one page costs the machine (issue 24): CPU milliseconds per request of the server process and of
 * PostgreSQL, and the bytes sent, one request at a time on one server process at 10,000 applications.
 * Under the scale bench's load, a page's p99 is mostly the queue behind other pages' CPU on two shared
 * cores; CPU per page is the figure that queue follows, and unlike a p99 it barely moves between runs.
 * Each page is first loaded BENCH_COST_WARMUP times (V8 compiles what it runs; see signed-in.bench.ts),
 * then BENCH_COST_REQUESTS times measured. With BENCH_CPU_PROF=<folder> the server writes a V8 CPU
 * profile there when it stops (open it in Chrome's DevTools).
 */

const APPLICATIONS = Number(process.env.BENCH_COST_APPLICATIONS ?? 10_000);
const WARMUP = Number(process.env.BENCH_COST_WARMUP ?? 600);
const REQUESTS = Number(process.env.BENCH_COST_REQUESTS ?? 400);
const PASSWORD = "Str0ng!Passw0rd";
/** BENCH_COST_STATEMENTS=1: PostgreSQL logs every statement, and the figures are statements per request (logging costs CPU: a separate run). */
const COUNT_STATEMENTS = process.env.BENCH_COST_STATEMENTS === "1";
/** BENCH_COST_PAGES=<regular expression>: only the pages whose names match (a profile of one page). */
const ONLY = process.env.BENCH_COST_PAGES ? new RegExp(process.env.BENCH_COST_PAGES) : null;
/** BENCH_COST_DUMP=<folder>: each page's HTML is written there (to see what its bytes are). */
const DUMP_DIR = process.env.BENCH_COST_DUMP;
const PG_LOG = process.env.BENCH_PG_LOG ?? "/var/log/postgresql/postgresql-15-main.log";

/** Statements (simple or extended protocol, BEGIN/COMMIT included) this database logged since `offset`. */
function statementsSince(dbName: string, offset: number): number {
  const text = fs.readFileSync(PG_LOG, "utf8").slice(offset);
  return [...text.matchAll(new RegExp(`@${dbName} LOG:\\s+(?:statement|execute [^:]*):`, "g"))].length;
}

async function load(url: string, cookie: string): Promise<{ ms: number; bytes: number; status: number; body: ArrayBuffer }> {
  const started = performance.now();
  const res = await fetch(url, { headers: { ...BROWSER_HEADERS, cookie }, redirect: "manual" });
  const body = await res.arrayBuffer();
  return { ms: performance.now() - started, bytes: body.byteLength, status: res.status, body };
}

export async function pageCostBench(databaseUrl: string): Promise<BenchResult> {
  const secrets = testSecrets();
  const configDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-bench-cost-config-"));
  setConfig(loadConfig({ ...secrets, DATA_DIR: configDir, DATABASE_URL: databaseUrl }));
  const database = await openDatabase({ databaseUrl, poolSize: 2 });
  await runMigrations(database);
  const seeded = await seedScale(database, { applicants: Math.round(APPLICATIONS / 5), applications: APPLICATIONS, admins: 1, password: PASSWORD });
  const sample = async (text: string) => ((await database.pool!.query(text)).rows[0] as { id: string }).id;
  const applicationId = await sample(`select id from loan_applications order by submitted_at desc offset 37 limit 1`);
  const loan = (await database.pool!.query(`select l.id, u.email from approved_loans l join "user" u on u.id = l.user_id where l.status = 'active' order by l.id limit 1`)).rows[0] as { id: string; email: string };
  // The servicing job's steady state (as bench/seed-grow.ts): today's run is done, so the server's
  // own start-up run does not service every seeded loan while the pages are measured.
  await database.pool!.query(
    `update approved_loans set serviced_on = (now() at time zone 'UTC')::date where status in ('active', 'approved')`,
  );
  const dbName = new URL(databaseUrl).pathname.slice(1);
  if (COUNT_STATEMENTS) await database.pool!.query(`alter database "${dbName}" set log_statement = 'all'`);
  await database.close();

  const profileDir = process.env.BENCH_CPU_PROF;
  const server = await startTestServer(
    { ...secrets, DATABASE_URL: databaseUrl, PWNED_PASSWORDS_URL: "off", WEB_CONCURRENCY: "1" },
    { nodeArgs: profileDir ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(profileDir)}`] : [] },
  );
  const figures: Figure[] = [];
  try {
    const base = server.url;
    const [admin] = await adminSessions(base, seeded.admins, 1, PASSWORD);
    const applicant = seeded.applicants[0]!;
    const applicantCookie = await signInOverHttp(base, applicant.email, PASSWORD, "198.18.20.1");
    const borrowerCookie = await signInOverHttp(base, loan.email, PASSWORD, "198.18.20.2");
    const pages: { page: string; url: string; cookie: string }[] = [
      { page: "home (cached)", url: "/", cookie: "" },
      { page: "admin list pending", url: "/admin?status=pending", cookie: admin!.cookie },
      { page: "My Queue", url: "/admin?status=pending&queue=mine", cookie: admin!.cookie },
      { page: "client search (name)", url: "/admin/clients?q=Garcia", cookie: admin!.cookie },
      { page: "application page", url: `/admin/applications/${applicationId}`, cookie: admin!.cookie },
      { page: "dashboard", url: "/dashboard", cookie: applicantCookie },
      { page: "loan page (borrower)", url: `/dashboard/loans/${loan.id}`, cookie: borrowerCookie },
      { page: "loan page (admin)", url: `/admin/loans/${loan.id}`, cookie: admin!.cookie },
      { page: "reports", url: "/admin/reports", cookie: admin!.cookie },
      { page: "audit log (monitoring)", url: "/admin/monitoring", cookie: admin!.cookie },
    ];
    for (const { page, url, cookie } of pages.filter((p) => !ONLY || ONLY.test(p.page))) {
      for (let i = 0; i < WARMUP; i++) await load(`${base}${url}`, cookie);
      await settleWrites(databaseUrl);
      const nodePids = [server.process.pid!, ...childPids(server.process.pid!)];
      const pgPids = postgresPids();
      const nodeBefore = cpuMs(nodePids);
      const pgBefore = cpuMs(pgPids);
      const logOffset = COUNT_STATEMENTS ? fs.statSync(PG_LOG).size : 0;
      const times: number[] = [];
      let bytes = 0;
      let errors = 0;
      for (let i = 0; i < REQUESTS; i++) {
        const r = await load(`${base}${url}`, cookie);
        times.push(r.ms);
        bytes = r.bytes;
        if (r.status !== 200) errors++;
        if (DUMP_DIR && i === 0) fs.writeFileSync(path.join(DUMP_DIR, `${page.replace(/\W+/g, "-")}.html`), Buffer.from(r.body));
      }
      // PostgreSQL's processes now include any it started meanwhile: a backend that ended is not counted.
      const nodeMs = (cpuMs(nodePids) - nodeBefore) / REQUESTS;
      const pgMs = (cpuMs([...new Set([...pgPids, ...postgresPids()])]) - pgBefore) / REQUESTS;
      times.sort((a, b) => a - b);
      const r = (n: number) => Math.round(n * 100) / 100;
      if (COUNT_STATEMENTS) {
        const perRequest = r(statementsSince(dbName, logOffset) / REQUESTS);
        console.log(`  ${page}: ${perRequest} statements a request`);
        figures.push({ name: `${page} statements`, value: perRequest, unit: "a request", note: "BEGIN and COMMIT count" });
        continue;
      }
      console.log(`  ${page}: server ${r(nodeMs)} ms CPU, PostgreSQL ${r(pgMs)} ms CPU a request; alone p50 ${r(percentile(times, 50))} ms; ${bytes} HTML bytes; ${errors} errors`);
      figures.push(
        { name: `${page} server CPU`, value: r(nodeMs), unit: "ms/request" },
        { name: `${page} PostgreSQL CPU`, value: r(pgMs), unit: "ms/request" },
        { name: `${page} alone p50`, value: r(percentile(times, 50)), unit: "ms" },
        { name: `${page} HTML`, value: bytes, unit: "bytes", note: errors ? `${errors} errors` : "uncompressed (sent with brotli)" },
      );
    }
  } finally {
    await server.stop();
    fs.rmSync(configDir, { recursive: true, force: true });
  }
  return {
    bench: "page cost: CPU per request of the server and of PostgreSQL, one request at a time",
    params: { applications: APPLICATIONS, warmUpRequestsPerPage: WARMUP, measuredRequestsPerPage: REQUESTS, serverProcesses: 1, database: "postgres" },
    figures,
  };
}
