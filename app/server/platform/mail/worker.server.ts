import { and, asc, eq, inArray, lt, lte, or, sql } from "drizzle-orm";
import type { Db } from "~/server/platform/db/client.server";
import { emailOutbox, type EmailOutboxMessage } from "~/server/platform/db/schema.server";
import { onMailWorkerNotify } from "./outbox.server";
import type { MailTransport } from "./transports.server";

/**
 * The outbox worker: claims due rows of email_outbox, hands them to the transport, records the
 * outcome, retries with exponential backoff and gives up after maxAttempts.
 *
 * Several server instances may run one each against the same PostgreSQL: a claim is one UPDATE whose
 * sub-select takes its rows FOR UPDATE SKIP LOCKED and marks them 'sending' with a lease
 * (locked_until), so no two workers send the same message. A worker that dies mid-send leaves its rows
 * 'sending'; after the lease another worker takes them again (delivery is at-least-once: a crash
 * between the SMTP "250 OK" and the status update can send a message twice, never zero times).
 */

export type MailWorkerLogger = { info: (line: string) => void; error: (line: string) => void };

export type MailWorkerOptions = {
  db: Db;
  transport: MailTransport;
  /** The From header, e.g. getConfig().mailFrom. */
  from: string;
  /** Poll interval when the outbox is idle (default 1000 ms). */
  intervalMs?: number;
  /** Rows claimed per batch (default 10). */
  batchSize?: number;
  /** Attempts before a message is marked failed (default 8). */
  maxAttempts?: number;
  /** Delay before the next try after `attempts` failed tries (default: defaultBackoffMs). */
  backoffMs?: (attempts: number) => number;
  /** How long a claim lasts before another worker may take the row again (default 2 minutes). */
  leaseMs?: number;
  /** Run the polling loop (default true). false: nothing happens until drainOnce() is called (tests). */
  poll?: boolean;
  logger?: MailWorkerLogger;
};

export type MailWorker = {
  /** Stops polling and waits for the batch in flight (rows not yet sent are handed back). */
  stop(): Promise<void>;
  /**
   * Claims and processes one batch now (never overlapping another batch of this worker). Resolves to
   * the number of messages claimed (sent or failed); rejects when the database cannot be reached.
   */
  drainOnce(): Promise<number>;
  readonly transport: MailTransport;
};

export const DEFAULT_RETRY_BASE_MS = 5_000;
const BACKOFF_CAP_MS = 15 * 60_000;

/** base, 2×base, 4×base, ... capped at 15 minutes, plus up to 10% jitter so retries do not stampede. */
export function exponentialBackoff(baseMs: number): (attempts: number) => number {
  return (attempts) => {
    const delay = Math.min(baseMs * 2 ** Math.max(0, attempts - 1), BACKOFF_CAP_MS);
    return Math.round(delay * (1 + Math.random() * 0.1));
  };
}

/** 5 s, 10 s, 20 s, ... capped at 15 minutes (MAIL_RETRY_BASE_MS changes the first step). */
export const defaultBackoffMs = exponentialBackoff(DEFAULT_RETRY_BASE_MS);

/** Errors that mean "the server is unreachable or refuses us", not "this message is bad". */
const SERVER_LEVEL_CODES = new Set([
  "ECONNECTION",
  "ETIMEDOUT",
  "ESOCKET",
  "EDNS",
  "EAUTH",
  "ECONNREFUSED",
  "ECONNRESET",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

function isServerLevel(error: unknown): boolean {
  const e = error as { code?: unknown; responseCode?: unknown; command?: unknown } | undefined;
  if (!e || typeof e !== "object") return false;
  if (typeof e.code === "string" && SERVER_LEVEL_CODES.has(e.code)) return true;
  // 421: "service not available, closing channel" (greeting or any command).
  return e.responseCode === 421;
}

/** The error as stored in last_error: one line, credentials removed, at most 500 characters. */
export function describeMailError(error: unknown): string {
  const e = error as { code?: unknown; message?: unknown } | undefined;
  const code = e && typeof e === "object" && typeof e.code === "string" ? `${e.code}: ` : "";
  const message = e instanceof Error ? e.message : typeof e?.message === "string" ? e.message : String(error);
  const text = `${code}${message}`
    .replace(/([a-z][a-z0-9+.-]*:\/\/)[^\s/@]*@/gi, "$1***@")
    .replace(/\b(AUTH\s+(?:PLAIN|LOGIN|XOAUTH2|CRAM-MD5))\s+\S+/gi, "$1 ***")
    .replace(/\s+/g, " ")
    .trim();
  return text.length > 500 ? `${text.slice(0, 499)}…` : text;
}

const defaultLogger: MailWorkerLogger = {
  info: (line) => console.log(line),
  error: (line) => console.error(line),
};

function intervalParam(ms: number) {
  return sql`${`${Math.max(0, Math.round(ms))} milliseconds`}::interval`;
}

export function startMailWorker(options: MailWorkerOptions): MailWorker {
  const { db, transport, from } = options;
  const intervalMs = options.intervalMs ?? 1000;
  const batchSize = options.batchSize ?? 10;
  const maxAttempts = options.maxAttempts ?? 8;
  const backoff = options.backoffMs ?? defaultBackoffMs;
  const leaseMs = options.leaseMs ?? 2 * 60_000;
  const logger = options.logger ?? defaultLogger;
  // Stop starting new sends well before the lease runs out, so a slow batch is never taken over.
  const batchBudgetMs = leaseMs / 2;

  let stopped = false;
  let chain: Promise<unknown> = Promise.resolve();

  async function claim(): Promise<EmailOutboxMessage[]> {
    const due = db
      .select({ id: emailOutbox.id })
      .from(emailOutbox)
      .where(
        or(
          and(eq(emailOutbox.status, "pending"), lte(emailOutbox.nextAttemptAt, sql`now()`)),
          and(eq(emailOutbox.status, "sending"), lt(emailOutbox.lockedUntil, sql`now()`)),
        ),
      )
      .orderBy(asc(emailOutbox.nextAttemptAt))
      .limit(batchSize)
      .for("update", { skipLocked: true });
    const rows = await db
      .update(emailOutbox)
      .set({
        status: "sending",
        lockedUntil: sql`now() + ${intervalParam(leaseMs)}`,
        attempts: sql`${emailOutbox.attempts} + 1`,
      })
      .where(inArray(emailOutbox.id, due))
      .returning();
    return rows.sort((a, b) => a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime());
  }

  /** Only touches the row while it is still our claim (same attempt, still 'sending'). */
  const ours = (m: EmailOutboxMessage) =>
    and(eq(emailOutbox.id, m.id), eq(emailOutbox.status, "sending"), eq(emailOutbox.attempts, m.attempts));

  async function markSent(m: EmailOutboxMessage): Promise<void> {
    await db
      .update(emailOutbox)
      .set({ status: "sent", sentAt: sql`now()`, lockedUntil: null, lastError: null })
      .where(ours(m));
  }

  /**
   * Records a failed attempt; returns the delay chosen (0 when the message is given up). A message
   * the server refused is given up after maxAttempts; while the server itself is unreachable (or
   * refuses our login) the message keeps waiting at the capped backoff instead, so an outage of any
   * length delays mail but loses none.
   */
  async function markFailed(m: EmailOutboxMessage, error: unknown): Promise<number> {
    const lastError = describeMailError(error);
    const serverLevel = isServerLevel(error);
    if (m.attempts >= maxAttempts && !serverLevel) {
      await db.update(emailOutbox).set({ status: "failed", lockedUntil: null, lastError }).where(ours(m));
      logger.error(
        `[mail] giving up on message ${m.id} (${m.template}) after ${m.attempts} attempts: ${lastError}`,
      );
      return 0;
    }
    const delay = backoff(m.attempts);
    if (m.attempts === maxAttempts) {
      logger.error(
        `[mail] message ${m.id} (${m.template}) still undelivered after ${m.attempts} attempts, mail server unreachable; retrying: ${lastError}`,
      );
    }
    await db
      .update(emailOutbox)
      .set({ status: "pending", lockedUntil: null, lastError, nextAttemptAt: sql`now() + ${intervalParam(delay)}` })
      .where(ours(m));
    return delay;
  }

  /** Hands back rows claimed but not tried: the claim's attempt is undone. */
  async function release(rows: EmailOutboxMessage[], delayMs: number): Promise<void> {
    if (rows.length === 0) return;
    for (const m of rows) {
      await db
        .update(emailOutbox)
        .set({
          status: "pending",
          lockedUntil: null,
          attempts: sql`greatest(${emailOutbox.attempts} - 1, 0)`,
          nextAttemptAt: sql`now() + ${intervalParam(delayMs)}`,
        })
        .where(ours(m));
    }
  }

  async function runBatch(): Promise<number> {
    if (stopped) return 0;
    const rows = await claim();
    const started = Date.now();
    let processed = 0;
    for (let i = 0; i < rows.length; i++) {
      const m = rows[i]!;
      if (stopped || Date.now() - started > batchBudgetMs) {
        await release(rows.slice(i), 0).catch((error: unknown) =>
          logger.error(`[mail] could not hand back claimed messages (they retry after the lease): ${describeMailError(error)}`),
        );
        break;
      }
      processed++;
      let sendError: unknown;
      let sent = false;
      try {
        await transport.send({ from, to: m.toAddress, subject: m.subject, text: m.textBody, html: m.htmlBody });
        sent = true;
      } catch (error) {
        sendError = error ?? new Error("unknown send error");
      }
      try {
        if (sent) {
          await markSent(m);
          continue;
        }
        const delay = await markFailed(m, sendError);
        if (isServerLevel(sendError) && i + 1 < rows.length) {
          // The server is down or refuses us: the rest of the batch would fail the same way.
          await release(rows.slice(i + 1), delay || backoff(1));
          break;
        }
      } catch (error) {
        // The database failed while recording: the row stays 'sending' and is retried after the lease.
        logger.error(`[mail] could not record the outcome of message ${m.id}: ${describeMailError(error)}`);
      }
    }
    return processed;
  }

  function drainOnce(): Promise<number> {
    const run = chain.then(runBatch);
    chain = run.catch(() => undefined);
    return run;
  }

  // --- The polling loop ------------------------------------------------------------------------
  let timer: NodeJS.Timeout | undefined;
  let ticking = false;
  let wakeRequested = false;
  let failingSince: number | undefined;
  let lastFailureLog = 0;

  function schedule(ms: number): void {
    if (stopped || !(options.poll ?? true)) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(tick, ms);
    timer.unref?.();
  }

  async function tick(): Promise<void> {
    timer = undefined;
    ticking = true;
    let next = intervalMs;
    try {
      const claimed = await drainOnce();
      if (failingSince !== undefined) {
        logger.info(`[mail] outbox reachable again after ${Math.round((Date.now() - failingSince) / 1000)} s`);
        failingSince = undefined;
      }
      if (claimed >= batchSize) next = 0; // more may be waiting
    } catch (error) {
      const now = Date.now();
      failingSince ??= now;
      // One line at the first failure, then at most one a minute while it lasts.
      if (now - lastFailureLog >= 60_000) {
        lastFailureLog = now;
        logger.error(`[mail] cannot read the outbox (will keep trying): ${describeMailError(error)}`);
      }
      next = Math.max(intervalMs, 5_000);
    } finally {
      ticking = false;
    }
    if (wakeRequested) {
      wakeRequested = false;
      next = 0;
    }
    schedule(next);
  }

  const unregister =
    options.poll ?? true
      ? onMailWorkerNotify((delayMs) => {
          if (stopped) return;
          if (ticking) wakeRequested = true;
          else schedule(delayMs);
        })
      : () => undefined;

  schedule(0);

  return {
    transport,
    drainOnce,
    async stop() {
      if (stopped) {
        await chain;
        return;
      }
      stopped = true;
      unregister();
      if (timer) clearTimeout(timer);
      timer = undefined;
      await chain;
    },
  };
}
