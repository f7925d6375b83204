import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { passAdminMfa, signInOverHttp } from "../helpers/admins";
import { signUpOverHttp } from "../helpers/applicants";
import { submitApplication } from "../helpers/applications";
import type { SmtpSink } from "../helpers/smtp-sink";
import type { TestServer } from "./harness";
import { startServerWithMail, stopStack } from "./helpers/stack";
import { PUBLIC_PAGE_PATHS } from "./helpers/public-paths";

/**
 * Every page as the server sends it, checked by the W3C Nu HTML checker (vnu, the `vnu-jar` package on
 * the machine's Java): the public pages as a visitor, the sign-in page, the applicant's dashboard and
 * wizard, and the admin area with the second factor passed. One JVM checks all files (it starts in
 * seconds, a page in milliseconds). The licensing settings are set so the footer's line is checked too.
 */

const execFileAsync = promisify(execFile);
const require = (await import("node:module")).createRequire(import.meta.url);
const VNU_JAR: string = require("vnu-jar");

const ADMIN = { email: "valid.admin@example.com", password: "Adm1n!Secret" };
const ADMIN_PAGES = ["/admin", "/admin/clients", "/admin/documents", "/admin/monitoring", "/admin/security", "/admin/testimonials", "/admin/messages"];

type VnuMessage = { type: string; subType?: string; url?: string; lastLine?: number; message: string; extract?: string };

/** Runs vnu once on every file; returns its errors (warnings and info are not failures). */
async function vnuErrors(files: string[]): Promise<VnuMessage[]> {
  // vnu writes its JSON report to stderr; --exit-zero-always so a page with errors is a report, not a crash.
  const { stderr } = await execFileAsync("java", ["-jar", VNU_JAR, "--format", "json", "--exit-zero-always", ...files], {
    maxBuffer: 64 * 1024 * 1024,
  });
  const report = JSON.parse(stderr) as { messages: VnuMessage[] };
  return report.messages.filter((m) => m.type === "error" || m.subType === "fatal");
}

describe("HTML validity (W3C Nu HTML checker)", () => {
  let sink: SmtpSink;
  let server: TestServer;
  let dir: string;
  const cookies = { visitor: "", applicant: "", adminNoMfa: "", admin: "" };
  let applicationId = "";

  beforeAll(async () => {
    ({ sink, server } = await startServerWithMail({
      TRUST_PROXY: "true",
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LENDER_LEGAL_NAME: "Private Loans Holdings, LLC",
      NMLS_ID: "1234567",
      STATE_LICENSES: "California Financing Law License 60DBO-12345; Delaware Licensed Lender 012345",
    }));
    cookies.applicant = await signUpOverHttp(server.url, sink, "valid.applicant@example.com", "198.18.12.1");
    applicationId = await submitApplication(server.url, cookies.applicant);
    cookies.adminNoMfa = await signInOverHttp(server.url, ADMIN.email, ADMIN.password, "198.18.12.2");
    cookies.admin = await signInOverHttp(server.url, ADMIN.email, ADMIN.password, "198.18.12.3");
    await passAdminMfa(server.url, cookies.admin);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "vnu-pages-"));
  });
  afterAll(async () => {
    await stopStack({ sink, server });
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("finds no errors on the public, sign-in, applicant and admin pages", { timeout: 120_000 }, async () => {
    const pages: { who: keyof typeof cookies; path: string }[] = [
      ...[...PUBLIC_PAGE_PATHS, "/auth", "/no-such-page"].map((p) => ({ who: "visitor" as const, path: p })),
      { who: "applicant", path: "/dashboard" },
      { who: "applicant", path: "/apply" },
      { who: "adminNoMfa", path: "/admin/mfa" },
      ...ADMIN_PAGES.map((p) => ({ who: "admin" as const, path: p })),
      { who: "admin", path: `/admin/applications/${applicationId}` },
    ];
    const files = new Map<string, string>();
    for (const page of pages) {
      const res = await fetch(`${server.url}${page.path}`, { headers: { cookie: cookies[page.who] }, redirect: "manual" });
      expect(res.status, `${page.who} ${page.path}`).toBe(page.path === "/no-such-page" ? 404 : 200);
      const file = path.join(dir, `${page.who}${page.path.replaceAll("/", "_") || "_"}.html`);
      fs.writeFileSync(file, await res.text());
      files.set(`file:${file}`, `${page.who} ${page.path}`);
    }
    // The footer's licensing line is on the pages checked.
    expect(fs.readFileSync([...files.keys()][0]!.slice(5), "utf8")).toContain("NMLS ID");

    const errors = await vnuErrors([...files.keys()].map((url) => url.slice(5)));
    const described = errors.map((m) => `${files.get(m.url ?? "") ?? m.url} (line ${m.lastLine}): ${m.message} [${m.extract ?? ""}]`);
    expect(described).toEqual([]);
  });
});
