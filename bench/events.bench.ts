import { fork, type ChildProcess } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ensureAdmin } from "~/server/accounts/index.server";
import { loadConfig, setConfig } from "~/server/platform/config.server";
import { openDatabase } from "~/server/platform/db/client.server";
import { session, sessionMfa, user, userRoles } from "~/server/platform/db/schema.server";
import { approveApplication } from "~/server/applications/index.server";
import { STREAM_LIMITS } from "~/server/platform/events/stream.server";
import { startTestServer, testSecrets } from "../tests/e2e/harness";
import { startSmtpSink } from "../tests/helpers/smtp-sink";
import { submitApplication } from "../tests/helpers/applications";
import { mb, memorySampler, percentile, signUpOverHttp, type BenchResult } from "./lib";

/**
 * Live-update fan-out (issue 24, goal 4: 10,000 open streams on one instance under 1 GB resident, an
 * approval reaching all of them within 1 s at p99). Every stream is entitled to the approval: the
 * applicant's own (one session, its cap of 6) and the rest admin streams whose sessions passed the
 * second factor (12 per admin, over 2 sessions: the per-account and per-session caps). The admins and
 * their sessions are written to the database and their cookies signed as Better Auth signs them
 * (signing in 800 admins over HTTP would take minutes). The streams are held by separate client
 * processes over raw sockets (bench/sse-clients.ts).
 */

const STREAMS = Number(process.env.BENCH_STREAMS ?? 10_000);
const CLIENT_PROCESSES = Number(process.env.BENCH_CLIENT_PROCESSES ?? 2);
/** One full heartbeat period and a little: every stream beats and its session is looked up once. */
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 27);
const MARKER = `"status":"approved"`;
/**
 * 2: a second instance on the same PostgreSQL holds the odd-numbered client processes' streams (half),
 * and the approval reaches it through LISTEN/NOTIFY as it reaches the first.
 */
const INSTANCES = Number(process.env.BENCH_INSTANCES ?? 1) === 2 ? 2 : 1;

/** Better Auth's session cookie: the token, a dot and its HMAC-SHA256 (base64), URL-encoded (better-call). */
function sessionCookie(token: string, secret: string): string {
  const signature = createHmac("sha256", secret).update(token).digest("base64");
  return `pl.session_token=${encodeURIComponent(`${token}.${signature}`)}`;
}

/** Admins past the second factor, two sessions each; returns `count` cookies, 6 streams a session. */
async function seedAdminStreams(db: Awaited<ReturnType<typeof openDatabase>>["db"], count: number, secret: string): Promise<string[]> {
  const perSession = STREAM_LIMITS.perSession;
  const sessions = Math.ceil(count / perSession);
  const admins = Math.ceil(sessions / 2);
  const expiresAt = new Date(Date.now() + 24 * 3600_000);
  const cookies: string[] = [];
  for (let a = 0; a < admins; a += 200) {
    const ids = Array.from({ length: Math.min(200, admins - a) }, (_, i) => `bench-watch-${a + i}`);
    const rows = ids.flatMap((id) => [0, 1].map((n) => ({ id: `${id}-s${n}`, token: randomBytes(24).toString("base64url"), userId: id, expiresAt })));
    await db.insert(user).values(ids.map((id) => ({ id, name: `Watcher ${id}`, email: `${id}@example.com`, emailVerified: true })));
    await db.insert(userRoles).values(ids.map((id) => ({ userId: id, role: "admin" as const })));
    await db.insert(session).values(rows);
    await db.insert(sessionMfa).values(rows.map((r) => ({ sessionId: r.id, userId: r.userId })));
    for (const row of rows) for (let i = 0; i < perSession; i++) cookies.push(sessionCookie(row.token, secret));
  }
  return cookies.slice(0, count);
}

/** Seconds of CPU a process used so far (user + system), from /proc. */
function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

type Report = { kind: "report"; arrivals: number[]; open: number; heartbeats: number };

function startClient(): { child: ChildProcess; ask: <T>(message: object, kind: string) => Promise<T> } {
  const child = fork(path.join(import.meta.dirname, "sse-clients.ts"), [], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const ask = <T>(message: object, kind: string) =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (reply: { kind: string }) => {
        if (reply.kind !== kind) return;
        child.off("message", onMessage);
        resolve(reply as T);
      };
      child.on("message", onMessage);
      child.once("exit", (code) => reject(new Error(`the stream client exited (${code})`)));
      child.send(message);
    });
  return { child, ask };
}

export async function eventsBench(databaseUrl: string): Promise<BenchResult> {
  const sink = await startSmtpSink();
  const secrets = testSecrets();
  const serverEnv = {
    ...secrets,
    DATABASE_URL: databaseUrl,
    SMTP_URL: sink.url,
    PWNED_PASSWORDS_URL: "off",
    TRUST_PROXY: "true",
    ...(STREAMS > STREAM_LIMITS.perInstance ? { EVENT_STREAMS_MAX: String(STREAMS) } : {}),
  };
  const server = await startTestServer(serverEnv);
  const other = INSTANCES === 2 ? await startTestServer(serverEnv) : undefined;
  setConfig(loadConfig({ ...secrets, DATA_DIR: server.dataDir, DATABASE_URL: databaseUrl }));
  const db = await openDatabase({ databaseUrl, poolSize: 2 });
  const clients = Array.from({ length: CLIENT_PROCESSES }, startClient);
  const heartbeatsSoFar = async () => (await Promise.all(clients.map((c) => c.ask<Report>({ kind: "report" }, "report")))).reduce((n, r) => n + r.heartbeats, 0);
  try {
    const ownerCookie = await signUpOverHttp(server.url, sink, "streams@example.com", "198.18.3.1");
    const applicationId = await submitApplication(server.url, ownerCookie);
    const { userId } = await ensureAdmin(db, { email: "bench.admin@example.com", password: "Adm1n!Secret", name: "Bench Admin" });
    const ownerStreams = Math.min(STREAM_LIMITS.perSession, STREAMS);
    const cookies = [...Array.from({ length: ownerStreams }, () => ownerCookie), ...(await seedAdminStreams(db.db, STREAMS - ownerStreams, secrets.APP_SECRET!))];

    const pid = server.process.pid!;
    const idle = memorySampler(pid).stop();
    const otherIdle = other ? memorySampler(other.process.pid!).stop() : undefined;
    const instanceOf = (client: number) => (other && client % 2 === 1 ? other : server);
    const openedAt = Date.now();
    const share = Math.ceil(cookies.length / clients.length);
    const opened = await Promise.all(
      clients.map((c, i) =>
        c.ask<{ ready: number; statuses: Record<string, number> }>({ kind: "open", host: new URL(instanceOf(i).url).hostname, port: Number(new URL(instanceOf(i).url).port), cookies: cookies.slice(i * share, (i + 1) * share), marker: MARKER }, "opened"),
      ),
    );
    const openSeconds = (Date.now() - openedAt) / 1000;
    const ready = opened.reduce((n, o) => n + o.ready, 0);
    if (ready < STREAMS) console.warn(`  only ${ready} of ${STREAMS} streams opened:`, opened.map((o) => o.statuses));
    await new Promise((r) => setTimeout(r, 2000));
    const withStreams = memorySampler(pid).stop();
    const otherWithStreams = other ? memorySampler(other.process.pid!).stop() : undefined;
    const readyOnA = opened.filter((_, i) => instanceOf(i) === server).reduce((n, o) => n + o.ready, 0);

    // Idle: heartbeats only (every stream beats once and its session is looked up once a period).
    const beatsBefore = await heartbeatsSoFar();
    const cpuBefore = cpuSeconds(pid);
    const idleSampler = memorySampler(pid, 500);
    await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
    const idleCpu = (cpuSeconds(pid) - cpuBefore) / IDLE_SECONDS;
    const afterIdle = idleSampler.stop();
    const heartbeats = (await heartbeatsSoFar()) - beatsBefore;

    const started = Date.now();
    await approveApplication(
      applicationId,
      { approvedAmountCents: 4_000_000, interestRateMilli: 9000, termMonths: 48, counterofferReasons: ["Insufficient income"] },
      { actor: { id: userId, name: "Bench Admin", email: "bench.admin@example.com" }, request: {} },
      db.db,
    );
    const returned = Date.now();
    let reports: Report[] = [];
    for (const deadline = Date.now() + 15_000; Date.now() < deadline; ) {
      await new Promise((r) => setTimeout(r, 250));
      reports = await Promise.all(clients.map((c) => c.ask<Report>({ kind: "report" }, "report")));
      if (reports.reduce((n, r) => n + r.arrivals.length, 0) >= ready) break;
    }
    const peak = memorySampler(pid).stop();
    const arrivals = reports.flatMap((r) => r.arrivals.map((at) => at - started)).sort((a, b) => a - b);
    const arrivalsOnB = reports.filter((_, i) => instanceOf(i) !== server).flatMap((r) => r.arrivals.map((at) => at - started)).sort((a, b) => a - b);
    const secondInstance = other
      ? [
          { name: "instance B: streams open", value: ready - readyOnA, unit: "streams" },
          { name: "instance B: RSS idle / with streams", value: mb(otherWithStreams!.baselineRss), unit: "MB", note: `idle ${mb(otherIdle!.baselineRss)} MB` },
          { name: "instance B: streams that received the approval", value: arrivalsOnB.length, unit: "streams" },
          { name: "instance B: approval to p99 stream", value: percentile(arrivalsOnB, 99), unit: "ms" },
        ]
      : [];
    return {
      bench: "live-update fan-out",
      params: { streams: STREAMS, instances: INSTANCES, database: "postgres", ownerStreams, adminStreams: STREAMS - ownerStreams, clientProcesses: CLIENT_PROCESSES },
      figures: [
        { name: "streams open", value: ready, unit: "streams", note: `opened in ${openSeconds.toFixed(1)} s` },
        { name: "server RSS idle", value: mb(idle.baselineRss), unit: "MB" },
        { name: "server RSS with streams", value: mb(withStreams.baselineRss), unit: "MB", note: other ? `instance A, ${readyOnA} streams` : "" },
        { name: "server RSS after a heartbeat period", value: mb(afterIdle.peakRss), unit: "MB" },
        { name: "server peak RSS (VmHWM)", value: mb(peak.hwm), unit: "MB", note: "since start, opening included" },
        { name: "memory per stream", value: Math.round((withStreams.baselineRss - idle.baselineRss) / Math.max(1, readyOnA) / 1024), unit: "KB" },
        { name: "server CPU with idle streams", value: Math.round(idleCpu * 1000) / 10, unit: "% of a core", note: `${heartbeats} heartbeats in ${IDLE_SECONDS} s` },
        { name: "approval call", value: returned - started, unit: "ms", note: "times below count from its start" },
        { name: "streams that received the approval", value: arrivals.length, unit: "streams" },
        { name: "approval to first stream", value: arrivals[0] ?? -1, unit: "ms" },
        { name: "approval to p50 stream", value: percentile(arrivals, 50), unit: "ms" },
        { name: "approval to p99 stream", value: percentile(arrivals, 99), unit: "ms" },
        { name: "approval to last stream", value: arrivals.at(-1) ?? -1, unit: "ms" },
        ...secondInstance,
      ],
    };
  } finally {
    await Promise.all(clients.map((c) => c.ask({ kind: "close" }, "closed").catch(() => c.child.kill())));
    await db.close();
    await Promise.all([server.stop(), other?.stop()]);
    await sink.close();
  }
}
