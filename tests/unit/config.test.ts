import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "~/server/platform/config.server";
import { tempDirMaker } from "../helpers/temp-config";

const tempDir = tempDirMaker("config");

const key = (version = 1) => `v${version}:${Buffer.alloc(32, version).toString("base64")}`;

describe("loadConfig", () => {
  it("starts with no configuration: creates DATA_DIR and generates secrets into 0600 files, once", () => {
    const dataDir = path.join(tempDir(), "nested", "data");
    const first = loadConfig({ DATA_DIR: dataDir });
    expect(first.port).toBe(3000);
    expect(first.publicUrl).toBe("http://localhost:3000");
    expect(first.appSecret.length).toBeGreaterThanOrEqual(32);
    expect(first.encryptionKeys[0]!.key).toHaveLength(32);
    expect(first.notices).toHaveLength(2);
    for (const name of ["app-secret", "encryption-key"]) {
      const mode = fs.statSync(path.join(dataDir, "secrets", name)).mode & 0o777;
      expect(mode).toBe(0o600);
    }
    const second = loadConfig({ DATA_DIR: dataDir });
    expect(second.appSecret).toBe(first.appSecret);
    expect(second.encryptionKeys[0]!.key.equals(first.encryptionKeys[0]!.key)).toBe(true);
    expect(second.notices).toEqual([]);
  });

  it("refuses to start in production without explicit secrets", () => {
    const dataDir = tempDir();
    expect(() => loadConfig({ NODE_ENV: "production", DATA_DIR: dataDir })).toThrow(ConfigError);
    try {
      loadConfig({ NODE_ENV: "production", DATA_DIR: dataDir });
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        "APP_SECRET: required when NODE_ENV=production",
        "ENCRYPTION_KEY: required when NODE_ENV=production",
      ]);
    }
    expect(fs.existsSync(path.join(dataDir, "secrets"))).toBe(false);
  });

  it("follows what the operator declared (APP_ENV, set by server.js) when NODE_ENV is production only for React", () => {
    // A bare npm start: server.js runs React with NODE_ENV=production and keeps the declaration.
    const local = loadConfig({ NODE_ENV: "production", APP_ENV: "development", DATA_DIR: tempDir() });
    expect(local.isProduction).toBe(false);
    expect(local.nodeEnv).toBe("development");
    expect(local.localRun).toBe(true);
    // NODE_ENV=production declared: the deployment rules hold.
    expect(() => loadConfig({ NODE_ENV: "production", APP_ENV: "production", DATA_DIR: tempDir() })).toThrow("APP_SECRET: required when NODE_ENV=production");
    expect(() => loadConfig({ APP_ENV: "staging", DATA_DIR: tempDir() })).toThrow("APP_ENV");
  });

  it("is a local run (where /dev/mailbox may answer) only when it made its own secrets and production was not declared", () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).localRun).toBe(true);
    expect(loadConfig({ DATA_DIR: tempDir(), APP_SECRET: "x".repeat(40) }).localRun).toBe(false);
    expect(loadConfig({ DATA_DIR: tempDir(), ENCRYPTION_KEY: key(1) }).localRun).toBe(false);
    expect(loadConfig({ NODE_ENV: "production", DATA_DIR: tempDir(), APP_SECRET: "x".repeat(40), ENCRYPTION_KEY: key(1) }).localRun).toBe(false);
  });

  it("accepts explicit secrets in production, with rotation keys newest first", () => {
    const config = loadConfig({
      NODE_ENV: "production",
      DATA_DIR: tempDir(),
      APP_SECRET: "x".repeat(40),
      ENCRYPTION_KEY: `${key(2)},${key(1)}`,
      PUBLIC_URL: "https://loans.example.com/",
    });
    expect(config.isProduction).toBe(true);
    expect(config.encryptionKeys.map((k) => k.version)).toEqual([2, 1]);
    expect(config.publicUrl).toBe("https://loans.example.com");
  });

  it.each([
    [{ PORT: "http" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ DATABASE_URL: "mysql://localhost/db" }, "DATABASE_URL: must start with postgres:// or postgresql://"],
    [{ APP_SECRET: "short" }, "APP_SECRET: must be at least 32 characters"],
    [{ ENCRYPTION_KEY: "v1:dG9vLXNob3J0" }, "ENCRYPTION_KEY: must be v<N>:<base64 of 32 random bytes>"],
    [{ ENCRYPTION_KEY: `${key(1)},${key(1)}` }, "ENCRYPTION_KEY: key versions must be unique"],
    [{ SMTP_URL: "http://mail" }, "SMTP_URL: must start with smtp:// or smtps://"],
    [{ NODE_ENV: "staging" }, "NODE_ENV"],
    [{ TRANSITION_MS: "-1" }, "TRANSITION_MS"],
    [{ PUBLIC_URL: "not a url" }, "PUBLIC_URL: must be an absolute URL"],
  ])("refuses %o with a message naming the variable", (env, expected) => {
    expect(() => loadConfig({ DATA_DIR: tempDir(), ...env })).toThrow(expected);
  });

  it("EVENT_STREAMS_MAX caps one instance's live-update streams: 10,000 unless set, a whole number from 1 to 50,000", () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).eventStreamsMax).toBe(10_000);
    expect(loadConfig({ DATA_DIR: tempDir(), EVENT_STREAMS_MAX: "2500" }).eventStreamsMax).toBe(2500);
    for (const bad of ["0", "-5", "1.5", "ten", "50001"]) {
      expect(() => loadConfig({ DATA_DIR: tempDir(), EVENT_STREAMS_MAX: bad }), bad).toThrow(/EVENT_STREAMS_MAX/);
    }
  });

  it("MAX_APR caps an offer's APR: 35.99 unless set, a percent above 0 and under 100 with at most two decimals", () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).maxAprPercent).toBe(35.99);
    expect(loadConfig({ DATA_DIR: tempDir(), MAX_APR: " 29.5 " }).maxAprPercent).toBe(29.5);
    for (const bad of ["0", "-5", "100", "36.999", "thirty", ""]) {
      expect(() => loadConfig({ DATA_DIR: tempDir(), MAX_APR: bad }), bad).toThrow(/MAX_APR/);
    }
  });

  it("SANCTIONS_MATCH_THRESHOLD is where a name becomes a potential match: 0.90 unless set, a number from 0 to 1", () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).sanctionsMatchThreshold).toBe(0.9);
    expect(loadConfig({ DATA_DIR: tempDir(), SANCTIONS_MATCH_THRESHOLD: " 0.85 " }).sanctionsMatchThreshold).toBe(0.85);
    expect(loadConfig({ DATA_DIR: tempDir(), SANCTIONS_MATCH_THRESHOLD: "1" }).sanctionsMatchThreshold).toBe(1);
    for (const bad of ["1.01", "-0.1", "90", "0.12345", "high", ""]) {
      expect(() => loadConfig({ DATA_DIR: tempDir(), SANCTIONS_MATCH_THRESHOLD: bad }), bad).toThrow(/SANCTIONS_MATCH_THRESHOLD/);
    }
  });

  it("TRANSITION_MS=0 turns the overlay off", () => {
    expect(loadConfig({ DATA_DIR: tempDir(), TRANSITION_MS: "0" }).transitionMs).toBe(0);
  });

  it("reads the footer's licensing line: each part optional, none set means no line", () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).licensing).toBeUndefined();
    expect(loadConfig({ DATA_DIR: tempDir(), LENDER_LEGAL_NAME: "", NMLS_ID: "", STATE_LICENSES: " ; " }).licensing).toBeUndefined();
    expect(
      loadConfig({
        DATA_DIR: tempDir(),
        LENDER_LEGAL_NAME: " Private Loans Holdings, LLC ",
        NMLS_ID: "1234567",
        STATE_LICENSES: "California Financing Law License 60DBO-12345; ;Delaware Licensed Lender 012345",
      }).licensing,
    ).toEqual({
      legalName: "Private Loans Holdings, LLC",
      nmlsId: "1234567",
      stateLicenses: ["California Financing Law License 60DBO-12345", "Delaware Licensed Lender 012345"],
    });
    expect(loadConfig({ DATA_DIR: tempDir(), NMLS_ID: "42" }).licensing).toEqual({ legalName: undefined, nmlsId: "42", stateLicenses: [] });
  });

  it("refuses licensing values that are not one line of plain text", () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig({ DATA_DIR: tempDir(), ...env });
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    expect(problems({ NMLS_ID: "NMLS 123" })).toEqual(["NMLS_ID: must be the NMLS ID's digits, such as 123456"]);
    expect(problems({ LENDER_LEGAL_NAME: "Evil <b>Corp</b>" })).toEqual([
      "LENDER_LEGAL_NAME: must be one line of plain text (no control characters, < or >)",
    ]);
    expect(problems({ STATE_LICENSES: "CA 1;DE\n2" })).toEqual([
      "STATE_LICENSES.1: must be one line of plain text (no control characters, < or >)",
    ]);
  });
});
