import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import { sql } from "drizzle-orm";
import { openDatabase } from "~/server/platform/db/client.server";
import { passAdminMfa, signInOverHttp } from "../tests/helpers/admins";

/** Shared pieces of the benchmarks: server memory sampling, percentiles, child processes. */

export type Figure = { name: string; value: number; unit: string; note?: string };
export type BenchResult = { bench: string; figures: Figure[]; params: Record<string, unknown> };

/** Samples a process's resident memory; VmHWM is the kernel's own peak since start. */
export function memorySampler(pid: number, everyMs = 50) {
  let peakRss = 0;
  const read = () => {
    try {
      const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
      const rss = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
      peakRss = Math.max(peakRss, rss);
      return { rss, hwm: Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024 };
    } catch {
      return { rss: 0, hwm: 0 };
    }
  };
  const baseline = read();
  const timer = setInterval(read, everyMs);
  return {
    baseline,
    stop: () => {
      clearInterval(timer);
      const last = read();
      return { peakRss: Math.max(peakRss, last.rss), hwm: last.hwm, baselineRss: baseline.rss };
    },
  };
}

export const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/** Applicants are made as the end-to-end tests make them. */
export { signUpOverHttp } from "../tests/helpers/applicants";

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const TICK_MS = 1000 / 100; // /proc's clock ticks (USER_HZ is 100 on Linux)

/**
 * utime + stime of these processes, in ms, plus the CPU of the children they reaped (cutime + cstime):
 * a PostgreSQL backend that ends during a run is counted in its postmaster's figures.
 */
export function cpuMs(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    } catch {
      // gone: its time is in its parent's reaped-children figures
    }
  }
  return ticks * TICK_MS;
}

/** Every PostgreSQL process on the machine (the bench is meant to run alone). */
export function postgresPids(): number[] {
  return fs
    .readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "postgres";
      } catch {
        return false;
      }
    });
}

/** The direct children of a process (the server processes under a WEB_CONCURRENCY supervisor). */
export function childPids(pid: number): number[] {
  try {
    return execFileSync("pgrep", ["-P", String(pid)], { encoding: "utf8" }).trim().split("\n").filter(Boolean).map(Number);
  } catch {
    return []; // pgrep exits 1 when there are none
  }
}

// ---------------------------------------------------------------------------------------------
// Signed-in load (the signed-in and scale benches): users with their own keep-alive connection,
// sign-ins over HTTP (admins through the second factor), and a quiet disk before each run.
// ---------------------------------------------------------------------------------------------

export const BROWSER_HEADERS = {
  accept: "text/html,application/xhtml+xml",
  "accept-encoding": "gzip, deflate, br",
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36",
};

export type Visitor = { cookie: string; next: () => string };
/** `requests`: those measured (after the ramp); `all`: every request the run made (for costs per request). */
export type RunResult = { requests: number; all: number; perSecond: number; p50: number; p95: number; p99: number; max: number; errors: number; firstError?: string };

/** A small deterministic generator, so two runs ask for the same pages. */
export function generator(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** One GET with a browser's headers and `cookie`, the body read and dropped; resolves to the status. */
export function get(agent: http.Agent, url: string, cookie: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers: { ...BROWSER_HEADERS, cookie } }, (res) => {
      res.on("data", () => undefined);
      res.on("end", () => resolve(res.statusCode ?? 0));
      res.on("error", reject);
    });
    req.on("error", reject);
  });
}

export type DriveOptions = { thinkMs: number; seed: number; seconds: number; rampSeconds: number };

/** Every visitor loops until the time is up; only requests started after the ramp-up are counted. */
export async function drive(visitors: Visitor[], { thinkMs, seed, seconds, rampSeconds }: DriveOptions): Promise<RunResult> {
  // Each user keeps their own connection, as a browser does. (One shared pool hands paced requests to
  // whichever socket was used last, piling most users onto a few connections and so onto one of the
  // server processes, which the cluster assigns per connection.)
  const agents = visitors.map(() => new http.Agent({ keepAlive: true, maxSockets: 1 }));
  const random = generator(seed);
  const measureFrom = performance.now() + rampSeconds * 1000;
  const end = measureFrom + seconds * 1000;
  const latencies: number[] = [];
  let all = 0;
  let errors = 0;
  let firstError: string | undefined;
  await Promise.all(
    visitors.map(async (visitor, i) => {
      // Paced users start spread over one think time rather than all in the same millisecond.
      if (thinkMs > 0) await new Promise((r) => setTimeout(r, (i / visitors.length) * thinkMs));
      while (performance.now() < end) {
        const url = visitor.next();
        const started = performance.now();
        let outcome: string;
        try {
          outcome = `HTTP ${await get(agents[i]!, url, visitor.cookie)}`;
        } catch (error) {
          outcome = (error as Error).message;
        }
        all++;
        if (started >= measureFrom && started < end) {
          latencies.push(performance.now() - started);
          if (outcome !== "HTTP 200") {
            errors++;
            firstError ??= `${url}: ${outcome}`;
          }
        }
        if (thinkMs > 0) await new Promise((r) => setTimeout(r, thinkMs * (0.5 + random())));
      }
    }),
  );
  for (const agent of agents) agent.destroy();
  latencies.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    requests: latencies.length,
    all,
    perSecond: seconds > 0 ? Math.round(latencies.length / seconds) : 0,
    p50: round(percentile(latencies, 50)),
    p95: round(percentile(latencies, 95)),
    p99: round(percentile(latencies, 99)),
    max: round(latencies.at(-1) ?? 0),
    errors,
    firstError,
  };
}

/**
 * Writes what the seeding and the sign-ins left behind to disk before a measured run: a CHECKPOINT
 * (PostgreSQL's dirty buffers) and `sync` (the kernel's dirty pages). Otherwise their flush, some
 * hundred megabytes, lands in the middle of a run whenever the next timed checkpoint or the kernel's
 * writeback comes, and every commit then waits behind it (on this machine up to a second for the admin
 * list, whose reads are audited with a durable commit). What is measured is then the pages, not the
 * seeding's writeback.
 */
export async function settleWrites(databaseUrl: string) {
  const database = await openDatabase({ databaseUrl, poolSize: 1 });
  try {
    await database.db.execute(sql`checkpoint`);
  } finally {
    await database.close();
  }
  execFileSync("sync");
}

/** Runs `fn` over `items` with at most `limit` at a time (sign-ins solve a proof of work each). */
export async function inBatches<T, R>(items: T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += limit) out.push(...(await Promise.all(items.slice(i, i + limit).map((item, j) => fn(item, i + j)))));
  return out;
}

/** A distinct client address per session (TRUST_PROXY reads it): sign-ins are throttled per address. */
export const ipFor = (n: number) => `198.18.${10 + Math.floor(n / 200)}.${(n % 200) + 1}`;

/** `secret`: the TOTP key the admin enrolled, on its first session (later sign-ins verify with it). */
export type AdminSession = { cookie: string; adminId: string; secret?: string };

/**
 * `count` admin sessions over `admins`, second factor passed over HTTP: each admin enrols TOTP with
 * its first session (tests/helpers/admins.ts) and verifies its others with the backup codes it got.
 */
export async function adminSessions(base: string, admins: { id: string; email: string }[], count: number, password: string): Promise<AdminSession[]> {
  const perAdmin = Math.ceil(count / admins.length);
  if (perAdmin > 11) throw new Error(`${count} sessions need more than ${admins.length} admins (one TOTP and ten backup codes each)`);
  const sessions: AdminSession[] = [];
  await inBatches(admins, 5, async (admin, a) => {
    const first = await signInOverHttp(base, admin.email, password, ipFor(1000 + a * perAdmin));
    const { backupCodes, secret } = await passAdminMfa(base, first);
    sessions.push({ cookie: first, adminId: admin.id, secret });
    for (let k = 1; k < perAdmin && sessions.length < count; k++) {
      const cookie = await signInOverHttp(base, admin.email, password, ipFor(1000 + a * perAdmin + k));
      const res = await fetch(`${base}/admin/mfa`, {
        method: "POST",
        body: new URLSearchParams({ intent: "verify", code: backupCodes[k - 1]!, redirectTo: "/admin" }),
        headers: { cookie, origin: base },
        redirect: "manual",
      });
      if (res.status !== 302) throw new Error(`${admin.email}: backup code refused (${res.status})`);
      sessions.push({ cookie, adminId: admin.id });
    }
  });
  return sessions.slice(0, count);
}
