import { sql } from "drizzle-orm";
import { isRouteErrorResponse } from "react-router";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, setDatabase, type Database } from "~/server/platform/db/client.server";
import { rateLimitHits } from "~/server/platform/db/schema.server";
import {
  checkThrottles,
  emailKey,
  hashEmailForKey,
  hit,
  peek,
  pruneExpired,
  reset,
  THROTTLES,
  throttleOrThrow,
  tooManyAttemptsMessage,
} from "~/server/platform/security/throttle.server";
import { TEST_DATABASE_URL, testTargets, useTestDatabase } from "../helpers/test-db";

const policy = { limit: 3, windowSeconds: 600 };
let n = 0;
const freshKey = (label: string) => `test:${label}:${++n}`;
/** A fixed instant in the middle of a 600-second window. */
const T0 = new Date(Date.UTC(2026, 0, 15, 12, 5, 0));
const plus = (date: Date, seconds: number) => new Date(date.getTime() + seconds * 1000);

describe.each(testTargets)("throttles on %s", (target) => {
  const database = useTestDatabase({ target, poolSize: 10 });
  const db = () => database().db;

  it("allows 3 hits, refuses the 4th with the time left in the window", async () => {
    const key = freshKey("basic");
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await hit(key, policy, { db: db(), now: T0 }));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(results.map((r) => r.remaining)).toEqual([2, 1, 0, 0]);
    expect(results.map((r) => r.count)).toEqual([1, 2, 3, 4]);
    expect(results.slice(0, 3).every((r) => r.retryAfterSeconds === 0)).toBe(true);
    // T0 is 12:05:00; the 600 s window is 12:00-12:10, so 300 s are left.
    expect(results[3]!.retryAfterSeconds).toBe(300);
  });

  it("starts over in a new window", async () => {
    const key = freshKey("window");
    for (let i = 0; i < 4; i++) await hit(key, policy, { db: db(), now: T0 });
    expect((await hit(key, policy, { db: db(), now: plus(T0, 299) })).allowed).toBe(false);
    const next = await hit(key, policy, { db: db(), now: plus(T0, 300) });
    expect(next).toMatchObject({ allowed: true, count: 1, remaining: 2 });
  });

  it("counts exactly under 50 concurrent hits", async () => {
    const key = freshKey("concurrent");
    const big = { limit: 40, windowSeconds: 600 };
    const results = await Promise.all(Array.from({ length: 50 }, () => hit(key, big, { db: db(), now: T0 })));
    expect(results.map((r) => r.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(results.filter((r) => r.allowed)).toHaveLength(40);
    const [row] = await db()
      .select({ count: rateLimitHits.count })
      .from(rateLimitHits)
      .where(sql`${rateLimitHits.key} = ${key}`);
    expect(row?.count).toBe(50);
  });

  it("uses the database clock when no instant is given", async () => {
    const key = freshKey("clock");
    const first = await hit(key, { limit: 1, windowSeconds: 60 }, { db: db() });
    const second = await hit(key, { limit: 1, windowSeconds: 60 }, { db: db() });
    expect(first.allowed).toBe(true);
    // Unless the minute turned between the two calls, the second is refused with 1-60 s to wait.
    if (second.count === 2) {
      expect(second.allowed).toBe(false);
      expect(second.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(second.retryAfterSeconds).toBeLessThanOrEqual(60);
    }
  });

  it("peek reads without counting; reset forgets the key", async () => {
    const key = freshKey("peek");
    expect(await peek(key, policy, { db: db(), now: T0 })).toMatchObject({ allowed: true, count: 0, remaining: 3 });
    for (let i = 0; i < 3; i++) await hit(key, policy, { db: db(), now: T0 });
    expect(await peek(key, policy, { db: db(), now: T0 })).toMatchObject({ allowed: false, count: 3, retryAfterSeconds: 300 });
    expect((await peek(key, policy, { db: db(), now: T0 })).count).toBe(3);
    await reset(key, { db: db() });
    expect(await peek(key, policy, { db: db(), now: T0 })).toMatchObject({ allowed: true, count: 0 });
  });

  it("pruneExpired removes rows older than a day and keeps recent ones", async () => {
    const old = freshKey("old");
    const recent = freshKey("recent");
    await hit(old, policy, { db: db(), now: new Date(Date.now() - 2 * 86_400_000) });
    await hit(recent, policy, { db: db() });
    const deleted = await pruneExpired({ db: db() });
    expect(deleted).toBeGreaterThanOrEqual(1);
    const keys = (await db().select({ key: rateLimitHits.key }).from(rateLimitHits)).map((r) => r.key);
    expect(keys).not.toContain(old);
    expect(keys).toContain(recent);
  });

  it("hashes e-mail keys: lowercased, trimmed, never stored raw", async () => {
    expect(emailKey("signin", "  Ada@Example.COM ")).toBe(emailKey("signin", "ada@example.com"));
    expect(hashEmailForKey("ada@example.com")).toMatch(/^[0-9a-f]{32}$/);
    const email = `person${++n}@example.com`;
    await hit({ email: email.toUpperCase(), scope: "signin" }, policy, { db: db(), now: T0 });
    const second = await hit({ email, scope: "signin" }, policy, { db: db(), now: T0 });
    expect(second.count).toBe(2);
    const keys = (await db().select({ key: rateLimitHits.key }).from(rateLimitHits)).map((r) => r.key);
    expect(keys).toContain(`signin:acct:${hashEmailForKey(email)}`);
    expect(keys.some((k) => k.includes("@") || k.includes("person"))).toBe(false);
  });

  it("throttleOrThrow throws a 429 data() with Retry-After when any key is over", async () => {
    const ip = freshKey("ip");
    const account = { email: `victim${++n}@example.com`, scope: "signin" };
    const keys = [
      [ip, THROTTLES.signInPerIp],
      [account, policy],
    ] as const;
    for (let i = 0; i < 3; i++) await throttleOrThrow(keys, { db: db(), now: T0 });
    let thrown: unknown;
    try {
      await throttleOrThrow(keys, { db: db(), now: T0 });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeDefined();
    const response = thrown as { type: string; data: { error: string }; init: ResponseInit };
    expect(response.type).toBe("DataWithResponseInit");
    expect(response.init.status).toBe(429);
    expect(new Headers(response.init.headers).get("Retry-After")).toBe("300");
    expect(response.data).toEqual({ error: "Too many attempts. Please wait 5 minutes and try again." });
    expect(isRouteErrorResponse(thrown)).toBe(false); // a data() value: React Router turns it into the 429 response
    const check = await checkThrottles(keys, { db: db(), now: plus(T0, 250) });
    expect(check).toMatchObject({ ok: false, retryAfterSeconds: 50, message: "Too many attempts. Please wait 1 minute and try again." });
  });

  it("has the named policies, with 3 codes per e-mail per 10 minutes", () => {
    expect(THROTTLES.codeSendPerEmail).toEqual({ limit: 3, windowSeconds: 600 });
    for (const p of Object.values(THROTTLES)) {
      expect(Number.isInteger(p.limit) && p.limit > 0).toBe(true);
      expect(p.windowSeconds).toBeLessThanOrEqual(86_400);
    }
    expect(tooManyAttemptsMessage(1)).toBe("Too many attempts. Please wait 1 minute and try again.");
    expect(tooManyAttemptsMessage(601)).toBe("Too many attempts. Please wait 11 minutes and try again.");
  });

  it("falls back to the process-wide database", async () => {
    setDatabase(database());
    try {
      const key = freshKey("global");
      expect((await hit(key, policy, { now: T0 })).count).toBe(1);
      expect((await hit(key, policy, { now: T0 })).count).toBe(2);
    } finally {
      setDatabase(undefined);
    }
  });
});

describe.runIf(TEST_DATABASE_URL)("two server instances on one PostgreSQL", () => {
  const database = useTestDatabase({ target: "postgres" });
  const extra: Database[] = [];
  afterAll(async () => {
    for (const d of extra) await d.close();
  });

  it("share one count", async () => {
    const first = database();
    const second = await openDatabase({ databaseUrl: first.url!, poolSize: 5 });
    extra.push(second);
    const key = freshKey("shared");
    const a = await hit(key, policy, { db: first.db, now: T0 });
    const b = await hit(key, policy, { db: second.db, now: T0 });
    const c = await hit(key, policy, { db: first.db, now: T0 });
    const d = await hit(key, policy, { db: second.db, now: T0 });
    expect([a, b, c, d].map((r) => r.count)).toEqual([1, 2, 3, 4]);
    expect(d.allowed).toBe(false);

    // And concurrently from both: 25 + 25 hits count 50.
    const k2 = freshKey("shared-concurrent");
    const big = { limit: 100, windowSeconds: 600 };
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => hit(k2, big, { db: (i % 2 ? first : second).db, now: T0 })),
    );
    expect(Math.max(...results.map((r) => r.count))).toBe(50);
    expect(new Set(results.map((r) => r.count)).size).toBe(50);
  });
});
