import net from "node:net";
import fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScratchPostgresDatabase, TEST_DATABASE_URL } from "../helpers/test-db";
import { startTestServer, type TestServer } from "./harness";
import { leaksInternals } from "./helpers/refusal";

/**
 * The server as a bare `npm start` runs it (no NODE_ENV), exposed by mistake: odd request lines that
 * crawlers and scanners send get a 4xx or the page, never a 5xx, never a redirect off our origin, and
 * a 404 logs at most one line; a failing loader shows no stack trace or SQL; /dev/mailbox (every reset
 * link) answers only this machine.
 */

type Answer = { status: number; head: string; body: string };

/** One request line written as is (http.request would normalise it), on its own connection. */
function rawLine(url: string, line: string, headers: Record<string, string> = {}): Promise<Answer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on("data", (d: Buffer) => chunks.push(d));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("latin1");
      const [head = "", ...rest] = text.split("\r\n\r\n");
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), head, body: rest.join("\r\n\r\n") });
    });
    const lines = [line, `Host: ${hostname}:${port}`, "Connection: close", ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
    socket.end(Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1"));
  });
}

const ODD_LINES = [
  "GET // HTTP/1.1",
  "GET /// HTTP/1.1",
  "GET //evil.example/x HTTP/1.1",
  "GET //evil.example/ HTTP/1.1",
  "GET /\\evil.example HTTP/1.1",
  "GET /%00 HTTP/1.1",
  "GET /% HTTP/1.1",
  "GET /%E0%A4%A HTTP/1.1",
  "GET /..%2f..%2fetc/passwd HTTP/1.1",
  "GET /../../etc/passwd HTTP/1.1",
  `GET /${"a".repeat(10_000)} HTTP/1.1`,
  "GET http://evil.example/ HTTP/1.1",
  "GET http://evil.example/contact HTTP/1.1",
  "OPTIONS * HTTP/1.1",
  "GET /caf\u00e9/\u00ff\u00fe HTTP/1.1",
  "POST //evil.example/contact HTTP/1.1",
  "POST /no-such-page HTTP/1.1",
  "GET /contact.data/.. HTTP/1.1",
  "GET //contact.data HTTP/1.1",
];

describe.runIf(TEST_DATABASE_URL)("a server started without NODE_ENV", () => {
  let server: TestServer;
  let scratch: Awaited<ReturnType<typeof createScratchPostgresDatabase>>;
  let db: pg.Client;

  beforeAll(async () => {
    scratch = await createScratchPostgresDatabase();
    // TRUST_PROXY so a test can claim a far-away client with X-Forwarded-For.
    // No NODE_ENV and no secrets (it generates its own), as a bare `npm start` on this machine.
    server = await startTestServer({ NODE_ENV: undefined, APP_SECRET: "", ENCRYPTION_KEY: "", DATABASE_URL: scratch.url, TRUST_PROXY: "true", PWNED_PASSWORDS_URL: "off" });
    db = new pg.Client({ connectionString: scratch.url });
    await db.connect();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await db?.end().catch(() => undefined);
    await scratch?.drop();
  });

  it("says at start-up that error details are hidden and who /dev/mailbox answers", () => {
    expect(server.output()).toContain("[security] error details: hidden (shown only under npm run dev)");
    expect(server.output()).toMatch(/\[mail\] \/dev\/mailbox: answers loopback clients only/);
  });

  it("answers odd request lines with a 4xx or the page, never a 5xx, and never redirects off our origin", async () => {
    const origin = new URL(server.url);
    for (const line of ODD_LINES) {
      const res = await rawLine(server.url, line, line.startsWith("POST") ? { "Content-Length": "0" } : {});
      expect(res.status, line.slice(0, 80)).toBeGreaterThanOrEqual(200);
      expect(res.status, `${line.slice(0, 80)}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
      const location = /\r\nlocation: ([^\r]*)/i.exec(res.head)?.[1];
      if (location) expect(new URL(location, server.url).host, line).toBe(origin.host);
      expect(leaksInternals(res.body), line.slice(0, 80)).toBeNull();
    }
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it("never answers arbitrary paths with a 5xx or another origin (generated)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "binary-ascii", maxLength: 60 }), async (tail) => {
        // What may stand in a request line: no spaces, controls or line breaks.
        const path = `/${[...tail].filter((c) => c.charCodeAt(0) > 0x20 && c.charCodeAt(0) !== 0x7f).join("")}`;
        const res = await rawLine(server.url, `GET ${path} HTTP/1.1`);
        expect(res.status, path).toBeLessThan(500);
        const location = /\r\nlocation: ([^\r]*)/i.exec(res.head)?.[1];
        if (location) expect(new URL(location, server.url).host, path).toBe(new URL(server.url).host);
      }),
      { numRuns: 60 },
    );
  }, 120_000);

  it("logs a 404 or 405 as one line, without a stack trace", async () => {
    const before = server.output().length;
    await rawLine(server.url, "POST /no-such-page-either HTTP/1.1", { "Content-Length": "0" });
    await rawLine(server.url, "GET //nothing/here HTTP/1.1");
    await new Promise((r) => setTimeout(r, 200));
    const logged = server.output().slice(before);
    expect(logged).not.toMatch(/\n\s+at /);
    expect(logged.trim().split("\n").filter(Boolean).length).toBeLessThanOrEqual(2);
    expect(server.output()).not.toMatch(/Invalid URL|ERR_INVALID_URL/);
  });

  it("a loader that fails shows no stack trace, SQL or error message, on the page or in its data", async () => {
    await db.query(`alter table testimonials rename to testimonials_moved`);
    try {
      const page = await fetch(`${server.url}/testimonials`);
      const html = await page.text();
      expect(page.status).toBe(500);
      const data = await fetch(`${server.url}/testimonials.data`);
      const body = await data.text();
      for (const text of [html, body]) {
        expect(leaksInternals(text)).toBeNull();
        expect(text).not.toMatch(/testimonials_moved|relation .* does not exist|select "|Failed query/i);
      }
    } finally {
      await db.query(`alter table testimonials_moved rename to testimonials`);
    }
  });

  it("/dev/mailbox answers a client on this machine and nobody else", async () => {
    expect((await fetch(`${server.url}/dev/mailbox`)).status).toBe(200);
    // The trusted proxy says the client is far away.
    const far = await fetch(`${server.url}/dev/mailbox`, { headers: { "x-forwarded-for": "203.0.113.9" } });
    expect(far.status).toBe(404);
    expect(await far.text()).not.toMatch(/Development mailbox/);
    const farData = await fetch(`${server.url}/dev/mailbox.data`, { headers: { "x-forwarded-for": "203.0.113.9" } });
    expect(farData.status).toBe(404);
  });
});
