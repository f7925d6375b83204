import { createHash } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import { data } from "react-router";
import { DATA_EXPORTS_PER_DAY } from "~/domain/validation/account-data";
import { getDb, type DbOrTx } from "~/server/platform/db/client.server";
import type { ServiceAnswer } from "~/server/platform/http/action-answer.server";

/**
 * Fixed-window throttles shared by every server instance.
 *
 * Each (key, window) is one row of rate_limit_hits, bumped by a single atomic
 * `INSERT ... ON CONFLICT (key, window_start) DO UPDATE SET count = count + 1 RETURNING count`, so
 * concurrent requests on any number of instances count exactly (no read-then-write race). Windows are
 * aligned on the database clock (`floor(epoch / window) * window`), so instances with slightly
 * different clocks still share the same window. Rows are tiny; pruneExpired() removes old ones.
 *
 * Keys never hold a raw e-mail address: pass `{ email, scope }` (or use emailKey) and the address is
 * lowercased and hashed (SHA-256, first 32 hex characters).
 */

export type ThrottlePolicy = { readonly limit: number; readonly windowSeconds: number };

/** The named policies (docs/requirements.md §10 fixes codeSendPerEmail: at most 3 codes per address per 10 minutes). */
export const THROTTLES = {
  signInPerIp: { limit: 20, windowSeconds: 600 },
  /** Counted only after the captcha passed, keyed by account AND IP (accountIpKey): see decision 0006. */
  signInPerAccountAndIp: { limit: 10, windowSeconds: 900 },
  codeSendPerEmail: { limit: 3, windowSeconds: 600 },
  codeSendPerIp: { limit: 10, windowSeconds: 600 },
  codeCheckPerIp: { limit: 30, windowSeconds: 600 },
  resetPerIp: { limit: 10, windowSeconds: 600 },
  /** Counted only after the captcha passed, keyed by account AND IP (accountIpKey). */
  resetPerAccountAndIp: { limit: 3, windowSeconds: 900 },
  contactPerIp: { limit: 5, windowSeconds: 600 },
  /** Testimonials per user: 5 an hour. */
  testimonialPerUser: { limit: 5, windowSeconds: 3600 },
  /** Application submissions per user: 20 an hour. */
  applicationPerUser: { limit: 20, windowSeconds: 3600 },
  /** Document links per admin: 120 per 10 minutes. */
  documentLinkPerAdmin: { limit: 120, windowSeconds: 600 },
  /** An applicant's links to their own documents: 30 per 10 minutes (a few documents, opened a few times). */
  documentLinkPerApplicant: { limit: 30, windowSeconds: 600 },
  /** Reveals per admin: 60 per 10 minutes (a person reading records; a script harvesting them is stopped). */
  revealPerAdmin: { limit: 60, windowSeconds: 600 },
  /** Documents uploaded in answer to the lender's requests, per applicant: 30 an hour (a few items, a few retries). */
  requestUploadPerUser: { limit: 30, windowSeconds: 3600 },
  /** Messages written per user (applicant or staff): 60 per 10 minutes (a conversation, not a flood). */
  messageSendPerUser: { limit: 60, windowSeconds: 600 },
  /** Passkey ceremonies (options and answers, sign-in and second factor) per IP: 60 per 10 minutes. */
  passkeyPerIp: { limit: 60, windowSeconds: 600 },
  /** Two-factor code posts per IP (the per-account lock after five misses stays the real guard): 30 per 10 minutes. */
  twoFactorPerIp: { limit: 30, windowSeconds: 600 },
  /** The account page's security changes per user (enrol, disable, passkeys): 30 per 10 minutes. */
  accountSecurityPerUser: { limit: 30, windowSeconds: 600 },
  /** Download My Data requests per person: 3 a day (a UTC day; each builds a file of all their documents). */
  dataExportPerUser: { limit: DATA_EXPORTS_PER_DAY, windowSeconds: 86_400 },
} as const satisfies Record<string, ThrottlePolicy>;

/** A raw key string, or an e-mail address with a scope (stored as `<scope>:acct:<hash>`). */
export type ThrottleKey = string | { email: string; scope: string };

export type ThrottleResult = ReturnType<typeof toResult>;

export type ThrottleOptions = {
  /** Defaults to the process-wide database (getDb()); a transaction counts with its own outcome. */
  db?: DbOrTx;
  /** The instant to count at; defaults to the database's clock. For tests. */
  now?: Date;
};

/** The first 32 hex characters of SHA-256 of the trimmed, lowercased address. */
export function hashEmailForKey(email: string): string {
  return createHash("sha256").update(email.trim().toLowerCase(), "utf8").digest("hex").slice(0, 32);
}

/** `<scope>:acct:<hash of the address>`, e.g. emailKey("signin", "A@b.com") → "signin:acct:3f…". */
export function emailKey(scope: string, email: string): string {
  return `${scope}:acct:${hashEmailForKey(email)}`;
}

/**
 * `<scope>:acct:<hash>:ip:<ip>`: one account's attempts from one address. Per-account limits use this
 * rather than emailKey alone, so attempts from strangers' addresses never stop the owner's own.
 */
export function accountIpKey(scope: string, email: string, ip: string): string {
  return `${emailKey(scope, email)}:ip:${ip}`;
}

export function resolveThrottleKey(key: ThrottleKey): string {
  const resolved = typeof key === "string" ? key : emailKey(key.scope, key.email);
  if (!resolved || resolved.length > 512) throw new Error("throttle key must be 1-512 characters");
  return resolved;
}

function assertPolicy({ limit, windowSeconds }: ThrottlePolicy): void {
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`throttle limit must be a positive integer, got ${limit}`);
  if (!Number.isInteger(windowSeconds) || windowSeconds < 1 || windowSeconds > 86_400) {
    throw new Error(`throttle windowSeconds must be an integer from 1 to 86400, got ${windowSeconds}`);
  }
}

async function rows<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** `now` as SQL: the given instant, or the database clock. */
const nowSql = (now: Date | undefined) => sql`coalesce(${now ? now.toISOString() : null}::timestamptz, now())`;
const windowStartSql = (nowExpr: SQL, windowSeconds: number) =>
  sql`to_timestamp(floor(extract(epoch from ${nowExpr}) / ${windowSeconds}::int) * ${windowSeconds}::int)`;

function toResult(count: number, policy: ThrottlePolicy, windowStartEpoch: number, nowEpoch: number, peek: boolean) {
  const allowed = peek ? count < policy.limit : count <= policy.limit;
  const secondsLeft = Math.max(1, Math.ceil(windowStartEpoch + policy.windowSeconds - nowEpoch));
  return {
    allowed,
    /** Hits left in this window after this one (0 when refused). */
    remaining: Math.max(0, policy.limit - count),
    /** Seconds until the window ends when refused; 0 when allowed. */
    retryAfterSeconds: allowed ? 0 : secondsLeft,
    /** Hits counted in this window, this one included (peek: without a new one). */
    count,
  };
}

type CounterRow = { count: number; window_start: number; now: number };

/** Runs `query` (given the resolved key and the clock) and reads its one counter row as a result. */
async function counter(
  key: ThrottleKey,
  policy: ThrottlePolicy,
  options: ThrottleOptions,
  mode: "hit" | "peek",
  query: (k: string, clock: SQL) => SQL,
): Promise<ThrottleResult> {
  assertPolicy(policy);
  const [row] = await rows<CounterRow>(options.db ?? getDb(), query(resolveThrottleKey(key), nowSql(options.now)));
  if (!row) throw new Error(`throttle: the ${mode} query returned no row`);
  return toResult(Number(row.count), policy, Number(row.window_start), Number(row.now), mode === "peek");
}

/** Counts one hit for `key` in the current window and says whether it is within the limit. */
export function hit(key: ThrottleKey, policy: ThrottlePolicy, options: ThrottleOptions = {}): Promise<ThrottleResult> {
  return counter(key, policy, options, "hit", (k, clock) => sql`
      with clock as (select ${clock} as now),
      bumped as (
        insert into rate_limit_hits as h (key, window_start, count)
        select ${k}, ${windowStartSql(sql`clock.now`, policy.windowSeconds)}, 1 from clock
        on conflict (key, window_start) do update set count = h.count + 1
        returning h.count, h.window_start
      )
      select bumped.count::int as count,
             extract(epoch from bumped.window_start)::float8 as window_start,
             extract(epoch from clock.now)::float8 as now
      from bumped, clock`);
}

/** Reads the current window's count without counting a hit; `allowed` says whether one more would pass. */
export function peek(key: ThrottleKey, policy: ThrottlePolicy, options: ThrottleOptions = {}): Promise<ThrottleResult> {
  return counter(key, policy, options, "peek", (k, clock) => sql`
      with clock as (select ${clock} as now),
      win as (select ${windowStartSql(sql`clock.now`, policy.windowSeconds)} as start, clock.now from clock)
      select coalesce((select h.count from rate_limit_hits h where h.key = ${k} and h.window_start = win.start), 0)::int as count,
             extract(epoch from win.start)::float8 as window_start,
             extract(epoch from win.now)::float8 as now
      from win`);
}

/** Forgets every window of `key` (e.g. the failed sign-ins of an account after a successful one). */
export async function reset(key: ThrottleKey, options: Pick<ThrottleOptions, "db"> = {}): Promise<void> {
  const db = options.db ?? getDb();
  await db.execute(sql`delete from rate_limit_hits where key = ${resolveThrottleKey(key)}`);
}

/**
 * Deletes rows whose window started more than `olderThanSeconds` (default a day) ago; returns how many.
 * Every policy's window is far shorter. Used captcha challenges are stored with window_start = their
 * expiry, so they go a day after they expired (they are refused as expired long before).
 */
export async function pruneExpired(options: Pick<ThrottleOptions, "db"> & { olderThanSeconds?: number } = {}): Promise<number> {
  const db = options.db ?? getDb();
  const seconds = Math.max(0, Math.floor(options.olderThanSeconds ?? 86_400));
  const [row] = await rows<{ deleted: number }>(
    db,
    sql`
      with gone as (
        delete from rate_limit_hits where window_start < now() - make_interval(secs => ${seconds}::int) returning 1
      )
      select count(*)::int as deleted from gone`,
  );
  return Number(row?.deleted ?? 0);
}

/** "Too many attempts. Please wait 5 minutes and try again." (whole minutes, rounded up). */
export function tooManyAttemptsMessage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many attempts. Please wait ${minutes} ${minutes === 1 ? "minute" : "minutes"} and try again.`;
}

export type ThrottleCheck =
  | { ok: true; results: ThrottleResult[] }
  | { ok: false; results: ThrottleResult[]; retryAfterSeconds: number; message: string };

/** Counts a hit on every key (in order) and reports whether all are within their limits. */
export async function checkThrottles(
  keys: readonly (readonly [ThrottleKey, ThrottlePolicy])[],
  options: ThrottleOptions = {},
): Promise<ThrottleCheck> {
  const results: ThrottleResult[] = [];
  for (const [key, policy] of keys) results.push(await hit(key, policy, options));
  const refused = results.filter((r) => !r.allowed);
  if (refused.length === 0) return { ok: true, results };
  const retryAfterSeconds = Math.max(...refused.map((r) => r.retryAfterSeconds));
  return { ok: false, results, retryAfterSeconds, message: tooManyAttemptsMessage(retryAfterSeconds) };
}

/**
 * The service-side answer to a refused check: 429 with Retry-After and the body `refuse` builds from
 * the "Too many attempts…" message; null when every key is within its limit.
 */
export async function throttleRefusal<Body>(
  keys: readonly (readonly [ThrottleKey, ThrottlePolicy])[],
  refuse: (message: string) => Body,
  options: ThrottleOptions = {},
): Promise<ServiceAnswer<Body> | null> {
  const check = await checkThrottles(keys, options);
  if (check.ok) return null;
  return { status: 429, body: refuse(check.message), headers: { "Retry-After": String(check.retryAfterSeconds) } };
}

/**
 * Counts a hit on every key; when any is over its limit, throws a React Router `data()` response:
 * 429 with `{ error: 'Too many attempts. Please wait N minutes and try again.' }` and Retry-After.
 */
export async function throttleOrThrow(
  keys: readonly (readonly [ThrottleKey, ThrottlePolicy])[],
  options: ThrottleOptions = {},
): Promise<ThrottleResult[]> {
  const check = await checkThrottles(keys, options);
  if (!check.ok) {
    throw data(
      { error: check.message },
      { status: 429, headers: { "Retry-After": String(check.retryAfterSeconds) } },
    );
  }
  return check.results;
}
