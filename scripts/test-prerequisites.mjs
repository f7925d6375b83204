// What `npm test` needs from the machine besides Node: Chromium for the browser suites, poppler-utils
// to read generated PDFs back, Java for the W3C Nu HTML checker, the fallback font the layout tests measure. On a fresh Debian machine run as root
// it installs what is missing (one `apt-get update`, one `apt-get install`); anywhere else it stops at
// once and names the command to run, instead of letting dozens of suites fail one by one.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** An executable file, or null. */
function executable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile() ? file : null;
  } catch {
    return null;
  }
}

/** The command's path on the given PATH, or null. */
function onPath(command, pathValue) {
  for (const dir of (pathValue ?? "").split(path.delimiter)) {
    if (!dir) continue;
    const found = executable(path.join(dir, command));
    if (found) return found;
  }
  return null;
}

/** Each need: what finds it, the Debian package that brings it (null: none would), and its name for a person. */
function needs(env) {
  const chromium = env.CHROMIUM_PATH || "/usr/bin/chromium";
  return [
    {
      what: env.CHROMIUM_PATH ? `Chromium at CHROMIUM_PATH (${chromium})` : "Chromium at /usr/bin/chromium (or set CHROMIUM_PATH)",
      found: () => executable(chromium),
      // A CHROMIUM_PATH elsewhere names the user's own browser: Debian's package would not put one there.
      apt: chromium === "/usr/bin/chromium" ? "chromium" : null,
    },
    {
      what: "pdftotext, pdfinfo and pdfimages (poppler-utils)",
      found: () => ["pdftotext", "pdfinfo", "pdfimages"].every((c) => onPath(c, env.PATH)),
      apt: "poppler-utils",
    },
    { what: "java (a Java 11+ runtime, for the W3C Nu HTML checker)", found: () => onPath("java", env.PATH), apt: "default-jre-headless" },
    {
      // The brand typeface's metric-matched fallback (app.css "Inter Fallback"): without it Chromium falls
      // back to a wider font and the layout-shift tests measure a different page than users see.
      what: "Liberation Sans (fonts-liberation)",
      found: () => fs.existsSync(env.LIBERATION_SANS || "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf"),
      apt: "fonts-liberation",
    },
  ];
}

function runCommand(command, args) {
  console.log(`$ ${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  return result.status === 0;
}

/**
 * Checks the machine; installs what is missing when it can (root and apt-get: `apt-get update` once,
 * then one `apt-get install -y` of the missing packages); returns false after saying what to run when
 * it cannot. Also says in one line which databases the integration suites use. The options exist for
 * the tests: the real run uses this process's environment, user, console and apt-get.
 */
export function ensureTestPrerequisites({
  env = process.env,
  isRoot = typeof process.getuid === "function" && process.getuid() === 0,
  run = runCommand,
  log = console.log,
  error = console.error,
} = {}) {
  const missingNeeds = () => needs(env).filter((need) => !need.found());
  const packagesFor = (list) => [...new Set(list.map((need) => need.apt).filter(Boolean))];
  let missing = missingNeeds();
  const aptGet = onPath("apt-get", env.PATH);

  if (packagesFor(missing).length && isRoot && aptGet) {
    log(`Installing what the tests need: ${packagesFor(missing).join(" ")}`);
    if (run("apt-get", ["update"])) run("apt-get", ["install", "-y", ...packagesFor(missing)]);
    missing = missingNeeds();
  }

  if (missing.length) {
    error(`Cannot run the tests: missing ${missing.map((need) => need.what).join("; ")}.`);
    const packages = packagesFor(missing);
    const sudo = isRoot ? "" : "sudo ";
    if (packages.length && aptGet) error(`Run: ${sudo}apt-get update && ${sudo}apt-get install -y ${packages.join(" ")}`);
    else if (packages.length) error(`Install with your system's package manager: ${packages.join(" ")} (Debian's package names).`);
    if (missing.some((need) => need.apt === null)) error("Point CHROMIUM_PATH at a Chromium or Chrome binary, or unset it to use /usr/bin/chromium.");
    return false;
  }

  log(
    env.TEST_DATABASE_URL
      ? "Integration suites run on PGlite and on the PostgreSQL server at TEST_DATABASE_URL."
      : "TEST_DATABASE_URL is not set: the integration suites run on PGlite only (set it to a PostgreSQL 15 URL to run them on both).",
  );
  return true;
}
