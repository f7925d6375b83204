import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ensureTestPrerequisites } from "../../scripts/test-prerequisites.mjs";
import { tempDirMaker } from "../helpers/temp-config";

const tempDir = tempDirMaker("prereq");

/** A folder of executables with these names, to stand for PATH. */
function binDir(...commands: string[]): string {
  const dir = tempDir();
  for (const command of commands) fs.writeFileSync(path.join(dir, command), "#!/bin/sh\n", { mode: 0o755 });
  return dir;
}

function attempt(options: { env: NodeJS.ProcessEnv; isRoot: boolean; onRun?: (command: string, args: string[]) => void }) {
  const lines: string[] = [];
  const runs: string[] = [];
  const ok = ensureTestPrerequisites({
    env: options.env,
    isRoot: options.isRoot,
    run: (command, args) => {
      runs.push([command, ...args].join(" "));
      options.onRun?.(command, args);
      return true;
    },
    log: (line) => lines.push(line),
    error: (line) => lines.push(line),
  });
  return { ok, output: lines.join("\n"), runs };
}

describe("npm test's own set-up", () => {
  it("goes on when everything is there, and says the integration suites run on PGlite only without TEST_DATABASE_URL", () => {
    const bin = binDir("pdftotext", "pdfinfo", "pdfimages", "java");
    const chromium = path.join(binDir("chromium"), "chromium");
    const result = attempt({ env: { PATH: bin, CHROMIUM_PATH: chromium }, isRoot: false });
    expect(result.ok).toBe(true);
    expect(result.runs).toEqual([]);
    expect(result.output).toBe(
      "TEST_DATABASE_URL is not set: the integration suites run on PGlite only (set it to a PostgreSQL 15 URL to run them on both).",
    );
    const both = attempt({ env: { PATH: bin, CHROMIUM_PATH: chromium, TEST_DATABASE_URL: "postgres://u:secret@db/test" }, isRoot: false });
    expect(both.output).toContain("on PGlite and on the PostgreSQL server");
    expect(both.output).not.toContain("secret");
  });

  it("as root with apt-get, installs exactly what is missing (one update, one install), then goes on", () => {
    const bin = binDir("apt-get", "java");
    const result = attempt({
      // CHROMIUM_PATH unset: Debian's /usr/bin/chromium is looked for (it may or may not be on this machine).
      env: { PATH: bin },
      isRoot: true,
      onRun: (command, args) => {
        // The fake install puts the poppler tools on PATH.
        if (command === "apt-get" && args[0] === "install") for (const c of ["pdftotext", "pdfinfo", "pdfimages"]) fs.writeFileSync(path.join(bin, c), "", { mode: 0o755 });
      },
    });
    const chromiumHere = fs.existsSync("/usr/bin/chromium");
    const fontHere = fs.existsSync("/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf");
    // Java is there: not installed again.
    expect(result.runs).toEqual(["apt-get update", `apt-get install -y ${chromiumHere ? "" : "chromium "}poppler-utils${fontHere ? "" : " fonts-liberation"}`]);
    expect(result.ok).toBe(chromiumHere);
  });

  it("without root, stops at once naming the exact command, installs nothing", () => {
    const bin = binDir("apt-get");
    const result = attempt({ env: { PATH: bin, CHROMIUM_PATH: path.join(tempDir(), "no-chromium") }, isRoot: false });
    expect(result.ok).toBe(false);
    expect(result.runs).toEqual([]);
    expect(result.output).toContain("Cannot run the tests: missing");
    expect(result.output).toContain("Run: sudo apt-get update && sudo apt-get install -y poppler-utils default-jre-headless");
    expect(result.output).toContain("Point CHROMIUM_PATH at a Chromium or Chrome binary");
  });

  it("without apt-get, names the packages to install", () => {
    const chromium = path.join(binDir("chromium"), "chromium");
    const result = attempt({ env: { PATH: binDir("pdftotext", "pdfinfo", "pdfimages"), CHROMIUM_PATH: chromium }, isRoot: true });
    expect(result.ok).toBe(false);
    expect(result.runs).toEqual([]);
    expect(result.output).toContain("missing java");
    expect(result.output).toContain("Install with your system's package manager: default-jre-headless");
  });
});
