import { inArray } from "drizzle-orm";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpOverHttp } from "../helpers/applicants";
import { openDatabase, type Database } from "~/server/platform/db/client.server";
import { auditLog, user } from "~/server/platform/db/schema.server";
import { startSmtpSink, type SmtpSink } from "../helpers/smtp-sink";
import { createScratchPostgresDatabase, TEST_DATABASE_URL } from "../helpers/test-db";
import { startTestServer, testSecrets, type TestServer } from "./harness";
import { checkApplications, orphanKeys, storedFiles, submitOverHttp, type SubmitOutcome } from "./helpers/submissions";

/**
 * The server is killed (SIGKILL: no shutdown hook runs) while 20 applicants submit at once. After a
 * restart on the same data, every application is whole or absent, and the files of the submissions
 * that died between writing their documents and committing are swept away at start-up.
 */

const APPLICANTS = 20;
const FILE_BYTES = 1024 * 1024;
/** Killed once this many submissions have been answered 201: the rest are somewhere in flight. */
const KILL_AFTER_CREATED = 3;

type Target = { name: string; env: () => Promise<Record<string, string>>; open: (dataDir: string) => Promise<Database>; cleanup: () => Promise<void> };

let scratch: Awaited<ReturnType<typeof createScratchPostgresDatabase>> | undefined;
const targets: Target[] = [
  {
    name: "embedded PGlite",
    env: async () => ({}),
    open: (dataDir) => openDatabase({ dataDir }),
    cleanup: async () => undefined,
  },
  ...(TEST_DATABASE_URL
    ? [
        {
          name: "PostgreSQL",
          env: async () => {
            scratch = await createScratchPostgresDatabase();
            // One instance here: the restarted server may sweep at once (in production the grace
            // period covers the other instances' submissions in flight).
            return { DATABASE_URL: scratch.url, ORPHAN_GRACE_SECONDS: "0" };
          },
          open: () => openDatabase({ databaseUrl: scratch!.url, poolSize: 2 }),
          cleanup: async () => scratch?.drop(),
        } satisfies Target,
      ]
    : []),
];

describe.each(targets)("SIGKILL during 20 submissions ($name)", (target) => {
  let sink: SmtpSink;
  let server: TestServer | undefined;
  let dataDir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    sink = await startSmtpSink();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-sigkill-"));
    env = { ...testSecrets(), SMTP_URL: sink.url, PWNED_PASSWORDS_URL: "off", TRUST_PROXY: "true", ...(await target.env()) };
  });
  afterAll(async () => {
    await server?.stop();
    await sink.close();
    await target.cleanup();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("after a restart each application is complete or absent, and no orphan file remains", { timeout: 300_000 }, async () => {
    server = await startTestServer(env, { dataDir });
    const emails = Array.from({ length: APPLICANTS }, (_, i) => `killed${i}-${Date.now()}@example.com`);
    const cookies: string[] = [];
    for (let i = 0; i < APPLICANTS; i += 5) {
      const batch = emails.slice(i, i + 5).map((email, j) => signUpOverHttp(server!.url, sink, email, `198.18.1.${i + j + 1}`));
      cookies.push(...(await Promise.all(batch)));
    }

    // All at once; the kill comes when a few have been answered, so others are mid-write.
    const running = server;
    let created = 0;
    let killedAt = -1;
    const kill = () => {
      if (killedAt >= 0) return;
      killedAt = created;
      running.process.kill("SIGKILL");
    };
    const outcomes: SubmitOutcome[] = await Promise.all(
      cookies.map((cookie, i) =>
        submitOverHttp(running.url, cookie, `198.18.1.${i + 1}`, FILE_BYTES).then((outcome) => {
          if (outcome.status === 201 && ++created >= KILL_AFTER_CREATED) kill();
          return outcome;
        }),
      ),
    );
    kill(); // in case fewer succeeded (it must not matter for the checks below)
    await running.stop();
    expect(running.output()).toContain("server ended by signal SIGKILL");

    // A 201 whose body the kill cut off names no application: only complete answers are checked by id.
    const answered = outcomes.filter((o) => o.status === 201 && o.applicationId);
    const cutOff = outcomes.filter((o) => o.status === 0).length;
    const filesAfterKill = storedFiles(dataDir);
    const partsAfterKill = filesAfterKill.filter((f) => f.endsWith(".part"));
    const spooled = () => (fs.existsSync(path.join(dataDir, "uploads")) ? fs.readdirSync(path.join(dataDir, "uploads")) : []);
    const spooledAfterKill = spooled().length;

    // Restart on the same data; the start-up sweep runs in the background and logs when done.
    server = await startTestServer(env, { dataDir });
    const restarted = server;
    await expect.poll(() => restarted.output(), { timeout: 60_000 }).toMatch(/orphan sweep \(start-up\): .*\n/);
    const sweepLine = /\[storage\] orphan sweep \(start-up\): [^\n]*/.exec(restarted.output())![0];
    // Uploads the killed process was still receiving (spooled, never checked) are removed too.
    await expect.poll(spooled, { timeout: 30_000 }).toEqual([]);
    // The cleaner logs once it has removed them all: the line can reach this process's pipe a moment
    // after the folder is seen empty.
    if (spooledAfterKill > 0) {
      await expect.poll(() => restarted.output(), { timeout: 30_000 }).toContain(`removed ${spooledAfterKill} upload spool folder(s)`);
    }
    expect(await fetch(`${restarted.url}/healthz`).then((r) => r.status)).toBe(200);
    expect(await restarted.stop()).toBe(0);
    server = undefined;

    const database = await target.open(dataDir);
    try {
      const users = await database.db.select({ id: user.id }).from(user).where(inArray(user.email, emails));
      expect(users).toHaveLength(APPLICANTS);
      const files = storedFiles(dataDir);
      const check = await checkApplications(
        database.db,
        users.map((u) => u.id),
        (key) => files.includes(key),
      );
      const orphansAfterKill = await orphanKeys(
        database.db,
        filesAfterKill.filter((f) => !f.endsWith(".part")),
      );
      console.log(
        `[sigkill ${target.name}] killed after ${killedAt} answers of 201 (${answered.length} complete answers, ${cutOff} cut off); ` +
          `after restart: ${check.complete.length} complete, ${check.absentUsers.length} absent; ` +
          `left by the kill: ${orphansAfterKill.length} orphan files, ${partsAfterKill.length} .part files, ${spooledAfterKill} spooled uploads; ${sweepLine}`,
      );

      expect(check.problems).toEqual([]);
      expect(check.complete.length + check.absentUsers.length).toBe(APPLICANTS);
      // The kill really came mid-way: some were committed, some were not.
      expect(check.complete.length).toBeGreaterThanOrEqual(KILL_AFTER_CREATED);
      expect(check.absentUsers.length).toBeGreaterThan(0);
      // Every submission answered 201 is there in full.
      expect(answered.length).toBeGreaterThan(0);
      for (const outcome of answered) expect(check.complete).toContain(outcome.applicationId);
      // The kill left something of uncommitted submissions behind (stored files, partial writes, or
      // uploads still being received in the spool: which one depends on how far each had got when the
      // process died, so a loaded machine sees any of them), and the sweeps removed them all.
      expect(orphansAfterKill.length + partsAfterKill.length + spooledAfterKill).toBeGreaterThan(0);
      expect(files.filter((f) => f.endsWith(".part"))).toEqual([]);
      expect(await orphanKeys(database.db, files)).toEqual([]);
      expect(sweepLine).toContain(`removed ${orphansAfterKill.length} orphans and ${partsAfterKill.length} incomplete writes`);
      const audits = await database.db.select().from(auditLog).where(inArray(auditLog.action, ["storage.orphan_sweep"]));
      expect(audits).toHaveLength(1);
      expect(audits[0]!.details).toMatchObject({ reason: "start-up", removed: orphansAfterKill.length, incompleteWrites: partsAfterKill.length });
    } finally {
      await database.close();
    }
  });
});
