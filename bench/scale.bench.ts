import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { REVIEW_TABS, type ReviewTab } from "~/domain/validation/review";
import { encodeCursor } from "~/server/platform/db/paging.server";
import { loadConfig, setConfig } from "~/server/platform/config.server";
import { openDatabase, type Database } from "~/server/platform/db/client.server";
import { runMigrations } from "~/server/platform/db/migrate.server";
import { signInAdminWithMfa, signInOverHttp } from "../tests/helpers/admins";
import { startTestServer, testSecrets, type TestServer } from "../tests/e2e/harness";
import { adminSessions, BROWSER_HEADERS, childPids, cpuMs, drive, generator, inBatches, ipFor, percentile, postgresPids, settleWrites, type AdminSession, type BenchResult, type Figure, type RunResult, type Visitor } from "./lib";
import { startLoadBalancer } from "./nginx";
import { growScale } from "./seed-grow";
import { seedScale, type ScaleSeedResult } from "./seed-scale";
import { DELINQUENCY_BUCKET_KEYS } from "~/domain/delinquency";
import { todayUtc } from "~/domain/dates";
import { runDelinquencyJob } from "~/server/loans/index.server";

/**
 * The growth curve (issue 24, parts 1 and 5; decision 0045). One scratch PostgreSQL database grows
 * through BENCH_SCALE_SIZES (default 10,000, 100,000 and 1,000,000 applications, one applicant per five):
 * seedScale writes the first size's applications in JavaScript (the template), growScale multiplies
 * it in SQL. At each size the production server starts (WEB_CONCURRENCY = cores), the same 50 users
 * load each page — every admin list tab, My Queue, client search by name and by e-mail, an application,
 * an admin's loan page, the reports and the audit log; applicants their dashboard and their loan —
 * after an unmeasured warm-up, paced (about one page a second each). The exports stream a whole range,
 * which cannot take flat time at any size: their time to the first byte and to the first 64 KB is
 * what is measured. Figures: p50/p95/p99/max and errors per page per size, and p99 at the largest
 * size over p99 at the smallest (goal: every p99 < 35 ms at 1,000,000, the ratio ≤ 1.5).
 *
 * Two instances (part 5): with `scale-nginx` (or BENCH_SCALE_NGINX=1 on `scale`), the same load runs
 * at the largest size through nginx balancing two servers on the same database (bench/nginx.ts).
 */

const SIZES = (process.env.BENCH_SCALE_SIZES ?? "10000,100000,1000000").split(",").map(Number).filter((n) => n > 0).sort((a, b) => a - b);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 10);
const THINK_MS = Number(process.env.BENCH_THINK_MS ?? 1000);
const USERS = Number(process.env.BENCH_USERS ?? 50);
/** Only these pages, in this order (names as printed, comma-separated; the exports are skipped then): a longer look at a few. */
const ONLY_PAGES = process.env.BENCH_SCALE_PAGES ? process.env.BENCH_SCALE_PAGES.split(",").map((p) => p.trim()) : null;
const WORKERS = Number(process.env.BENCH_WEB_CONCURRENCY ?? os.cpus().length);
/** Statements slower than this are logged by PostgreSQL and summarised per size (0: off). */
const SLOW_MS = Number(process.env.BENCH_SLOW_MS ?? 25);
const PG_LOG = process.env.BENCH_PG_LOG ?? "/var/log/postgresql/postgresql-15-main.log";
/** The JavaScript-built template: every later application is a copy of one of these. */
const TEMPLATE = Math.min(SIZES[0] ?? 10_000, Number(process.env.BENCH_SCALE_TEMPLATE ?? 20_000));
const ADMINS = 10;
const PASSWORD = "Str0ng!Passw0rd";
const RAMP_SECONDS = 3;
const EXPORT_REQUESTS = 5;
const LAST_NAMES = ["Garcia", "Okafor", "Nguyen", "Smith", "Lee", "Martinez"];

type Sessions = { applicants: string[]; loanHolders: { cookie: string; loanId: string }[]; admins: AdminSession[]; secrets: Map<string, string> };
type Pools = {
  applicationIds: string[];
  loanIds: string[];
  byStatus: Record<ReviewTab, number>;
  applicants: number;
  /** Per tab, sampled applications' sort keys (as PostgreSQL prints them): where Next leads a reviewer. */
  tabKeys: Record<ReviewTab, { submittedAt: string; id: string }[]>;
};
/** Per page: the load's latencies, and what each request cost (CPU, PostgreSQL's buffer reads) under it. */
type PageResult = { page: string; run: RunResult; cost?: PageCost };
type PageCost = { serverCpuMs: number; postgresCpuMs: number; sharedHits: number; sharedReads: number };
type ExportResult = { page: string; ttfb: number[]; first64k: number[]; errors: number; firstError?: string };
type SizeResult = { size: number; label: string; seedSeconds: number; pages: PageResult[]; exports: ExportResult[]; slow: string[] };

const round = (n: number) => Math.round(n * 10) / 10;

async function query<T>(database: Database, text: string, values: unknown[] = []): Promise<T[]> {
  return (await database.pool!.query(text, values)).rows as T[];
}

/** Ids the application and loan pages are asked for: spread over the whole table at this size. */
async function samplePools(database: Database, applicants: number): Promise<Pools> {
  const applicationIds = (await query<{ id: string }>(database, `select id from loan_applications tablesample bernoulli (1) order by random() limit 500`)).map((r) => r.id);
  const loanIds = (await query<{ id: string }>(database, `select id from approved_loans tablesample bernoulli (2) order by random() limit 500`)).map((r) => r.id);
  const counts = await query<{ status: ReviewTab; applications: number }>(database, `select status, applications from application_status_counts`);
  const byStatus = Object.fromEntries(counts.map((r) => [r.status, r.applications])) as Record<ReviewTab, number>;
  const keys = await query<{ status: ReviewTab; submitted_at: string; id: string }>(
    database,
    `select status, submitted_at::text as submitted_at, id::text as id from loan_applications tablesample bernoulli (1) order by random() limit 2000`,
  );
  const tabKeys = Object.fromEntries(REVIEW_TABS.map((tab) => [tab, keys.filter((k) => k.status === tab).map((k) => ({ submittedAt: k.submitted_at, id: k.id }))])) as Pools["tabKeys"];
  return { applicationIds, loanIds, byStatus, applicants, tabKeys };
}

/** 50 applicants spread over the template (the same people at every size), and 50 borrowers with an active loan. */
async function signIn(base: string, database: Database, seeded: ScaleSeedResult): Promise<Sessions> {
  const step = Math.max(1, Math.floor(seeded.applicants.length / USERS));
  const chosen = Array.from({ length: USERS }, (_, i) => seeded.applicants[(i * step) % seeded.applicants.length]!);
  const applicants = await inBatches(chosen, 5, async (applicant, i) => {
    const cookie = await signInOverHttp(base, applicant.email, PASSWORD, ipFor(i));
    const page = await fetch(`${base}/dashboard`, { headers: { cookie }, redirect: "manual" });
    const html = await page.text();
    if (page.status !== 200 || !html.includes(applicant.name)) throw new Error(`${applicant.email}: the dashboard did not answer as this applicant (${page.status})`);
    return cookie;
  });
  const ids = seeded.applicants.map((a) => a.id);
  const borrowers = await query<{ user_id: string; id: string; email: string }>(
    database,
    `select distinct on (l.user_id) l.user_id, l.id, u.email from approved_loans l join "user" u on u.id = l.user_id
      where l.status = 'active' and l.user_id = any($1::text[]) order by l.user_id, l.approval_date desc limit $2`,
    [ids, USERS],
  );
  const loanHolders = await inBatches(borrowers, 5, async (b, i) => ({ cookie: await signInOverHttp(base, b.email, PASSWORD, ipFor(400 + i)), loanId: b.id }));
  const admins = await adminSessions(base, seeded.admins, USERS, PASSWORD);
  const secrets = new Map(admins.filter((a) => a.secret).map((a) => [a.adminId, a.secret!]));
  return { applicants, loanHolders, admins, secrets };
}

/** The pages, each with the 50 visitors who load it and how each picks its next URL. */
function pages(base: string, sessions: Sessions, pools: Pools): { page: string; visitors: Visitor[] }[] {
  const admin = (make: (random: () => number, session: AdminSession) => string, seed: number) =>
    sessions.admins.map((session, i) => {
      const random = generator(seed * 1000 + i);
      return { cookie: session.cookie, next: () => `${base}${make(random, session)}` };
    });
  const pick = <T>(random: () => number, list: T[]) => list[Math.floor(random() * list.length)]!;
  // Mostly the first page, as reviewers work; otherwise anywhere in the tab, reached as Next reaches it
  // (decision 0050): past a token of a random application of the tab, or the last page.
  const tabPage = (tab: ReviewTab) => (random: () => number) => {
    const keys = pools.tabKeys[tab];
    const p = random();
    if (p < 0.6 || keys.length === 0) return `/admin?status=${tab}`;
    if (p < 0.65) return `/admin?status=${tab}&last=1`;
    const key = pick(random, keys);
    const token = encodeCursor({ scope: `applications:${tab}`, page: 2, key: [key.submittedAt, key.id] });
    return `/admin?status=${tab}&${p < 0.9 ? "after" : "before"}=${token}`;
  };
  return [
    ...REVIEW_TABS.map((tab, t) => ({ page: `admin list ${tab}`, visitors: admin(tabPage(tab), 10 + t) })),
    { page: "My Queue", visitors: admin(() => "/admin?status=pending&queue=mine", 20) },
    { page: "client search (name)", visitors: admin((r) => `/admin/clients?q=${pick(r, LAST_NAMES)}`, 21) },
    { page: "client search (e-mail)", visitors: admin((r) => `/admin/clients?q=applicant${Math.floor(r() * pools.applicants)}%40bench`, 22) },
    { page: "application page", visitors: admin((r) => `/admin/applications/${pick(r, pools.applicationIds)}`, 23) },
    { page: "dashboard", visitors: sessions.applicants.map((cookie) => ({ cookie, next: () => `${base}/dashboard` })) },
    { page: "loan page (borrower)", visitors: sessions.loanHolders.map(({ cookie, loanId }) => ({ cookie, next: () => `${base}/dashboard/loans/${loanId}` })) },
    { page: "loan page (admin)", visitors: admin((r) => `/admin/loans/${pick(r, pools.loanIds)}`, 24) },
    { page: "reports", visitors: admin(() => "/admin/reports", 25) },
    // The loans list by days-past-due bucket (its counts and page), and the collections queue.
    { page: "loans by bucket", visitors: admin((r) => `/admin/loans?bucket=${encodeURIComponent(pick(r, [...DELINQUENCY_BUCKET_KEYS]))}`, 27) },
    { page: "collections queue", visitors: admin(() => "/admin/collections", 28) },
    { page: "audit log (monitoring)", visitors: admin(() => "/admin/monitoring", 26) },
  ];
}

/**
 * What the servicing job writes about the book at this size (the reports page's Delinquency and Roll
 * Rates read it): the last three month ends (snapshots and rolls) and yesterday's totals, as the job
 * would have written them on those days. Written again at each size (the loans were multiplied).
 */
async function measureDelinquencyBook(database: Database) {
  await database.pool!.query(`truncate delinquency_rolls, delinquency_totals, delinquency_snapshots`);
  const today = todayUtc();
  const monthStart = (back: number) => {
    const d = new Date(`${today.slice(0, 7)}-01T00:00:00Z`);
    d.setUTCMonth(d.getUTCMonth() - back);
    return d.toISOString().slice(0, 10);
  };
  for (const back of [2, 1, 0]) await runDelinquencyJob(database.db, monthStart(back));
  await runDelinquencyJob(database.db, today);
}

/** Time to the first byte and to the first 64 KB of a streamed export, then the stream is dropped. */
function firstBytes(url: string, cookie: string): Promise<{ status: number; ttfb: number; first64k: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.get(url, { headers: { ...BROWSER_HEADERS, "accept-encoding": "identity", cookie } }, (res) => {
      let ttfb = -1;
      let bytes = 0;
      const done = () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, ttfb, first64k: performance.now() - started });
      };
      res.on("data", (chunk: Buffer) => {
        if (ttfb < 0) ttfb = performance.now() - started;
        bytes += chunk.length;
        if (bytes >= 65_536) done();
      });
      res.on("end", done);
      res.on("error", reject);
    });
    req.on("error", reject);
  });
}

async function measureExports(base: string, cookie: string): Promise<ExportResult[]> {
  const to = new Date().toISOString().slice(0, 10);
  const from = new Date(Date.now() - 3 * 365 * 86_400_000).toISOString().slice(0, 10);
  const out: ExportResult[] = [];
  for (const kind of ["applications", "audit"]) {
    const result: ExportResult = { page: `export ${kind}`, ttfb: [], first64k: [], errors: 0 };
    for (let i = 0; i < EXPORT_REQUESTS; i++) {
      const url = `${base}/admin/exports/${kind}?from=${from}&to=${to}`;
      try {
        const r = await firstBytes(url, cookie);
        if (r.status !== 200) {
          result.errors++;
          result.firstError ??= `${url}: HTTP ${r.status}`;
        }
        result.ttfb.push(r.ttfb);
        result.first64k.push(r.first64k);
      } catch (error) {
        result.errors++;
        result.firstError ??= `${url}: ${(error as Error).message}`;
      }
    }
    result.ttfb.sort((a, b) => a - b);
    result.first64k.sort((a, b) => a - b);
    out.push(result);
  }
  return out;
}

/** PostgreSQL's log lines for this database since `offset`: the slowest statements, grouped. */
function slowStatements(database: string, offset: number): string[] {
  if (!SLOW_MS || !fs.existsSync(PG_LOG)) return [];
  const text = fs.readFileSync(PG_LOG, "utf8").slice(offset);
  const byStatement = new Map<string, { n: number; max: number }>();
  for (const match of text.matchAll(new RegExp(`@${database} LOG:\\s+duration: ([\\d.]+) ms\\s+(?:statement|execute [^:]*):\\s*(.*)`, "g"))) {
    // \s* above: a statement written as a template literal starts with a line break, and its first
    // line would otherwise be empty (one unnamed group of every such statement).
    const key = match[2]!.replace(/\s+/g, " ").slice(0, 160);
    if (key === "checkpoint") continue; // the bench's own, before each run
    const entry = byStatement.get(key) ?? { n: 0, max: 0 };
    entry.n++;
    entry.max = Math.max(entry.max, Number(match[1]));
    byStatement.set(key, entry);
  }
  return [...byStatement.entries()]
    .sort((a, b) => b[1].n - a[1].n)
    .slice(0, 8)
    .map(([statement, { n, max }]) => `${n}× up to ${Math.round(max)} ms: ${statement}`);
}

/** The database's shared-buffer hits and reads so far (a read is a page PostgreSQL had to fetch from the kernel). */
async function bufferCounts(database: Database): Promise<{ hits: number; reads: number }> {
  const [row] = await query<{ hits: string; reads: string }>(database, `select blks_hit::text as hits, blks_read::text as reads from pg_stat_database where datname = current_database()`);
  return { hits: Number(row?.hits ?? 0), reads: Number(row?.reads ?? 0) };
}

/**
 * What each request cost during a measured run, all requests counted (the ramp's too): CPU of the server
 * processes and of PostgreSQL (all its processes: the bench runs alone), and shared-buffer hits and reads
 * (pg_stat_database, flushed to it at each statement's end). Where a page's p99 grows with the data, these
 * say whether the server, PostgreSQL or the kernel's cache under PostgreSQL grew with it.
 */
async function withCost(servers: TestServer[], database: Database, run: () => Promise<RunResult>): Promise<{ run: RunResult; cost: PageCost }> {
  const nodePids = servers.flatMap((server) => [server.process.pid!, ...childPids(server.process.pid!)]);
  const pgPids = postgresPids();
  const [nodeBefore, pgBefore, buffersBefore] = [cpuMs(nodePids), cpuMs(pgPids), await bufferCounts(database)];
  const result = await run();
  // PostgreSQL reports a backend's counters when it goes idle: a moment for the last statements' to land.
  await new Promise((r) => setTimeout(r, 600));
  const buffers = await bufferCounts(database);
  const requests = Math.max(1, result.all);
  const perRequest = (n: number) => Math.round((n / requests) * 100) / 100;
  return {
    run: result,
    cost: {
      serverCpuMs: perRequest(cpuMs(nodePids) - nodeBefore),
      postgresCpuMs: perRequest(cpuMs([...new Set([...pgPids, ...postgresPids()])]) - pgBefore),
      sharedHits: perRequest(buffers.hits - buffersBefore.hits),
      sharedReads: perRequest(buffers.reads - buffersBefore.reads),
    },
  };
}

async function measure(
  label: string,
  base: string,
  sessions: Sessions,
  pools: Pools,
  databaseUrl: string,
  servers: TestServer[],
  database: Database,
): Promise<Omit<SizeResult, "size" | "seedSeconds" | "slow">> {
  const results: PageResult[] = [];
  // With BENCH_SCALE_PAGES, in the order named (what runs first after the grow can matter).
  const all = pages(base, sessions, pools);
  const chosen = ONLY_PAGES ? ONLY_PAGES.flatMap((name) => all.filter((p) => p.page === name)) : all;
  for (const { page, visitors } of chosen) {
    if (!visitors.length) continue;
    // Unmeasured: the server processes compile this page's code first (see signed-in.bench.ts).
    await drive(visitors, { thinkMs: 0, seed: 7, seconds: WARMUP_SECONDS, rampSeconds: 0 });
    await settleWrites(databaseUrl);
    const { run, cost } = await withCost(servers, database, () => drive(visitors, { thinkMs: THINK_MS, seed: 1, seconds: SECONDS, rampSeconds: RAMP_SECONDS }));
    console.log(
      `  ${label} ${page}: p50 ${run.p50} p95 ${run.p95} p99 ${run.p99} max ${run.max} ms, ${run.errors} errors of ${run.requests}${run.firstError ? ` (${run.firstError})` : ""}; ` +
        `a request: server ${cost.serverCpuMs} + PostgreSQL ${cost.postgresCpuMs} ms CPU, ${cost.sharedHits} buffer hits, ${cost.sharedReads} reads`,
    );
    results.push({ page, run, cost });
  }
  const exports = ONLY_PAGES ? [] : await measureExports(base, sessions.admins[0]!.cookie);
  for (const e of exports) console.log(`  ${label} ${e.page}: first byte p50 ${round(percentile(e.ttfb, 50))} ms, first 64 KB p50 ${round(percentile(e.first64k, 50))} max ${round(e.first64k.at(-1) ?? 0)} ms, ${e.errors} errors`);
  return { label, pages: results, exports };
}

async function startServers(instances: number, env: Record<string, string>): Promise<{ base: string; servers: TestServer[]; stop: () => Promise<void>; dataDirs: string[] }> {
  const servers: TestServer[] = [];
  const dataDirs: string[] = [];
  // Each instance its own data folder (the folder lock), one database and one set of secrets. The
  // instances share this machine's cores: each runs cores ÷ instances server processes (two instances
  // of two processes each on two cores measured the switching between four processes, not balancing).
  const processes = String(Math.max(1, Math.floor(WORKERS / instances)));
  for (let i = 0; i < instances; i++) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `portal-bench-scale-${i}-`));
    dataDirs.push(dataDir);
    servers.push(await startTestServer({ ...env, WEB_CONCURRENCY: processes }, { dataDir }));
  }
  const balancer = instances > 1 ? await startLoadBalancer(servers.map((s) => new URL(s.url).host)) : null;
  return {
    base: balancer?.url ?? servers[0]!.url,
    servers,
    dataDirs,
    stop: async () => {
      await balancer?.stop();
      for (const server of servers) await stopWithin(server);
      for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * SIGTERM, then SIGKILL after 30 s: at 1M a server's graceful shutdown was seen waiting over ten
 * minutes (a background job's open transaction), which would stall the bench rather than measure it.
 */
async function stopWithin(server: TestServer, ms = 30_000) {
  const timer = setTimeout(() => {
    for (const pid of [...childPids(server.process.pid!), server.process.pid!]) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  }, ms);
  try {
    await server.stop();
  } finally {
    clearTimeout(timer);
  }
}

function sizeFigures(result: SizeResult): Figure[] {
  const out: Figure[] = [{ name: `${result.label} seed time`, value: result.seedSeconds, unit: "s" }];
  for (const { page, run, cost } of result.pages) {
    out.push(
      { name: `${result.label} ${page} p50`, value: run.p50, unit: "ms" },
      { name: `${result.label} ${page} p95`, value: run.p95, unit: "ms" },
      { name: `${result.label} ${page} p99`, value: run.p99, unit: "ms", note: run.p99 > 35 ? "over the 35 ms goal" : "goal < 35 ms" },
      { name: `${result.label} ${page} max`, value: run.max, unit: "ms" },
      { name: `${result.label} ${page} errors`, value: run.errors, unit: `of ${run.requests}`, note: run.firstError ?? "goal 0 (any non-200 counts)" },
    );
    if (cost) {
      out.push(
        { name: `${result.label} ${page} server CPU a request`, value: cost.serverCpuMs, unit: "ms", note: "server processes, under the load" },
        { name: `${result.label} ${page} PostgreSQL CPU a request`, value: cost.postgresCpuMs, unit: "ms" },
        { name: `${result.label} ${page} shared-buffer reads a request`, value: cost.sharedReads, unit: "pages", note: `${cost.sharedHits} hits a request` },
      );
    }
  }
  for (const e of result.exports) {
    out.push(
      { name: `${result.label} ${e.page} first byte p50`, value: round(percentile(e.ttfb, 50)), unit: "ms", note: `${EXPORT_REQUESTS} requests, one at a time` },
      { name: `${result.label} ${e.page} first 64 KB p50`, value: round(percentile(e.first64k, 50)), unit: "ms" },
      { name: `${result.label} ${e.page} first 64 KB max`, value: round(e.first64k.at(-1) ?? 0), unit: "ms" },
      { name: `${result.label} ${e.page} errors`, value: e.errors, unit: `of ${EXPORT_REQUESTS}`, note: e.firstError ?? "" },
    );
  }
  return out;
}

function ratioFigures(first: SizeResult, last: SizeResult): Figure[] {
  return last.pages.flatMap(({ page, run }) => {
    const base = first.pages.find((p) => p.page === page)?.run.p99;
    if (!base) return [];
    const ratio = Math.round((run.p99 / base) * 100) / 100;
    return [{ name: `p99 ${last.label} ÷ ${first.label}: ${page}`, value: ratio, unit: "×", note: ratio > 1.5 ? "over the 1.5 goal" : "goal ≤ 1.5" }];
  });
}

const sizeLabel = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : n >= 1000 ? `${n / 1000}k` : String(n));

/**
 * `single`: measure one instance at every size. `nginx`: measure two instances behind nginx at the
 * largest size (alone, only the largest size is measured).
 */
export async function scaleBench(databaseUrl: string, mode: { single: boolean; nginx: boolean }): Promise<BenchResult> {
  const secrets = testSecrets();
  const configDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-bench-scale-config-"));
  setConfig(loadConfig({ ...secrets, DATA_DIR: configDir, DATABASE_URL: databaseUrl }));
  const env = { ...secrets, DATABASE_URL: databaseUrl, PWNED_PASSWORDS_URL: "off", TRUST_PROXY: "true", WEB_CONCURRENCY: String(WORKERS) };
  const dbName = new URL(databaseUrl).pathname.slice(1);
  const database = await openDatabase({ databaseUrl, poolSize: 2 });
  const results: SizeResult[] = [];
  let sessions: Sessions | undefined;
  let seeded: ScaleSeedResult;
  try {
    await runMigrations(database);
    if (SLOW_MS) await database.pool!.query(`alter database "${dbName}" set log_min_duration_statement = ${SLOW_MS}`);
    const started = performance.now();
    seeded = await seedScale(database, { applicants: Math.round(TEMPLATE / 5), applications: TEMPLATE, admins: ADMINS, password: PASSWORD });
    console.log(`  template: ${TEMPLATE} applications built in JavaScript in ${seeded.seconds} s`);
    let seedSeconds = (performance.now() - started) / 1000;
    for (const [index, size] of SIZES.entries()) {
      const largest = index === SIZES.length - 1;
      const grown = await growScale(database, seeded, { applications: size });
      seedSeconds += grown.seconds;
      console.log(`  grown to ${size} applications, ${grown.applicants} applicants in ${grown.seconds} s: ${JSON.stringify(grown.rows)}`);
      await measureDelinquencyBook(database);
      const pools = await samplePools(database, grown.applicants);
      const runs: { label: string; instances: number }[] = [];
      if (mode.single) runs.push({ label: sizeLabel(size), instances: 1 });
      if (mode.nginx && largest) runs.push({ label: `${sizeLabel(size)} nginx×2`, instances: 2 });
      for (const { label, instances } of runs) {
        const logOffset = fs.existsSync(PG_LOG) ? fs.statSync(PG_LOG).size : 0;
        const servers = await startServers(instances, env);
        try {
          if (!sessions) sessions = await signIn(servers.base, database, seeded);
          else if (instances > 1) await checkBehindProxy(servers.base, seeded, sessions);
          await settleWrites(databaseUrl);
          const measured = await measure(label, servers.base, sessions, pools, databaseUrl, servers.servers, database);
          results.push({ size, seedSeconds: Math.round(seedSeconds * 10) / 10, ...measured, slow: slowStatements(dbName, logOffset) });
          for (const line of results.at(-1)!.slow) console.log(`    slow: ${line}`);
        } finally {
          await servers.stop();
        }
      }
      seedSeconds = 0;
    }
  } finally {
    await database.close();
    fs.rmSync(configDir, { recursive: true, force: true });
  }
  const single = results.filter((r) => !r.label.includes("nginx"));
  return {
    bench: "growth curve: signed-in pages at 10k → 1M applications",
    params: {
      database: "postgres",
      sizes: SIZES,
      template: TEMPLATE,
      applicantsPerApplication: 0.2,
      auditRowsPerApplication: 10,
      concurrentUsers: USERS,
      adminAccounts: ADMINS,
      secondsPerPage: SECONDS,
      warmUpSecondsPerPage: WARMUP_SECONDS,
      thinkMs: THINK_MS,
      serverProcessesPerInstance: WORKERS,
      serverProcessesPerInstanceBehindNginx: Math.max(1, Math.floor(WORKERS / 2)),
      slowStatementMs: SLOW_MS,
      slowStatements: Object.fromEntries(results.map((r) => [r.label, r.slow])),
    },
    figures: [...results.flatMap(sizeFigures), ...(single.length > 1 ? ratioFigures(single[0]!, single.at(-1)!) : [])],
  };
}

/** Behind nginx the app must still sign people in and pass the second factor (the client IP from X-Forwarded-For). */
async function checkBehindProxy(base: string, seeded: ScaleSeedResult, sessions: Sessions) {
  const applicant = seeded.applicants.at(-1)!;
  const cookie = await signInOverHttp(base, applicant.email, PASSWORD, ipFor(900));
  const page = await fetch(`${base}/dashboard`, { headers: { cookie }, redirect: "manual" });
  if (page.status !== 200 || !(await page.text()).includes(applicant.name)) throw new Error(`behind nginx: ${applicant.email}'s dashboard answered ${page.status}`);
  const admin = seeded.admins[0]!;
  const { cookie: adminCookie } = await signInAdminWithMfa(base, admin.email, PASSWORD, ipFor(901), sessions.secrets.get(admin.id));
  const list = await fetch(`${base}/admin`, { headers: { cookie: adminCookie }, redirect: "manual" });
  if (list.status !== 200) throw new Error(`behind nginx: the admin list answered ${list.status} after the second factor`);
}
