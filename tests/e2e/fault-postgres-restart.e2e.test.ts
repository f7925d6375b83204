import { eq, inArray } from "drizzle-orm";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpOverHttp } from "../helpers/applicants";
import { DATABASE_UNAVAILABLE_MESSAGE } from "~/server/platform/db/unavailable.server";
import { openDatabase } from "~/server/platform/db/client.server";
import { loanApplications, user } from "~/server/platform/db/schema.server";
import { ownPostgresAvailable, startOwnPostgres, type OwnPostgres } from "../helpers/own-postgres";
import type { SmtpSink } from "../helpers/smtp-sink";
import { testSecrets, type TestServer } from "./harness";
import { startServerWithMail, stopStack } from "./helpers/stack";
import { signInOverHttp } from "../helpers/admins";
import { checkApplications, orphanKeys, storedFiles, submitOverHttp } from "./helpers/submissions";

/**
 * PostgreSQL restarts under load. While it is down, requests that need it answer 503 with a message
 * that says to try again (never a 500, never a stack trace), /healthz says so, and pages that need no
 * database still work; once it is back the server recovers by itself, and no submission is half there.
 */

const PASSWORD = "Str0ng!Passw0rd";
const FILE_BYTES = 64 * 1024;

type Sample = { kind: string; status: number; body: string; startedAt: number; endedAt: number };

describe.runIf(ownPostgresAvailable)("PostgreSQL restarted under load", () => {
  let postgres: OwnPostgres;
  let sink: SmtpSink;
  let server: TestServer;
  let dataDir: string;

  beforeAll(async () => {
    postgres = await startOwnPostgres();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-pg-restart-"));
    ({ sink, server } = await startServerWithMail({ ...testSecrets(), DATABASE_URL: postgres.url, TRUST_PROXY: "true" }, { dataDir }));
  });
  afterAll(async () => {
    await stopStack({ sink, server });
    await postgres?.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("503s with a clear message during the outage, /healthz reports it, and everything recovers without a restart", { timeout: 240_000 }, async () => {
    const base = server.url;
    const email = `restart-${Date.now()}@example.com`;
    const cookie = await signUpOverHttp(base, sink, email, "198.18.2.1");
    const created: string[] = [];
    const first = await submitOverHttp(base, cookie, "198.18.2.1", FILE_BYTES);
    expect(first.status).toBe(201);
    created.push(first.applicationId!);

    // Load: signed-in dashboards, rendered public pages (a query string skips the page cache), with
    // and without a session, /healthz and submissions, until told to stop.
    const samples: Sample[] = [];
    let loading = true;
    let n = 0;
    const request = async (kind: string, url: string, init: RequestInit = {}) => {
      const startedAt = Date.now();
      // Retried once on a transport error: an idle keep-alive socket the server has just closed.
      const get = () => fetch(`${base}${url}`, { redirect: "manual", ...init });
      const res = await get().catch(() => get().catch((error: Error) => ({ status: 0, text: async () => error.message })));
      samples.push({ kind, status: res.status, body: await res.text(), startedAt, endedAt: Date.now() });
    };
    const submit = async () => {
      const startedAt = Date.now();
      const outcome = await submitOverHttp(base, cookie, "198.18.2.1", FILE_BYTES);
      if (outcome.status === 201) created.push(outcome.applicationId!);
      samples.push({ kind: "submit", status: outcome.status, body: outcome.message ?? outcome.error ?? "", startedAt, endedAt: Date.now() });
    };
    const worker = async (kind: string, next: () => Promise<void>) => {
      while (loading) await next();
      return kind;
    };
    const load = Promise.all([
      worker("dashboard", () => request("dashboard", "/dashboard", { headers: { cookie } })),
      worker("public", () => request("public", `/about?visit=${n++}`)),
      worker("public-signed-in", () => request("public-signed-in", `/how-it-works?visit=${n++}`, { headers: { cookie } })),
      worker("healthz", async () => {
        await request("healthz", "/healthz");
        await new Promise((r) => setTimeout(r, 100));
      }),
      worker("submit", async () => {
        await submit();
        // Slow enough to stay under the 20 submissions an hour one applicant may make.
        await new Promise((r) => setTimeout(r, 700));
      }),
    ]);

    await new Promise((r) => setTimeout(r, 1500));
    const stopping = Date.now();
    await postgres.stop();
    const down = Date.now();
    // One request of each kind certain to run inside the outage, then the rest of the 3 s. A background
    // request sent while PostgreSQL was shutting down can straddle the whole outage (a ping waits up
    // to 2 s, a query on a dying connection longer), leaving its kind unobserved in the window.
    await Promise.all([
      request("healthz", "/healthz"),
      request("dashboard", "/dashboard", { headers: { cookie } }),
      request("public-signed-in", `/how-it-works?visit=${n++}`, { headers: { cookie } }),
      submit(),
    ]);
    await new Promise((r) => setTimeout(r, Math.max(0, 3000 - (Date.now() - down))));
    const restarting = Date.now();
    await postgres.start();
    const up = Date.now();

    // Recovers by itself: /healthz is 200 again within a few seconds of PostgreSQL being back.
    let healthyAt = 0;
    while (Date.now() - up < 15_000) {
      const res = await fetch(`${base}/healthz`).catch(() => fetch(`${base}/healthz`));
      if (res.status === 200) {
        healthyAt = Date.now();
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(healthyAt, "the server did not report healthy within 15 s of PostgreSQL restarting").toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 1000));
    loading = false;
    await load;

    const during = samples.filter((s) => s.startedAt >= down && s.endedAt <= restarting);
    const summary = (list: Sample[]) =>
      Object.entries(
        list.reduce<Record<string, number>>((acc, s) => ((acc[`${s.kind} ${s.status}`] = (acc[`${s.kind} ${s.status}`] ?? 0) + 1), acc), {}),
      )
        .map(([k, v]) => `${k}×${v}`)
        .join(", ");
    console.log(
      `[postgres restart] stop took ${down - stopping} ms, healthy ${healthyAt - up} ms after start; ` +
        `during the outage: ${summary(during)}; overall: ${summary(samples)}`,
    );

    // Never a 500 or a stack trace, whenever the request ran; nothing but 503 for what needs the database.
    for (const s of samples) {
      expect([0, 500, 502], `${s.kind}: ${s.status} ${s.body.slice(0, 200)}`).not.toContain(s.status);
      expect(s.body).not.toMatch(/\n\s+at .+\(.+:\d+:\d+\)|node_modules|ECONNREFUSED|57P01/);
    }
    for (const kind of ["dashboard", "public-signed-in", "healthz", "submit"]) {
      expect(during.filter((s) => s.kind === kind).length, `no ${kind} request ran during the outage`).toBeGreaterThan(0);
    }
    for (const s of during.filter((x) => x.kind === "dashboard" || x.kind === "public-signed-in")) {
      expect(s.status).toBe(503);
      expect(s.body).toContain(DATABASE_UNAVAILABLE_MESSAGE);
      expect(s.body).toContain("<h1>Service temporarily unavailable</h1>");
    }
    for (const s of during.filter((x) => x.kind === "healthz")) {
      expect(s.status).toBe(503);
      expect(JSON.parse(s.body)).toMatchObject({ status: "unavailable", database: "postgres" });
    }
    for (const s of during.filter((x) => x.kind === "submit")) {
      expect(s.status).toBe(503);
      expect(s.body).toBe(DATABASE_UNAVAILABLE_MESSAGE);
    }
    // Pages that need no database stay readable.
    for (const s of during.filter((x) => x.kind === "public")) expect(s.status).toBe(200);
    // Requests in flight when it stopped: finished normally, or a clear 503.
    for (const s of samples.filter((x) => x.startedAt < down && x.endedAt > stopping)) expect([200, 201, 302, 503]).toContain(s.status);

    // After recovery: the old session works, a new sign-in works, a submission goes through.
    const after = await fetch(`${base}/dashboard`, { headers: { cookie }, redirect: "manual" });
    expect(after.status).toBe(200);
    const fresh = await signInOverHttp(base, email, PASSWORD, "198.18.2.2");
    expect((await fetch(`${base}/dashboard`, { headers: { cookie: fresh }, redirect: "manual" })).status).toBe(200);
    const last = await submitOverHttp(base, fresh, "198.18.2.2", FILE_BYTES);
    expect(last.status).toBe(201);
    created.push(last.applicationId!);

    // No half-written rows: every application is whole, exactly the ones answered 201; no orphan files.
    const database = await openDatabase({ databaseUrl: postgres.url, poolSize: 2 });
    try {
      const [applicant] = await database.db.select({ id: user.id }).from(user).where(eq(user.email, email));
      const files = storedFiles(dataDir);
      const check = await checkApplications(database.db, [applicant!.id], (key) => files.includes(key));
      expect(check.problems).toEqual([]);
      const ids = await database.db.select({ id: loanApplications.id }).from(loanApplications).where(inArray(loanApplications.userId, [applicant!.id]));
      expect(ids.map((r) => r.id).sort()).toEqual([...created].sort());
      expect(await orphanKeys(database.db, files)).toEqual([]);
      expect(files.filter((f) => f.endsWith(".part"))).toEqual([]);
    } finally {
      await database.close();
    }
  });
});
