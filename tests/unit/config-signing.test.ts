import { generateKeyPairSync } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "~/server/platform/config.server";
import { selfSignedIdentityPem } from "~/server/platform/crypto/signing-identity.server";
import { configProblems, tempDirMaker } from "../helpers/temp-config";

const tempDir = tempDirMaker("config-signing");

/** A certificate file and a key file; `otherKey` writes a key that is not the certificate's. */
function pemFiles(options: { otherKey?: boolean; ecKey?: boolean } = {}) {
  const dir = tempDir();
  const pem = selfSignedIdentityPem("Harbor Street Lending, LLC");
  const cert = path.join(dir, "signing-cert.pem");
  const key = path.join(dir, "signing-key.pem");
  fs.writeFileSync(cert, pem.slice(0, pem.indexOf("-----BEGIN PRIVATE KEY-----")));
  const keyPem = options.ecKey
    ? generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ type: "pkcs8", format: "pem" }).toString()
    : options.otherKey
      ? generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString()
      : pem.slice(pem.indexOf("-----BEGIN PRIVATE KEY-----"));
  fs.writeFileSync(key, keyPem);
  return { dir, cert, key };
}

const problems = (env: Record<string, string>) => configProblems({ DATA_DIR: tempDir(), ...env });

describe("loadConfig: the agreement signing certificate", () => {
  it("reads the configured certificate and its key, and names its subject and SHA-256", () => {
    const files = pemFiles();
    const config = loadConfig({ DATA_DIR: files.dir, SIGNING_CERT_FILE: files.cert, SIGNING_KEY_FILE: files.key });
    expect(config.signing?.subject).toBe("Harbor Street Lending, LLC");
    expect(config.signing?.certificateSha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("without one, none is configured (a self-signed one is made on first use) and production is told so", () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).signing).toBeUndefined();
    const secrets = { NODE_ENV: "production", APP_SECRET: "s".repeat(32), ENCRYPTION_KEY: `v1:${Buffer.alloc(32, 1).toString("base64")}`, TRUST_PROXY: "true" };
    expect(loadConfig({ DATA_DIR: tempDir(), ...secrets }).notices).toEqual([expect.stringMatching(/^SIGNING_CERT_FILE is not set/)]);
    const files = pemFiles();
    expect(loadConfig({ DATA_DIR: files.dir, ...secrets, SIGNING_CERT_FILE: files.cert, SIGNING_KEY_FILE: files.key }).notices).toEqual([]);
  });

  it("refuses half a configuration, an unreadable file, a key of another certificate and a key that is not RSA", () => {
    const files = pemFiles();
    expect(problems({ SIGNING_CERT_FILE: files.cert })).toEqual([expect.stringMatching(/^SIGNING_CERT_FILE, SIGNING_KEY_FILE: set both/)]);
    expect(problems({ SIGNING_CERT_FILE: files.cert, SIGNING_KEY_FILE: path.join(files.dir, "missing.pem") })).toEqual([
      expect.stringMatching(/^SIGNING_KEY_FILE: cannot read .*missing\.pem \(ENOENT\)/),
    ]);
    const other = pemFiles({ otherKey: true });
    expect(problems({ SIGNING_CERT_FILE: other.cert, SIGNING_KEY_FILE: other.key })).toEqual(["SIGNING_CERT_FILE, SIGNING_KEY_FILE: the private key does not belong to the certificate"]);
    const ec = pemFiles({ ecKey: true });
    expect(problems({ SIGNING_CERT_FILE: ec.cert, SIGNING_KEY_FILE: ec.key })).toEqual(["SIGNING_CERT_FILE, SIGNING_KEY_FILE: the private key is ec; an RSA key is needed"]);
    expect(problems({ SIGNING_CERT_FILE: files.key, SIGNING_KEY_FILE: files.key })).toEqual([expect.stringMatching(/no PEM certificate/)]);
  });
});
