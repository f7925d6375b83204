import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, testSecrets, type TestServer } from "./harness";

/** A raw GET so we see exactly the bytes and headers the server sends (fetch would decompress). */
function get(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on("error", reject);
  });
}

/** Runs server.js to completion (for start-up refusals) and returns its exit code and output. */
function runToExit(env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, ["server.js"], {
      cwd: path.resolve(import.meta.dirname, "../.."),
      env: { ...process.env, HOST: "127.0.0.1", PORT: "0", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d));
    child.stderr.on("data", (d: Buffer) => (output += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe("the HTTP server", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("GET /healthz answers 200 when the database answers", async () => {
    const res = await get(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString())).toEqual({ status: "ok", database: "pglite" });
    expect(res.headers["cache-control"]).toBe("no-store");
  });

  it("sends an enforced CSP whose per-request nonce is on every script, and the other security headers", async () => {
    // A page rendered per request (public pages served as cached bytes use hashes instead: see
    // public-page-cache.e2e.test.ts).
    const first = await get(`${server.url}/auth`);
    const second = await get(`${server.url}/auth`);
    expect(first.status).toBe(200);
    const csp = String(first.headers["content-security-policy"]);
    expect(first.headers["content-security-policy-report-only"]).toBeUndefined();
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(String(second.headers["content-security-policy"])).not.toContain(nonce);
    expect(csp).toMatch(/script-src [^;]*'nonce-/);
    expect(csp).not.toMatch(/script-src [^;]*'unsafe-inline'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    const html = first.body.toString();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    expect(first.headers["x-content-type-options"]).toBe("nosniff");
    expect(first.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(first.headers["permissions-policy"]).toContain("camera=()");
    expect(first.headers["x-frame-options"]).toBe("DENY");
    // Plain HTTP without a trusted proxy: no HSTS (browsers ignore it there, and it would be a lie).
    expect(first.headers["strict-transport-security"]).toBeUndefined();
    expect(first.headers["cache-control"]).toBe("no-store");
  });

  it("puts security headers on 404s and static files too", async () => {
    const missing = await get(`${server.url}/no-such-page`);
    expect(missing.status).toBe(404);
    expect(missing.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(missing.body.toString()).not.toMatch(/at \S+ \(.*:\d+:\d+\)/); // no stack trace
  });

  it("serves hashed assets with long-lived caching, compressed", async () => {
    const html = (await get(`${server.url}/`)).body.toString();
    const asset = /(\/assets\/[^"]+\.js)/.exec(html)?.[1];
    expect(asset).toBeTruthy();
    const res = await get(`${server.url}${asset}`, { "accept-encoding": "gzip" });
    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(res.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(res.body).length).toBeGreaterThan(res.body.length);
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("sends a rendered page compressed in one piece, with its length, security headers and cookies intact", async () => {
    // A 404 page is rendered for every visitor (never from the public page cache).
    for (const [accept, decode] of [["br", zlib.brotliDecompressSync], ["gzip", zlib.gunzipSync]] as const) {
      const res = await get(`${server.url}/no-such-page-${accept}`, { "accept-encoding": accept });
      expect(res.status).toBe(404);
      expect(res.headers["content-encoding"]).toBe(accept);
      expect(Number(res.headers["content-length"])).toBe(res.body.length);
      expect(res.headers["transfer-encoding"]).toBeUndefined();
      expect(res.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
      expect(decode(res.body).toString()).toContain("Oops! Page not found");
    }
    const plain = await get(`${server.url}/no-such-page`, { "accept-encoding": "identity" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString()).toContain("Oops! Page not found");
  });

  it("a refusal sent before the request's body arrived says Connection: close, and a kept-alive client's next request still works", async () => {
    // Headers first, the body a moment later: the cross-origin refusal is answered before the body is
    // read, and the server then closes the connection. It must say so, or a client that reuses the
    // connection has its next request cut off ("other side closed").
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const refused = await new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
        const req = http.request(
          `${server.url}/auth`,
          { method: "POST", agent, headers: { "content-type": "application/x-www-form-urlencoded", "content-length": "24", "sec-fetch-site": "cross-site" } },
          (res) => {
            res.resume();
            res.on("end", () => resolve({ status: res.statusCode!, connection: res.headers.connection }));
          },
        );
        req.on("error", reject);
        req.flushHeaders();
        setTimeout(() => req.end("intent=send-code&email=x"), 300);
      });
      expect(refused.status).toBe(403);
      expect(refused.connection).toBe("close");
      const next = await new Promise<number>((resolve, reject) => {
        http.get(`${server.url}/healthz`, { agent }, (res) => {
          res.resume();
          resolve(res.statusCode!);
        }).on("error", reject);
      });
      expect(next).toBe(200);
    } finally {
      agent.destroy();
    }
  });

  it("refuses path traversal out of the assets folder", async () => {
    const res = await get(`${server.url}/assets/..%2f..%2fserver%2findex.js`);
    expect(res.status).toBe(404);
  });

  it("survives visitors who hang up in the middle of a page (no crash, keeps answering)", async () => {
    // Pages rendered per request (a query string skips the public page cache), cut off as soon as the
    // first bytes arrive, and once more after the whole head was read.
    const hangUp = (pathname: string, after: "headers" | "data") =>
      new Promise<void>((resolve) => {
        const req = http.get(`${server.url}${pathname}`, (res) => {
          if (after === "headers") res.destroy();
          else res.once("data", () => res.destroy());
          res.on("close", () => resolve());
        });
        req.on("error", () => resolve());
      });
    for (let i = 0; i < 15; i++) {
      await Promise.all([hangUp(`/?cut=${i}`, "headers"), hangUp(`/about?cut=${i}`, "data"), hangUp(`/auth?cut=${i}`, "data")]);
    }
    expect(server.process.exitCode).toBeNull();
    expect((await get(`${server.url}/healthz`)).status).toBe(200);
    expect((await get(`${server.url}/?after=cuts`)).status).toBe(200);
    expect(server.output()).not.toMatch(/Unhandled 'error' event|ERR_STREAM_PREMATURE_CLOSE/);
  });

  it("a second server on the same data folder refuses at once, naming the folder and the holder", async () => {
    const result = await runToExit({ DATA_DIR: server.dataDir, NODE_ENV: "production", ...testSecrets() });
    expect(result.code).toBe(1);
    expect(result.output).toContain(`The data folder ${server.dataDir} is in use by another process (pid ${server.process.pid}`);
    // The first server is unharmed.
    expect((await get(`${server.url}/healthz`)).status).toBe(200);
  });

  it("create-admin refuses while the server holds the embedded database, and says why", async () => {
    const result = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        ["node_modules/tsx/dist/cli.mjs", "scripts/create-admin.ts", "--email", "a@example.com", "--password", "Adm1n!Secret"],
        { cwd: path.resolve(import.meta.dirname, "../.."), env: { ...process.env, DATA_DIR: server.dataDir }, stdio: ["ignore", "pipe", "pipe"] },
      );
      let output = "";
      child.stdout.on("data", (d: Buffer) => (output += d));
      child.stderr.on("data", (d: Buffer) => (output += d));
      child.once("exit", (code) => resolve({ code, output }));
    });
    expect(result.code).toBe(1);
    expect(result.output).toContain(`The data folder ${server.dataDir} is in use by another process`);
    expect(result.output).toContain("Stop the server first");
  });
});

describe("start-up and shutdown", () => {
  it("refuses to start in production without explicit secrets, with a clear message", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-e2e-"));
    const result = await runToExit({ NODE_ENV: "production", DATA_DIR: dataDir, APP_SECRET: "", ENCRYPTION_KEY: "" });
    expect(result.code).toBe(1);
    expect(result.output).toContain("Cannot start: Invalid configuration:");
    expect(result.output).toContain("APP_SECRET: required when NODE_ENV=production");
    expect(result.output).toContain("ENCRYPTION_KEY: required when NODE_ENV=production");
  });

  it("refuses a bad value with the variable's name", async () => {
    const result = await runToExit({ PORT: "not-a-port", DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "portal-e2e-")) });
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/Cannot start: Invalid configuration:\n\s+- PORT:/);
  });

  it("with no configuration generates its secrets and says so once", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-e2e-"));
    // A new machine's first start: an empty folder, not the run's migrated template.
    const first = await startTestServer({ NODE_ENV: "development", APP_SECRET: "", ENCRYPTION_KEY: "" }, { dataDir, freshDatabase: true });
    await first.stop();
    expect(first.output()).toContain(`Generated APP_SECRET into ${path.join(dataDir, "secrets", "app-secret")} (mode 0600).`);
    // Even so declared, the built server renders with React's production build (only npm run dev does not).
    expect(first.output()).toContain("[react] server rendering: production build (NODE_ENV=production)");
    const second = await startTestServer({ NODE_ENV: "development", APP_SECRET: "", ENCRYPTION_KEY: "" }, { dataDir });
    await second.stop();
    expect(second.output()).not.toContain("Generated");
  });

  it("started as a bare npm start (no NODE_ENV, no secrets) renders with React's production build and keeps /dev/mailbox for this machine", async () => {
    const local = await startTestServer({ NODE_ENV: undefined, APP_SECRET: "", ENCRYPTION_KEY: "" });
    try {
      expect(local.output()).toContain("[react] server rendering: production build (NODE_ENV=production)");
      expect(local.output()).not.toContain("development build");
      expect(local.output()).toContain("Generated APP_SECRET");
      expect(local.output()).toMatch(/\[mail\] \/dev\/mailbox: answers loopback clients only/);
      const mailbox = await get(`${local.url}/dev/mailbox`);
      expect(mailbox.status).toBe(200);
      expect(mailbox.body.toString()).toContain("Development mailbox");
    } finally {
      await local.stop();
    }
  });

  it("a deployment with its own secrets but no NODE_ENV does not expose /dev/mailbox", async () => {
    // startTestServer passes secrets of its own, as a deployment would.
    const deployed = await startTestServer({ NODE_ENV: undefined });
    try {
      expect(deployed.output()).toContain("[react] server rendering: production build (NODE_ENV=production)");
      expect(deployed.output()).toContain("[mail] /dev/mailbox: off (APP_SECRET or ENCRYPTION_KEY set: a deployment)");
      const mailbox = await get(`${deployed.url}/dev/mailbox`);
      expect(mailbox.status).toBe(404);
      expect(mailbox.body.toString()).not.toContain("Development mailbox");
    } finally {
      await deployed.stop();
    }
  });

  it("on SIGTERM finishes, closes the database, releases the data folder and exits 0", async () => {
    const server = await startTestServer();
    expect(fs.existsSync(path.join(server.dataDir, "portal.lock"))).toBe(true);
    const code = await server.stop();
    expect(code, server.output()).toBe(0);
    expect(server.output()).toContain("SIGTERM received");
    expect(fs.existsSync(path.join(server.dataDir, "portal.lock"))).toBe(false);
    // The data survives: a new server opens the same folder.
    const again = await startTestServer({}, { dataDir: server.dataDir });
    expect((await get(`${again.url}/healthz`)).status).toBe(200);
    await again.stop();
  });

  it("a SIGTERM during start-up waits for start-up, then shuts down cleanly", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-e2e-"));
    const child = spawn(process.execPath, ["server.js"], {
      cwd: path.resolve(import.meta.dirname, "../.."),
      env: { ...process.env, HOST: "127.0.0.1", PORT: "0", DATA_DIR: dataDir, NODE_ENV: "development", APP_SECRET: "", ENCRYPTION_KEY: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      child.once("exit", (code, signal) => resolve({ code, signal })),
    );
    await new Promise<void>((resolve) => {
      const onData = (d: Buffer) => {
        output += d;
        // Secrets are written before the (slow) first database open: start-up is under way.
        if (output.includes("Generated ENCRYPTION_KEY")) resolve();
      };
      child.stdout.on("data", onData);
      child.stderr.on("data", (d: Buffer) => (output += d));
    });
    child.kill("SIGTERM");
    const result = await exited;
    expect(result, output).toEqual({ code: 0, signal: null });
    expect(output).toContain("SIGTERM received");
    expect(fs.existsSync(path.join(dataDir, "portal.lock"))).toBe(false);
  });

  it("sends HSTS when served over HTTPS through a trusted proxy", async () => {
    const server = await startTestServer({ TRUST_PROXY: "true" });
    try {
      const res = await get(`${server.url}/`, { "x-forwarded-proto": "https" });
      expect(res.headers["strict-transport-security"]).toBe("max-age=63072000; includeSubDomains");
      expect(res.headers["content-security-policy"]).toContain("upgrade-insecure-requests");
    } finally {
      await server.stop();
    }
  });
});
