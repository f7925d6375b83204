import net from "node:net";

/**
 * A POST written by hand on its own socket, so a test controls what the headers claim and what the
 * body really is: a chunked body with no Content-Length, or a Content-Length that lies. The body is
 * written with backpressure and writing stops as soon as the server answers (or hangs up), so
 * `bodyBytesWritten` tells how much the server let in before refusing.
 */

export type HandPostAnswer = {
  /** Status of the first answer, or 0 when the server closed the connection without one. */
  status: number;
  /** Everything the server sent on this connection (one or more answers). */
  raw: string;
  /** The first answer's body (de-chunked when needed). */
  body: string;
  contentType: string;
  bodyBytesWritten: number;
};

export type HandPost = {
  url: string;
  path: string;
  headers?: Record<string, string>;
  /** "chunked": no Content-Length. A number: that Content-Length, whatever the body's real size. */
  length: "chunked" | number;
  /** How many body bytes to offer. */
  bodyBytes: number;
  /** What to fill the body with: a urlencoded form by default ("a=aaaa…"). */
  fill?: string;
  /** What the body starts with, once (a multipart part's head before a long file); `fill` by default. */
  prefix?: string;
  chunkBytes?: number;
  timeoutMs?: number;
  /** Collect every answer until the server closes the connection (for a body that holds a second request). */
  untilClose?: boolean;
};

export function handPost(opts: HandPost): Promise<HandPostAnswer> {
  const { hostname, port } = new URL(opts.url);
  const chunkBytes = opts.chunkBytes ?? 64 * 1024;
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let raw = Buffer.alloc(0);
    let written = 0;
    let answered = false;
    let finished = false;
    const timer = setTimeout(() => finish(new Error(`no answer within ${opts.timeoutMs ?? 60_000} ms (wrote ${written} body bytes)`)), opts.timeoutMs ?? 60_000);

    const finish = (error?: Error) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      socket.destroy();
      const text = raw.toString("latin1");
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      if (error && !status) return reject(error);
      const [head = "", ...rest] = text.split("\r\n\r\n");
      const contentType = /\r\ncontent-type: ([^\r]*)/i.exec(head)?.[1] ?? "";
      let body = rest.join("\r\n\r\n");
      if (/\r\ntransfer-encoding: chunked/i.test(head)) body = dechunk(body);
      resolve({ status, raw: text, body: Buffer.from(body, "latin1").toString("utf8"), contentType, bodyBytesWritten: written });
    };

    socket.on("data", (d: Buffer) => {
      raw = Buffer.concat([raw, d]);
      answered = true;
      if (opts.untilClose) return;
      // The first answer is complete: no need to wait for the server to drop the connection.
      const text = raw.toString("latin1");
      const end = text.indexOf("\r\n\r\n");
      if (end < 0) return;
      const head = text.slice(0, end);
      const length = /\r\ncontent-length: (\d+)/i.exec(head)?.[1];
      if (length !== undefined && raw.length - (end + 4) >= Number(length)) finish();
      else if (/\r\ntransfer-encoding: chunked/i.test(head) && text.includes("\r\n0\r\n\r\n", end)) finish();
    });
    socket.on("error", () => finish());
    socket.on("close", () => finish());
    socket.on("connect", async () => {
      const headers = { host: `${hostname}:${port}`, "content-type": "application/x-www-form-urlencoded", ...opts.headers };
      const lines = [`POST ${opts.path} HTTP/1.1`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
      lines.push(opts.length === "chunked" ? "transfer-encoding: chunked" : `content-length: ${opts.length}`);
      socket.write(`${lines.join("\r\n")}\r\n\r\n`);
      const prefix = Buffer.from(opts.prefix ?? opts.fill ?? "a=");
      const filler = Buffer.alloc(chunkBytes, opts.fill ? opts.fill : "a");
      let offered = 0;
      while (offered < opts.bodyBytes && !answered && !finished) {
        const piece = offered === 0 ? Buffer.concat([prefix, filler]).subarray(0, Math.min(chunkBytes, opts.bodyBytes)) : filler.subarray(0, Math.min(chunkBytes, opts.bodyBytes - offered));
        const framed = opts.length === "chunked" ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from("\r\n")]) : piece;
        offered += piece.length;
        written += piece.length;
        if (!socket.write(framed)) await new Promise<void>((r) => socket.once("drain", r).once("close", r));
      }
      if (!answered && !finished && opts.length === "chunked") socket.write("0\r\n\r\n");
    });
  });
}

function dechunk(body: string): string {
  let out = "";
  let rest = body;
  for (;;) {
    const eol = rest.indexOf("\r\n");
    if (eol < 0) return out + rest;
    const size = parseInt(rest.slice(0, eol), 16);
    if (!Number.isFinite(size) || size === 0) return out;
    out += rest.slice(eol + 2, eol + 2 + size);
    rest = rest.slice(eol + 2 + size + 2);
  }
}

/** The resident memory of a process in bytes (Linux), from /proc/<pid>/status. */
export async function residentBytes(pid: number): Promise<number> {
  const { readFile } = await import("node:fs/promises");
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]);
  return kb * 1024;
}
