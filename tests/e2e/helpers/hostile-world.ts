import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { signUpOverHttp } from "../../helpers/applicants";
import { startSmtpSink, type SmtpSink } from "../../helpers/smtp-sink";
import { createScratchPostgresDatabase } from "../../helpers/test-db";
import { submitApplication } from "../../helpers/applications";
import { startTestServer, type TestServer } from "../harness";
import { passAdminMfa, signInOverHttp } from "../../helpers/admins";

/**
 * A production server on its own PostgreSQL scratch database, with the actors of the authorization
 * matrix signed in, one application of applicant A with its documents, and a direct connection to
 * read what was stored. Shared by the hostile-input and session suites.
 */

export type Actor = "visitor" | "applicantA" | "applicantB" | "adminNoMfa" | "admin";

export type HostileWorld = {
  server: TestServer;
  sink: SmtpSink;
  db: pg.Client;
  cookies: Record<Actor, string>;
  admin: { email: string; password: string; mfaSecret: string };
  applicantA: { email: string; password: string };
  appA: string;
  docA: string;
  /** Forgets every throttle window, so each generated case reaches validation rather than a 429. */
  resetThrottles: () => Promise<void>;
  /** A digest of every table a refused request must leave untouched. */
  fingerprint: () => Promise<Record<string, string>>;
  close: () => Promise<void>;
};

/**
 * Tables whose rows a refused request may not add, change or remove. Left out on purpose: the audit
 * log, throttle counters and the second factor's failed-attempt counter (admin_mfa: refusals are
 * recorded there by design), sessions (Better Auth refreshes
 * their expiry), and the outbox's delivery columns (the worker updates them in the background).
 */
const GUARDED_TABLES = [
  "user",
  "account",
  "verification",
  "profiles",
  "user_roles",
  "loan_applications",
  "loan_documents",
  "bank_accounts",
  "approved_loans",
  "email_verification_codes",
  "testimonials",
  "contact_messages",
  "two_factor",
  "session_mfa",
  // Issue 22.
  "staff_invitations",
  "approval_proposals",
  "application_assignments",
  // Issue 19: the conversation around an application.
  "application_events",
  "request_items",
  "application_messages",
  "conversation_reads",
  "conversation_notices",
  // Issue 20: the offers.
  "loan_offers",
  // Issue 21: servicing.
  "loan_payments",
  "loan_payment_accounts",
  // Issue 23: account settings and the privacy notice.
  "notification_preferences",
  "privacy_acceptances",
  // Issue 23: Save and Finish Later.
  "application_drafts",
  "draft_documents",
];

export async function fingerprintTables(db: pg.Client): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const table of GUARDED_TABLES) {
    const { rows } = await db.query<{ digest: string | null; n: string }>(
      `select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest, count(*) as n from "${table}" t`,
    );
    out[table] = `${rows[0]!.n}:${rows[0]!.digest}`;
  }
  const outbox = await db.query<{ n: string }>(`select count(*) as n from email_outbox`);
  out.email_outbox = outbox.rows[0]!.n;
  // Job runs are written by the background jobs as they run; what a request may add is a queued retry.
  const queued = await db.query<{ n: string }>(`select count(*) as n from job_runs where status = 'queued'`);
  out.job_runs_queued = queued.rows[0]!.n;
  return out;
}

/**
 * In the enclosing describe: a world started before its tests (given `timeout` ms to start), handed to
 * `started`, and closed after them.
 */
export function hostileWorldForSuite(env: Record<string, string>, timeout: number, started: (world: HostileWorld) => void): void {
  let world: HostileWorld | undefined;
  beforeAll(async () => {
    world = await startHostileWorld(env);
    started(world);
  }, timeout);
  afterAll(async () => {
    await world?.close();
  });
}

export async function startHostileWorld(env: Record<string, string> = {}): Promise<HostileWorld> {
  const scratch = await createScratchPostgresDatabase();
  const sink = await startSmtpSink();
  const admin = { email: `admin.${randomUUID().slice(0, 8)}@example.com`, password: "Adm1n!Secret", mfaSecret: "" };
  const applicantA = { email: "applicant.a@example.com", password: "Str0ng!Passw0rd" };
  let server: TestServer | undefined;
  const db = new pg.Client({ connectionString: scratch.url });
  try {
    server = await startTestServer({
      DATABASE_URL: scratch.url,
      SMTP_URL: sink.url,
      PWNED_PASSWORDS_URL: "off",
      TRUST_PROXY: "true",
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      ...env,
    });
    await db.connect();
    const base = server.url;
    await signUpOverHttp(base, sink, applicantA.email, "198.18.20.1");
    await signUpOverHttp(base, sink, "applicant.b@example.com", "198.18.20.2");
    const cookies: Record<Actor, string> = {
      visitor: "",
      applicantA: await signInOverHttp(base, applicantA.email, applicantA.password, "198.18.20.3"),
      applicantB: await signInOverHttp(base, "applicant.b@example.com", "Str0ng!Passw0rd", "198.18.20.4"),
      adminNoMfa: await signInOverHttp(base, admin.email, admin.password, "198.18.20.5"),
      admin: await signInOverHttp(base, admin.email, admin.password, "198.18.20.6"),
    };
    admin.mfaSecret = (await passAdminMfa(base, cookies.admin)).secret;

    const appA = await submitApplication(base, cookies.applicantA);
    const docs = await db.query<{ id: string }>(`select id from loan_documents where application_id = $1 order by id limit 1`, [appA]);
    const docA = docs.rows[0]!.id;

    const started = server;
    return {
      server: started,
      sink,
      db,
      cookies,
      admin,
      applicantA,
      appA,
      docA,
      resetThrottles: async () => {
        await db.query(`delete from rate_limit_hits`);
        await db.query(`delete from rate_limit`);
      },
      fingerprint: () => fingerprintTables(db),
      close: async () => {
        await started.stop();
        await db.end().catch(() => undefined);
        await sink.close();
        await scratch.drop();
      },
    };
  } catch (error) {
    await server?.stop();
    await db.end().catch(() => undefined);
    await sink.close();
    await scratch.drop();
    throw error;
  }
}
