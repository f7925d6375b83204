import type { ReceivedMail, SmtpSink } from "../../helpers/smtp-sink";

/**
 * Reading the portal's e-mails in browser tests. The test server is started with SMTP_URL pointing at an
 * in-test SMTP sink (tests/helpers/smtp-sink.ts): the outbox worker delivers there for real, so these
 * tests also cover the outbox and the SMTP transport.
 */

export type MailQuery = {
  /** Recipient address (compared case-insensitively). */
  to: string;
  /** Subject filter. */
  subject?: RegExp;
  /** Only messages received after this many were already in the sink (see `mark`). */
  after?: number;
  timeoutMs?: number;
};

/** How many messages the sink holds now: pass it as `after` to wait for the next one. */
export function mark(sink: SmtpSink): number {
  return sink.messages.length;
}

function matches(mail: ReceivedMail, query: MailQuery): boolean {
  const to = query.to.toLowerCase();
  const recipients = [...mail.envelopeTo, mail.to].map((a) => a.toLowerCase());
  return recipients.some((r) => r.includes(to)) && (!query.subject || query.subject.test(mail.subject));
}

/** The newest matching message, waiting for it (the worker polls the outbox about once a second). */
export async function waitForMail(sink: SmtpSink, query: MailQuery): Promise<ReceivedMail> {
  const deadline = Date.now() + (query.timeoutMs ?? 15_000);
  for (;;) {
    const found = sink.messages
      .slice(query.after ?? 0)
      .filter((m) => matches(m, query))
      .at(-1);
    if (found) return found;
    if (Date.now() > deadline) {
      const seen = sink.messages.map((m) => `${m.to}: ${m.subject}`).join("\n  ");
      throw new Error(`No e-mail to ${query.to} matching ${query.subject ?? "any subject"} arrived. Received:\n  ${seen || "(none)"}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The 6-digit sign-up code in a message's text body. */
export function extractCode(mail: ReceivedMail): string {
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
  if (!code) throw new Error(`No 6-digit code in:\n${mail.text}`);
  return code;
}

/**
 * The password-reset link's path and fragment (`/auth#type=recovery&token=...`). The link's origin is
 * PUBLIC_URL, which in tests is not the test server's random port, so callers join it to their own URL.
 */
export function extractResetPath(mail: ReceivedMail): string {
  const match = /https?:\/\/[^\s"'<>]+?(\/auth#type=recovery&(?:amp;)?token=[^\s"'<>]+)/.exec(mail.text) ??
    /https?:\/\/[^\s"'<>]+?(\/auth#type=recovery&(?:amp;)?token=[^\s"'<>]+)/.exec(mail.html ?? "");
  if (!match) throw new Error(`No reset link in:\n${mail.text}`);
  return match[1]!.replace("&amp;", "&");
}
