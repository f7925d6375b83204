/**
 * A real SMTP server for tests (smtp-server on 127.0.0.1, a free port), collecting what it receives.
 *
 *   const sink = await startSmtpSink();
 *   createSmtpTransport(sink.url)           // smtp://127.0.0.1:<port>
 *   sink.messages[0].subject / .text / .from / .to
 *   sink.rejectWith({ code: 451, message: "try later" })   // refuse the next messages
 *   await sink.stop(); ... await sink.start();              // an outage, then the same port again
 *   await sink.close();
 *
 * The raw message is parsed just enough for assertions (headers, RFC 2047 subjects, multipart,
 * quoted-printable and base64 parts); no mailparser needed.
 */
import { SMTPServer } from "smtp-server";

export type ReceivedMail = {
  /** Envelope MAIL FROM and RCPT TO. */
  envelopeFrom: string;
  envelopeTo: string[];
  /** The whole message as received. */
  raw: string;
  headers: Map<string, string>;
  from: string;
  to: string;
  subject: string;
  /** Decoded text/plain part ('' when none). */
  text: string;
  /** Decoded text/html part, if any. */
  html?: string;
};

export type SinkRejection = {
  /** SMTP reply code: 4xx is temporary, 5xx permanent. Default 451. */
  code?: number;
  message?: string;
  /** Where to refuse: at RCPT TO or after DATA (default 'data'). */
  at?: "rcpt" | "data";
};

export type SmtpSink = {
  readonly port: number;
  /** smtp://127.0.0.1:<port> */
  readonly url: string;
  readonly messages: ReceivedMail[];
  /** Refuse messages from now on (false: accept again). */
  rejectWith(rejection: SinkRejection | false): void;
  /** Resolves once at least n messages arrived. */
  waitFor(n: number, timeoutMs?: number): Promise<void>;
  clear(): void;
  /** Stops listening (connections are refused): a mail server outage. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  /** Stops for good. */
  close(): Promise<void>;
};

// --- A tiny MIME reader ------------------------------------------------------------------------

function splitHeaderBody(raw: string): { head: string; body: string } {
  const match = /\r?\n\r?\n/.exec(raw);
  if (!match) return { head: raw, body: "" };
  return { head: raw.slice(0, match.index), body: raw.slice(match.index + match[0].length) };
}

function parseHeaders(head: string): Map<string, string> {
  const headers = new Map<string, string>();
  const unfolded = head.replace(/\r?\n[ \t]+/g, " ");
  for (const line of unfolded.split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
  }
  return headers;
}

export function decodeQuotedPrintable(input: string): string {
  const bytes: number[] = [];
  const text = input.replace(/=\r?\n/g, ""); // soft line breaks
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "=" && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(c, "utf8"));
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

/** RFC 2047 encoded words (=?UTF-8?Q?...?= and =?UTF-8?B?...?=). */
export function decodeEncodedWords(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[QqBb]\?[^?]*\?=)\s+(?==\?)/g, "$1") // whitespace between encoded words is dropped
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_all, _charset: string, enc: string, data: string) =>
      enc.toUpperCase() === "B"
        ? Buffer.from(data, "base64").toString("utf8")
        : decodeQuotedPrintable(data.replace(/_/g, " ")),
    );
}

function param(headerValue: string | undefined, name: string): string | undefined {
  if (!headerValue) return undefined;
  const match = new RegExp(`;\\s*${name}\\s*=\\s*(?:"([^"]*)"|([^;\\s]+))`, "i").exec(headerValue);
  return match ? (match[1] ?? match[2]) : undefined;
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch ((encoding ?? "7bit").toLowerCase()) {
    case "base64":
      return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
    case "quoted-printable":
      return decodeQuotedPrintable(body);
    default:
      return body;
  }
}

function collectParts(raw: string, out: { text?: string; html?: string }): void {
  const { head, body } = splitHeaderBody(raw);
  const headers = parseHeaders(head);
  const contentType = headers.get("content-type") ?? "text/plain";
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  if (type.startsWith("multipart/")) {
    const boundary = param(contentType, "boundary");
    if (!boundary) return;
    const sections = body.split(`--${boundary}`);
    // sections[0] is the preamble; the last one starts with "--" (the epilogue).
    for (const section of sections.slice(1)) {
      if (section.startsWith("--")) break;
      collectParts(section.replace(/^\r?\n/, "").replace(/\r?\n$/, ""), out);
    }
    return;
  }
  const decoded = decodeBody(body, headers.get("content-transfer-encoding"));
  if (type === "text/plain" && out.text === undefined) out.text = decoded;
  if (type === "text/html" && out.html === undefined) out.html = decoded;
}

export function parseMail(raw: string): Pick<ReceivedMail, "headers" | "from" | "to" | "subject" | "text" | "html"> {
  const { head } = splitHeaderBody(raw);
  const headers = parseHeaders(head);
  const parts: { text?: string; html?: string } = {};
  collectParts(raw, parts);
  return {
    headers,
    from: decodeEncodedWords(headers.get("from") ?? ""),
    to: decodeEncodedWords(headers.get("to") ?? ""),
    subject: decodeEncodedWords(headers.get("subject") ?? ""),
    text: (parts.text ?? "").replace(/\r\n/g, "\n"),
    html: parts.html?.replace(/\r\n/g, "\n"),
  };
}

// --- The server --------------------------------------------------------------------------------

function smtpError(rejection: SinkRejection): Error {
  const error = new Error(rejection.message ?? "Mailbox temporarily unavailable") as Error & { responseCode?: number };
  error.responseCode = rejection.code ?? 451;
  return error;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  let rejection: SinkRejection | false = false;
  let port = 0;

  const makeServer = () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      closeTimeout: 200,
      size: 10 * 1024 * 1024,
      onRcptTo(_address, _session, callback) {
        if (rejection && rejection.at === "rcpt") return callback(smtpError(rejection));
        callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("error", (error: Error) => callback(error));
        stream.on("end", () => {
          if (rejection && rejection.at !== "rcpt") return callback(smtpError(rejection));
          const raw = Buffer.concat(chunks).toString("utf8");
          messages.push({
            envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            envelopeTo: session.envelope.rcptTo.map((r) => r.address),
            raw,
            ...parseMail(raw),
          });
          for (const wake of waiters) wake();
          callback();
        });
      },
    });

  let server: SMTPServer | undefined;

  const listen = async () => {
    const s = makeServer();
    s.on("error", () => undefined); // client resets during a test's outage are expected
    await new Promise<void>((resolve, reject) => {
      s.server.once("error", reject);
      s.listen(port, "127.0.0.1", () => {
        s.server.off("error", reject);
        resolve();
      });
    });
    const address = s.server.address();
    if (typeof address === "object" && address) port = address.port;
    server = s;
  };

  const stopServer = async () => {
    const s = server;
    server = undefined;
    if (!s) return;
    await new Promise<void>((resolve) => s.close(() => resolve()));
  };

  await listen();

  return {
    get port() {
      return port;
    },
    get url() {
      return `smtp://127.0.0.1:${port}`;
    },
    messages,
    rejectWith(r) {
      rejection = r;
    },
    clear() {
      messages.length = 0;
    },
    waitFor(n, timeoutMs = 5000) {
      if (messages.length >= n) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (messages.length >= n) {
            clearTimeout(timer);
            waiters.delete(check);
            resolve();
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`SMTP sink: expected ${n} messages within ${timeoutMs} ms, got ${messages.length}`));
        }, timeoutMs);
        waiters.add(check);
      });
    },
    stop: stopServer,
    async start() {
      if (!server) await listen();
    },
    close: stopServer,
  };
}
