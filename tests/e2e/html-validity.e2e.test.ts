import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import routes from "../../app/routes";
import { DEMO_ADMIN_DEFAULTS, DEMO_APPLICANT_PASSWORD, DEMO_APPLICANTS } from "../../scripts/demo/data";
import { DEMO_STAFF } from "../../scripts/demo/seed";
import { passAdminMfa, signInOverHttp, totpFor } from "../helpers/admins";
import { signUpOverHttp } from "../helpers/applicants";
import type { SmtpSink } from "../helpers/smtp-sink";
import { testSecrets, type TestServer } from "./harness";
import { startServerWithMail, stopStack } from "./helpers/stack";
import { PUBLIC_PAGE_PATHS } from "./helpers/public-paths";
import { linksIn, PAGES_NOT_WALKED, routePathOf, SIGNED_IN_PAGES, STAFF_PAGE_ROLES, type PageRole, type SignedInPage, type StaffPageRole } from "./helpers/signed-in-pages";

/**
 * Every page as the server sends it, checked by the W3C Nu HTML checker (vnu, the `vnu-jar` package on
 * the machine's Java): the public pages as a visitor, the sign-in and 404 pages, and every signed-in
 * page (./helpers/signed-in-pages.ts) for each demo applicant and each staff role, over the demo data
 * (`npm run demo`: applications in every status, an open offer, a declined one, active, late and paid-off
 * loans, requests and messages) plus what the demo leaves out: a new applicant with nothing yet, a saved
 * application, an applicant asked for the second factor and an ACH batch with entries. One JVM checks
 * all files (it starts in seconds, a page in milliseconds). The licensing settings are set so the
 * footer's line is checked too.
 */

const execFileAsync = promisify(execFile);
const require = (await import("node:module")).createRequire(import.meta.url);
const VNU_JAR: string = require("vnu-jar");
const root = path.resolve(import.meta.dirname, "../..");

/** Links of one shape followed per session (the admin and applicants follow more, the other roles a few). */
const LINKS_PER_ROW = { full: 20, sample: 3 };

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

/** One signed-in session walking the list: who it is, its cookie and the pages it fetched so far. */
type Session = { label: string; role: PageRole; stage: NonNullable<SignedInPage["stage"]>; cookie: string; follow: number; fetched: string[] };

/** Every route path in app/routes.ts whose module has markup (a .tsx page), flattened. */
function pageRoutePaths(): string[] {
  type Entry = { path?: string; index?: boolean; file: string; children?: Entry[] };
  const flat = (entries: Entry[]): Entry[] => entries.flatMap((e) => [e, ...flat(e.children ?? [])]);
  return flat(routes as Entry[])
    .filter((e) => e.file.endsWith(".tsx"))
    .map((e) => (e.index ? "" : (e.path ?? "")));
}

describe("HTML validity (W3C Nu HTML checker)", () => {
  let sink: SmtpSink;
  let server: TestServer;
  let dir: string;
  const sessions: Session[] = [];
  let visitor: Session;
  let ip = 1;
  const nextIp = () => `198.18.12.${ip++}`;

  const post = async (cookie: string, to: string, body: URLSearchParams | FormData) =>
    fetch(`${server.url}${to}`, { method: "POST", body, headers: { cookie, origin: server.url }, redirect: "manual" });

  beforeAll(async () => {
    // The demo data, written by the product's own command into the data folder the server then runs on.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-e2e-vnu-"));
    const secrets = testSecrets();
    await promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/demo.ts", "--force"], {
      cwd: root,
      env: { ...process.env, NODE_ENV: "production", DATA_DIR: dataDir, DATABASE_URL: "", PWNED_PASSWORDS_URL: "off", ...secrets },
    });
    ({ sink, server } = await startServerWithMail(
      {
        ...secrets,
        TRUST_PROXY: "true",
        LENDER_LEGAL_NAME: "Private Loans Holdings, LLC",
        NMLS_ID: "1234567",
        STATE_LICENSES: "California Financing Law License 60DBO-12345; Delaware Licensed Lender 012345",
      },
      { dataDir },
    ));
    const base = server.url;
    const session = (label: string, role: PageRole, cookie: string, follow: number, stage: Session["stage"] = "signed-in"): Session => {
      const s = { label, role, stage, cookie, follow, fetched: [] };
      sessions.push(s);
      return s;
    };
    visitor = { label: "visitor", role: "applicant", stage: "signed-in", cookie: "", follow: 0, fetched: [] };

    // Staff: each role's first sign-in shows the second factor's enrolment; then the factor is passed.
    const staffAccounts: { role: StaffPageRole; email: string; password: string }[] = [
      { role: "admin", email: DEMO_ADMIN_DEFAULTS.email, password: DEMO_ADMIN_DEFAULTS.password },
      ...DEMO_STAFF.map((s) => ({ role: s.role, email: s.email, password: s.password })),
    ];
    expect(staffAccounts.map((s) => s.role).sort()).toEqual([...STAFF_PAGE_ROLES].sort());
    let adminSecret = "";
    for (const account of staffAccounts) {
      const cookie = await signInOverHttp(base, account.email, account.password, nextIp());
      session(`${account.role} (enrolling the second factor)`, account.role, cookie, 0, "second-factor-pending");
      const full = await signInOverHttp(base, account.email, account.password, nextIp());
      const { secret } = await passAdminMfa(base, full);
      if (account.role === "admin") adminSecret = secret;
      session(account.role, account.role, full, account.role === "admin" ? LINKS_PER_ROW.full : LINKS_PER_ROW.sample);
    }
    // An enrolled admin's later sign-in: the second factor's verification.
    expect(adminSecret).not.toBe("");
    session("admin (verifying the second factor)", "admin", await signInOverHttp(base, DEMO_ADMIN_DEFAULTS.email, DEMO_ADMIN_DEFAULTS.password, nextIp()), 0, "second-factor-pending");

    // Every demo applicant, and a new one with nothing yet.
    const applicants: Session[] = [];
    for (const a of DEMO_APPLICANTS) {
      applicants.push(session(a.email, "applicant", await signInOverHttp(base, a.email, DEMO_APPLICANT_PASSWORD, nextIp()), LINKS_PER_ROW.full));
    }
    session("new applicant", "applicant", await signUpOverHttp(base, sink, "valid.applicant@example.com", nextIp()), LINKS_PER_ROW.full);

    // A saved application (Save and Finish Later) for the first demo applicant.
    const draft = new FormData();
    for (const [k, v] of Object.entries({ intent: "save", step: "2", loanType: "business", firstName: "Maria", businessName: "Delgado Home Care LLC", routingNumber: "122105278" })) {
      draft.append(k, v);
    }
    expect((await post(applicants[0]!.cookie, "/api/drafts", draft)).status).toBe(200);

    // The last demo applicant turns on two-factor authentication and signs in again: asked for a code.
    const last = DEMO_APPLICANTS.at(-1)!;
    const start = await post(applicants.at(-1)!.cookie, "/account/security", new URLSearchParams({ intent: "totp-start" }));
    const totpSecret = ((await start.json()) as { enrolment?: { secret: string } }).enrolment?.secret;
    expect(totpSecret, "totp-start").toBeTruthy();
    const enable = await post(applicants.at(-1)!.cookie, "/account/security", new URLSearchParams({ intent: "totp-enable", code: totpFor(totpSecret!).code }));
    expect(enable.status, "totp-enable").toBe(200);
    session(`${last.email} (asked for the second factor)`, "applicant", await signInOverHttp(base, last.email, DEMO_APPLICANT_PASSWORD, nextIp()), 0, "second-factor-pending");

    // An ACH batch with entries: each borrower with an active loan makes a payment, the admin batches them.
    const adminCookie = sessions.find((s) => s.role === "admin" && s.stage === "signed-in")!.cookie;
    let payments = 0;
    for (const applicant of applicants) {
      const dashboard = await (await fetch(`${base}/dashboard`, { headers: { cookie: applicant.cookie } })).text();
      for (const loanPath of linksIn(dashboard, "/dashboard/loans/:id")) {
        const data = await (await fetch(`${base}${loanPath}.data`, { headers: { cookie: applicant.cookie } })).text();
        // The page's data names the bank accounts on file among other ids: the one the server takes is the account.
        const ids = [...new Set(data.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g) ?? [])];
        for (const bankAccountId of ids) {
          const res = await post(applicant.cookie, loanPath, new URLSearchParams({ intent: "pay", choice: "installment", bankAccountId, authorize: "on" }));
          if (res.status === 200) {
            payments += 1;
            break;
          }
        }
      }
    }
    expect(payments, "payments made for the ACH batch").toBeGreaterThanOrEqual(2);
    const batch = await post(adminCookie, "/admin/ach", new URLSearchParams({ intent: "create-batch" }));
    expect(batch.status, await batch.clone().text()).toBe(200);

    dir = fs.mkdtempSync(path.join(os.tmpdir(), "vnu-pages-"));
  }, 240_000);
  afterAll(async () => {
    await stopStack({ sink, server });
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("lists every page of app/routes.ts: public, signed-in, or not walked with a reason", () => {
    const listed = new Set([
      "",
      "auth",
      "*",
      ...PUBLIC_PAGE_PATHS.map(routePathOf),
      ...SIGNED_IN_PAGES.map((p) => routePathOf(p.path)),
      ...Object.keys(PAGES_NOT_WALKED),
    ]);
    // Loan detail pages share one module; the public list names each.
    const unlisted = pageRoutePaths().filter((p) => !listed.has(p));
    expect(unlisted).toEqual([]);
  });

  it("finds no errors on any page, for visitors, each demo applicant and each staff role", { timeout: 240_000 }, async () => {
    const files = new Map<string, string>();
    let n = 0;
    const fetchPage = async (who: Session, pagePath: string, expected = 200) => {
      const res = await fetch(`${server.url}${pagePath}`, { headers: { cookie: who.cookie }, redirect: "manual" });
      expect(res.status, `${who.label} ${pagePath}`).toBe(expected);
      const html = await res.text();
      who.fetched.push(html);
      const file = path.join(dir, `${String(n++).padStart(4, "0")}.html`);
      fs.writeFileSync(file, html);
      files.set(file, `${who.label} ${pagePath}`);
      return html;
    };

    for (const p of [...PUBLIC_PAGE_PATHS, "/auth"]) await fetchPage(visitor, p);
    await fetchPage(visitor, "/no-such-page", 404);
    // The footer's licensing line is on the pages checked.
    expect(visitor.fetched[0]).toContain("NMLS ID");

    // Each row for each session of its roles and stage; a row with `:name` parts follows the links the
    // session's earlier pages hold. Each row must be visited by every role it names.
    const visitedBy = new Map<string, Set<PageRole>>();
    for (const who of sessions) {
      for (const row of SIGNED_IN_PAGES) {
        if (!row.roles.includes(who.role) || (row.stage ?? "signed-in") !== who.stage) continue;
        const targets = row.path.includes(":") ? [...new Set(who.fetched.flatMap((html) => linksIn(html, row.path)))].slice(0, who.follow) : [row.path];
        for (const target of targets) {
          const html = await fetchPage(who, target.replaceAll("&amp;", "&"));
          if (row.linksTo) expect(linksIn(html, row.linksTo).length, `${who.label} ${target} links to ${row.linksTo}`).toBeGreaterThan(0);
        }
        if (targets.length > 0) visitedBy.set(row.path, (visitedBy.get(row.path) ?? new Set()).add(who.role));
      }
    }
    const missing = SIGNED_IN_PAGES.flatMap((row) => row.roles.filter((r) => !visitedBy.get(row.path)?.has(r)).map((r) => `${r} ${row.path}`));
    expect(missing, "rows no session reached (no link to follow: the data lacks that state)").toEqual([]);

    // Every demo application was seen by its applicant and by the admin (every status, both sides).
    const demoApplications = DEMO_APPLICANTS.reduce((sum, a) => sum + a.applications.length, 0);
    const pages = [...files.values()];
    expect(pages.filter((p) => /^admin \/admin\/applications\//.test(p)).length).toBe(demoApplications);
    expect(pages.filter((p) => /@example\.com \/dashboard\/applications\/[^/]+$/.test(p)).length).toBe(demoApplications);

    const errors = await vnuErrors([...files.keys()]);
    const described = errors.map((m) => `${files.get((m.url ?? "").replace(/^file:/, "")) ?? m.url} (line ${m.lastLine}): ${m.message} [${m.extract ?? ""}]`);
    expect(described).toEqual([]);
  });
});
