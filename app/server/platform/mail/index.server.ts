/**
 * The mail module's public face. Callers enqueue inside their transaction:
 *
 *   import { enqueueEmail, verificationCodeEmail } from "~/server/platform/mail/index.server";
 *   await db.transaction(async (tx) => {
 *     ...the change...
 *     await enqueueEmail(tx, { to: email, ...verificationCodeEmail({ code }) });
 *   });
 *
 * The server entry starts one worker per process with startConfiguredMailWorker.
 */
import type { Db } from "~/server/platform/db/client.server";
import { createMailTransport, type MailTransport } from "./transports.server";
import { exponentialBackoff, startMailWorker, type MailWorker, type MailWorkerOptions } from "./worker.server";

export { enqueueEmail, notifyMailWorker, type DbOrTx, type OutboxMessage, type Tx } from "./outbox.server";
export * from "./templates.server";
export {
  createLocalMailboxTransport,
  createMailTransport,
  createSmtpTransport,
  redactSmtpUrl,
  type MailMessage,
  type MailTransport,
} from "./transports.server";
export { defaultBackoffMs, describeMailError, exponentialBackoff, startMailWorker, type MailWorker, type MailWorkerOptions } from "./worker.server";

/**
 * Creates the transport the configuration asks for (SMTP when smtpUrl is set, else the local mailbox),
 * starts the worker and logs one line naming the transport (never a password). stop() also closes
 * the transport.
 */
export function startConfiguredMailWorker(options: {
  db: Db;
  config: { smtpUrl: string | undefined; mailFrom: string; isProduction: boolean; mailRetryBaseMs?: number };
  log?: (line: string) => void;
  transport?: MailTransport;
} & Pick<MailWorkerOptions, "intervalMs" | "batchSize" | "maxAttempts">): MailWorker {
  const log = options.log ?? ((line: string) => console.log(line));
  const transport = options.transport ?? createMailTransport(options.config);
  log(`[mail] outbox worker started; transport: ${transport.describe}`);
  if (!options.config.smtpUrl && options.config.isProduction) {
    log("[mail] WARNING: SMTP_URL is not set in production: e-mail is recorded in email_outbox but not delivered");
  }
  const worker = startMailWorker({
    db: options.db,
    transport,
    from: options.config.mailFrom,
    intervalMs: options.intervalMs,
    batchSize: options.batchSize,
    maxAttempts: options.maxAttempts,
    ...(options.config.mailRetryBaseMs ? { backoffMs: exponentialBackoff(options.config.mailRetryBaseMs) } : {}),
  });
  return {
    transport,
    drainOnce: worker.drainOnce,
    async stop() {
      await worker.stop();
      await transport.close?.();
    },
  };
}
