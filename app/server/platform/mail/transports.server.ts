import nodemailer from "nodemailer";

/** One message as the worker hands it to a transport. */
export type MailMessage = {
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string | null;
};

/** Where mail goes. `describe` is for log lines and never contains a password. */
export interface MailTransport {
  send(msg: MailMessage): Promise<void>;
  readonly describe: string;
  /** Releases connections (pooled transports); optional. */
  close?(): void | Promise<void>;
}

export type SmtpTransportOptions = {
  /** Connection, greeting and socket-inactivity timeouts: a down server fails fast instead of hanging. */
  timeoutMs?: number;
};

/** smtp://user:***@host:port, for logs. */
export function redactSmtpUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString().replace(/\/$/, "");
  } catch {
    return "smtp://(unparsable url)";
  }
}

/**
 * SMTP through nodemailer. smtp:// upgrades with STARTTLS when the server offers it; smtps:// is TLS
 * from the first byte. One connection per message (no pool): the worker sends small batches, and a
 * fresh connection never reuses a socket a restarted server already dropped.
 */
export function createSmtpTransport(smtpUrl: string, options: SmtpTransportOptions = {}): MailTransport {
  const timeout = options.timeoutMs ?? 10_000;
  const transporter = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
    dnsTimeout: timeout,
  });
  return {
    describe: `SMTP ${redactSmtpUrl(smtpUrl)}`,
    async send(msg) {
      await transporter.sendMail({
        from: msg.from,
        to: msg.to,
        subject: msg.subject,
        text: msg.text,
        ...(msg.html ? { html: msg.html } : {}),
        // Our mail has no attachments: never let a message body pull in a local file or a remote URL.
        disableFileAccess: true,
        disableUrlAccess: true,
      });
    },
    close() {
      transporter.close();
    },
  };
}

/**
 * No mail server (SMTP_URL unset): "sending" succeeds at once, the row is marked sent and stays in
 * email_outbox, where /dev/mailbox shows it (outside production, to loopback clients only).
 */
export function createLocalMailboxTransport(): MailTransport {
  return {
    describe: "local mailbox (no SMTP_URL: messages stay in email_outbox; read them at /dev/mailbox from this machine)",
    async send() {},
  };
}

/** SMTP when smtpUrl is set, else the local mailbox. */
export function createMailTransport(config: { smtpUrl: string | undefined }): MailTransport {
  return config.smtpUrl ? createSmtpTransport(config.smtpUrl) : createLocalMailboxTransport();
}
