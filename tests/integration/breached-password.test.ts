import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig, setConfig } from "~/server/platform/config.server";
import {
  breachedPasswordMessage,
  checkBreachedPassword,
  countInRange,
  passwordHashParts,
} from "~/server/platform/security/breached-password.server";

/**
 * A local fake of the Pwned Passwords range API: GET /range/<5 hex> answers `SUFFIX:COUNT` lines,
 * padded with count-0 lines like the real service does with `Add-Padding: true`.
 */

const BREACHED = "P@ssw0rd";
const PADDED_ONLY = "Padded0nly!"; // its suffix appears, but only as a padding line (count 0)
const CLEAN = "Correct-Horse-Battery-9!";

const sha1 = (v: string) => createHash("sha1").update(v).digest("hex").toUpperCase();

type Seen = { url: string; headers: http.IncomingHttpHeaders; method: string };
const seen: Seen[] = [];
let server: http.Server;
let base: string;

function rangeBody(prefix: string): string {
  const lines: string[] = [];
  // Unrelated real-looking entries and padding lines.
  for (let i = 0; i < 20; i++) {
    const suffix = createHash("sha1").update(`${prefix}-${i}`).digest("hex").toUpperCase().slice(5);
    lines.push(`${suffix}:${i % 3 === 0 ? 0 : i * 7}`);
  }
  if (sha1(BREACHED).startsWith(prefix)) lines.splice(7, 0, `${sha1(BREACHED).slice(5)}:52256179`);
  if (sha1(PADDED_ONLY).startsWith(prefix)) lines.splice(3, 0, `${sha1(PADDED_ONLY).slice(5)}:0`);
  return lines.join("\r\n");
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push({ url: req.url ?? "", headers: req.headers, method: req.method ?? "" });
    const url = req.url ?? "";
    if (url.startsWith("/broken/")) {
      res.writeHead(500, { "content-type": "text/plain" }).end("internal error");
      return;
    }
    if (url.startsWith("/hang/")) return; // never answers
    if (url.startsWith("/slow-body/")) {
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("0000000000000000000000000000000000A:1\r\n"); // and never ends
      return;
    }
    const match = /^\/range\/([0-9A-F]{5})$/.exec(url);
    if (!match) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": "text/plain" }).end(rangeBody(match[1]!));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("checkBreachedPassword against a local range API", () => {
  it("finds a breached password and its count", async () => {
    const result = await checkBreachedPassword(BREACHED, { url: `${base}/range/`, timeoutMs: 2000 });
    expect(result).toEqual({ status: "breached", count: 52256179 });
  });

  it("sends only the 5-character prefix, with the Add-Padding header, as one GET", async () => {
    seen.length = 0;
    await checkBreachedPassword(CLEAN, { url: `${base}/range/`, timeoutMs: 2000 });
    expect(seen).toHaveLength(1);
    const [request] = seen;
    const { prefix, suffix } = passwordHashParts(CLEAN);
    expect(request!.method).toBe("GET");
    expect(request!.url).toBe(`/range/${prefix}`);
    expect(prefix).toMatch(/^[0-9A-F]{5}$/);
    expect(request!.headers["add-padding"]).toBe("true");
    // Neither the password nor the rest of its hash leaves the server.
    const everything = JSON.stringify(request);
    expect(everything).not.toContain(suffix);
    expect(everything).not.toContain(CLEAN);
  });

  it("reports a password that is not in the range as clean", async () => {
    expect(await checkBreachedPassword(CLEAN, { url: `${base}/range/`, timeoutMs: 2000 })).toEqual({ status: "clean" });
  });

  it("ignores padding lines (count 0) even when the suffix matches", async () => {
    expect(await checkBreachedPassword(PADDED_ONLY, { url: `${base}/range/`, timeoutMs: 2000 })).toEqual({ status: "clean" });
  });

  it("is 'unavailable' on a server error (the caller then accepts the password)", async () => {
    const result = await checkBreachedPassword(BREACHED, { url: `${base}/broken/`, timeoutMs: 2000 });
    expect(result).toEqual({ status: "unavailable", reason: "HTTP 500" });
  });

  it("is 'unavailable' within the timeout when the server never answers", async () => {
    const started = performance.now();
    const result = await checkBreachedPassword(BREACHED, { url: `${base}/hang/`, timeoutMs: 300 });
    const elapsed = performance.now() - started;
    expect(result.status).toBe("unavailable");
    expect(result.status === "unavailable" && result.reason).toMatch(/timeout/);
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(1500);
  });

  it("is 'unavailable' when the body never finishes", async () => {
    const started = performance.now();
    const result = await checkBreachedPassword(BREACHED, { url: `${base}/slow-body/`, timeoutMs: 300 });
    expect(result.status).toBe("unavailable");
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it("is 'unavailable' when nothing listens", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const result = await checkBreachedPassword(BREACHED, { url: `http://127.0.0.1:${port}/range/`, timeoutMs: 2000 });
    expect(result.status).toBe("unavailable");
    expect(result.status === "unavailable" && result.reason).toMatch(/network error/);
  });

  it("is 'unavailable' with reason 'disabled' when turned off", async () => {
    for (const url of [null, "", "off"]) {
      expect(await checkBreachedPassword(BREACHED, { url, timeoutMs: 2000 })).toEqual({ status: "unavailable", reason: "disabled" });
    }
  });

  it("uses an injected fetch", async () => {
    const { suffix } = passwordHashParts("whatever");
    const fakeFetch = (async () => new Response(`${suffix}:3\r\nABC:0`, { status: 200 })) as typeof fetch;
    expect(await checkBreachedPassword("whatever", { url: "https://example.invalid/range/", timeoutMs: 100, fetch: fakeFetch })).toEqual({
      status: "breached",
      count: 3,
    });
  });
});

describe("configuration", () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-pwned-"));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("defaults to the public range API with a 1500 ms timeout; '' and 'off' disable it", () => {
    const defaults = loadConfig({ DATA_DIR: tempDir() });
    expect(defaults.pwnedPasswordsUrl).toBe("https://api.pwnedpasswords.com/range/");
    expect(defaults.pwnedTimeoutMs).toBe(1500);
    expect(loadConfig({ DATA_DIR: tempDir(), PWNED_PASSWORDS_URL: "" }).pwnedPasswordsUrl).toBeNull();
    expect(loadConfig({ DATA_DIR: tempDir(), PWNED_PASSWORDS_URL: "off" }).pwnedPasswordsUrl).toBeNull();
    expect(loadConfig({ DATA_DIR: tempDir(), PWNED_PASSWORDS_URL: "OFF" }).pwnedPasswordsUrl).toBeNull();
    const custom = loadConfig({ DATA_DIR: tempDir(), PWNED_PASSWORDS_URL: "http://127.0.0.1:9/range/", PWNED_TIMEOUT_MS: "250" });
    expect(custom.pwnedPasswordsUrl).toBe("http://127.0.0.1:9/range/");
    expect(custom.pwnedTimeoutMs).toBe(250);
  });

  it("refuses a URL that is not http(s) and a silly timeout", () => {
    expect(() => loadConfig({ DATA_DIR: tempDir(), PWNED_PASSWORDS_URL: "ftp://example.com/range/" })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: tempDir(), PWNED_PASSWORDS_URL: "not a url" })).toThrow(/PWNED_PASSWORDS_URL/);
    expect(() => loadConfig({ DATA_DIR: tempDir(), PWNED_TIMEOUT_MS: "abc" })).toThrow(/PWNED_TIMEOUT_MS/);
  });

  it("without options, checkBreachedPassword follows the configuration", async () => {
    setConfig(loadConfig({ DATA_DIR: tempDir(), PWNED_PASSWORDS_URL: `${base}/range/`, PWNED_TIMEOUT_MS: "2000" }));
    expect(await checkBreachedPassword(BREACHED)).toEqual({ status: "breached", count: 52256179 });
    setConfig(loadConfig({ DATA_DIR: tempDir(), PWNED_PASSWORDS_URL: "off" }));
    expect(await checkBreachedPassword(BREACHED)).toEqual({ status: "unavailable", reason: "disabled" });
  });
});

describe("helpers", () => {
  it("parses range lines, case-insensitively, ignoring count-0 padding", () => {
    const body = "0018A45C4D1DEF81644B54AB7F969B88D65:1\r\n00D4F6E8FA6EECAD2A3AA415EEC418D38EC:2\n011053FD0102E94D6AE2F8B83D76FAF94F6:0";
    expect(countInRange(body, "00d4f6e8fa6eecad2a3aa415eec418d38ec")).toBe(2);
    expect(countInRange(body, "011053FD0102E94D6AE2F8B83D76FAF94F6")).toBe(0);
    expect(countInRange(body, "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF")).toBe(0);
    expect(countInRange("", "ABC")).toBe(0);
  });

  it("builds the Compromised Password message with the count", () => {
    expect(breachedPasswordMessage(52256179)).toBe(
      "This password has appeared in 52,256,179 data breaches. Please choose a different password.",
    );
    expect(breachedPasswordMessage(1)).toBe("This password has appeared in 1 data breach. Please choose a different password.");
  });
});
