import type { DbOrTx } from "~/server/platform/db/client.server";
import { emailOutbox } from "~/server/platform/db/schema.server";

/**
 * The e-mail outbox: every message is a row in email_outbox, inserted in the same transaction as the
 * change that causes it, and sent later by the worker (worker.server.ts). A rolled-back change sends
 * nothing; a mail server outage delays mail but loses none.
 *
 *   await db.transaction(async (tx) => {
 *     await tx.insert(...);                                      // the change
 *     await enqueueEmail(tx, { to, ...verificationCodeEmail({ code }) });
 *   });
 */

export type { DbOrTx, Tx } from "~/server/platform/db/client.server";

export type OutboxMessage = {
  /** One recipient address. */
  to: string;
  /** Which template produced it (templates.server.ts names), for the mailbox view and logs. */
  template: string;
  subject: string;
  text: string;
  html?: string | null;
};

// One address, no display name, no list, no header-breaking characters. Deliberately simple: the
// forms validate addresses properly; this is the last guard before a header is written.
const SINGLE_ADDRESS = /^[^\s@,;<>"]+@[^\s@,;<>"]+\.[^\s@,;<>"]+$/;

/**
 * Adds a message to the outbox inside the caller's transaction (or directly on the database).
 * Returns the new row's id. Throws on an unusable address, so the caller's transaction rolls back
 * instead of storing a change whose e-mail can never go out.
 */
export async function enqueueEmail(tx: DbOrTx, message: OutboxMessage): Promise<{ id: string }> {
  const to = message.to.trim();
  if (!SINGLE_ADDRESS.test(to) || to.length > 254) throw new Error("enqueueEmail: 'to' must be one e-mail address");
  if (!message.subject.trim() || /[\r\n]/.test(message.subject)) throw new Error("enqueueEmail: subject must be one non-empty line");
  const [row] = await tx
    .insert(emailOutbox)
    .values({
      toAddress: to,
      template: message.template,
      subject: message.subject,
      textBody: message.text,
      htmlBody: message.html ?? null,
    })
    .returning({ id: emailOutbox.id });
  if (!row) throw new Error("enqueueEmail: insert returned no row");
  // The row is visible once the caller commits; a wake-up a moment later usually finds it, and the
  // worker's poll picks it up otherwise.
  notifyMailWorker();
  return row;
}

// --- Waking the worker(s) of this process right after an enqueue --------------------------------

const wakers = new Set<(delayMs: number) => void>();

/** Used by the worker: called with a delay when notifyMailWorker runs. Returns an unregister function. */
export function onMailWorkerNotify(waker: (delayMs: number) => void): () => void {
  wakers.add(waker);
  return () => wakers.delete(waker);
}

/**
 * Asks this process's mail worker to look at the outbox soon (default 50 ms, which leaves the
 * enqueuing transaction time to commit). Call it after a commit for the quickest delivery; without
 * it the worker's 1 s poll delivers anyway. Other instances find the message on their own poll.
 */
export function notifyMailWorker(delayMs = 50): void {
  for (const wake of wakers) {
    try {
      wake(delayMs);
    } catch {
      // A worker that cannot be woken polls anyway.
    }
  }
}
