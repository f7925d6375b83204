import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatScore, scoreRetrieval } from "../helpers/observatory";
import { retrieve } from "../helpers/observatory-retriever";
import { startTestServer, type TestServer } from "./harness";

/**
 * The MDN HTTP Observatory's published rules (tests/helpers/observatory.ts) applied to the built
 * server in production mode, serving HTTPS itself with a throw-away certificate and redirecting
 * plain HTTP (HTTP_REDIRECT_PORT). Each page must reach 100 (A+), as issue #9 asks.
 */

let server: TestServer;
let certDir: string;
let ca: Buffer;
let httpsPort: number;
let httpPort: number;

/** A self-signed certificate for localhost, made for this run only (never a committed key). */
function makeCertificate(dir: string): { cert: string; key: string } {
  const cert = path.join(dir, "cert.pem");
  const key = path.join(dir, "key.pem");
  execFileSync("openssl", [
    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
    "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=localhost",
    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
  ], { stdio: "ignore" });
  return { cert, key };
}

function rawRequest(url: string, method: string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
    const req = (url.startsWith("https:") ? https : http).request(url, { method, ca }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers }));
    });
    req.on("error", reject);
    req.end();
  });
}

beforeAll(async () => {
  certDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-tls-"));
  const files = makeCertificate(certDir);
  ca = fs.readFileSync(files.cert);
  server = await startTestServer({ TLS_CERT_FILE: files.cert, TLS_KEY_FILE: files.key, HTTP_REDIRECT_PORT: "0" });
  httpsPort = Number(new URL(server.url).port);
  const redirect = /\[https\] http:\/\/localhost:(\d+) redirects to https:\/\/localhost:(\d+)/.exec(server.output());
  if (!redirect) throw new Error(`No redirect listener in the output:\n${server.output()}`);
  httpPort = Number(redirect[1]);
  expect(Number(redirect[2])).toBe(httpsPort);
});

afterAll(async () => {
  await server?.stop();
  fs.rmSync(certDir, { recursive: true, force: true });
  if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
});

describe("HTTP Observatory rules over HTTPS", () => {
  it("serves HTTPS with HSTS and redirects every plain-HTTP request to the same path on https://", async () => {
    expect(server.url).toMatch(/^https:\/\//);
    const page = await rawRequest(`https://localhost:${httpsPort}/`, "GET");
    expect(page.status).toBe(200);
    expect(page.headers["strict-transport-security"]).toMatch(/max-age=\d{8,}/);

    const get = await rawRequest(`http://localhost:${httpPort}/apply?step=2`, "GET");
    expect(get).toMatchObject({ status: 301, headers: { location: `https://localhost:${httpsPort}/apply?step=2` } });
    // A post stays a post; a path that looks like another host stays on ours.
    expect((await rawRequest(`http://localhost:${httpPort}/auth`, "POST")).status).toBe(308);
    const sneaky = await rawRequest(`http://localhost:${httpPort}//evil.example/x`, "GET");
    expect(new URL(sneaky.headers.location!).host).toBe(`localhost:${httpsPort}`);
  });

  for (const pagePath of ["/", "/auth", "/apply", "/admin"]) {
    it(`${pagePath} scores at least 100 (A+)`, async () => {
      const retrieval = await retrieve({ hostname: "localhost", httpPort, httpsPort, path: pagePath, ca });
      const score = scoreRetrieval(retrieval);
      const report = formatScore(pagePath, score);
      expect(score.score, report).toBeGreaterThanOrEqual(100);
      expect(score.grade, report).toBe("A+");
      // The parts this test exists for: HTTPS, its redirect and HSTS are really there, with no penalty anywhere.
      const result = (test: string) => score.tests.find((t) => t.test === test)?.result;
      expect(result("redirection"), report).toBe("redirection-to-https");
      expect(result("strict-transport-security"), report).toBe("hsts-implemented-max-age-at-least-six-months");
      expect(score.tests.filter((t) => t.modifier < 0), report).toEqual([]);
    });
  }

  it("/admin is scored where the Observatory lands: the sign-in page, after redirects", async () => {
    const retrieval = await retrieve({ hostname: "localhost", httpPort, httpsPort, path: "/admin", ca });
    expect(retrieval.auto?.url.pathname).toBe("/auth");
    expect(retrieval.httpRedirects.map((hop) => hop.url.protocol)).toEqual(["http:", "https:", "https:"]);
  });
});
