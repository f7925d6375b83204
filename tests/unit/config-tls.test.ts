import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "~/server/platform/config.server";
import { configProblems, tempDirMaker } from "../helpers/temp-config";

const tempDir = tempDirMaker("config-tls");

/** The loader only reads the files; their PEM contents are checked by Node when the server starts. */
function pemFiles() {
  const dir = tempDir();
  const cert = path.join(dir, "cert.pem");
  const key = path.join(dir, "key.pem");
  fs.writeFileSync(cert, "certificate bytes");
  fs.writeFileSync(key, "key bytes");
  return { dir, cert, key };
}

const problems = (env: Record<string, string>) => configProblems({ DATA_DIR: tempDir(), ...env });

describe("loadConfig: TLS", () => {
  it("reads the certificate and key, and defaults PUBLIC_URL to https", () => {
    const files = pemFiles();
    const config = loadConfig({ DATA_DIR: files.dir, TLS_CERT_FILE: files.cert, TLS_KEY_FILE: files.key, HTTP_REDIRECT_PORT: "8080" });
    expect(config.tls?.cert.toString()).toBe("certificate bytes");
    expect(config.tls?.key.toString()).toBe("key bytes");
    expect(config.publicUrl).toBe("https://localhost:3000");
    expect(config.httpRedirectPort).toBe(8080);
  });

  it("without TLS there is no certificate and no redirect listener", () => {
    const config = loadConfig({ DATA_DIR: tempDir() });
    expect(config.tls).toBeUndefined();
    expect(config.httpRedirectPort).toBeUndefined();
  });

  it("refuses half a TLS configuration, unreadable files, a redirect port without TLS and an http PUBLIC_URL", () => {
    const files = pemFiles();
    expect(problems({ TLS_CERT_FILE: files.cert })).toEqual([expect.stringMatching(/^TLS_CERT_FILE, TLS_KEY_FILE: set both/)]);
    expect(problems({ TLS_CERT_FILE: files.cert, TLS_KEY_FILE: path.join(files.dir, "missing.pem") })).toEqual([
      expect.stringMatching(/^TLS_KEY_FILE: cannot read .*missing\.pem \(ENOENT\)/),
    ]);
    expect(problems({ HTTP_REDIRECT_PORT: "80" })).toEqual([expect.stringMatching(/^HTTP_REDIRECT_PORT: only with TLS_CERT_FILE/)]);
    expect(problems({ TLS_CERT_FILE: files.cert, TLS_KEY_FILE: files.key, PUBLIC_URL: "http://loans.example" })).toEqual([
      expect.stringMatching(/^PUBLIC_URL: must be an https:\/\/ address/),
    ]);
  });

  it("warns, in production, when neither TLS nor a trusted TLS proxy is configured", () => {
    const secrets = { NODE_ENV: "production", APP_SECRET: "s".repeat(32), ENCRYPTION_KEY: `v1:${Buffer.alloc(32, 1).toString("base64")}` };
    const tlsNotices = (env: Record<string, string>) => loadConfig({ DATA_DIR: tempDir(), ...secrets, ...env }).notices.filter((n) => !n.startsWith("SIGNING_CERT_FILE"));
    expect(tlsNotices({})).toEqual([expect.stringMatching(/^Serving plain HTTP/)]);
    expect(tlsNotices({ TRUST_PROXY: "true" })).toEqual([]);
  });
});
