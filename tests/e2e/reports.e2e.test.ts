import { beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "~/server/platform/db/client.server";
import { approvedLoans, loanApplications } from "~/server/platform/db/schema.server";
import { addDays, todayUtc } from "~/domain/dates";
import { servicingTermsFrom } from "~/domain/servicing-terms";
import { runDelinquencyJob } from "~/server/loans/delinquency-job.server";
import { applicationRow } from "../helpers/application-rows";
import { signUpOverHttp, toBrowserCookies } from "../helpers/applicants";
import { signInAdminWithMfa, signInOverHttp } from "../helpers/admins";
import { axeViolations, waitForHydration } from "./harness";
import { openWatchedPage } from "./helpers/pages";
import { e2eStackForFile } from "./helpers/stack";
import { seedApplicant } from "../helpers/seed";

/**
 * Pipeline Reports and Export CSV (issue 22) in a browser against the built server: an admin opens
 * /admin/reports, sees every section with its chart and table, axe-core finds nothing, a bad range
 * shows the message (400), and both exports download with their header row; an auditor can open the
 * page and export too; visitors and applicants are turned away. The Reg B list pages 25 at a time
 * (30 flagged applications written into the data folder before the server starts).
 */

const ADMIN = { email: "rhea.reports@example.com", password: "Rep0rts!Secret", name: "Rhea Reports", role: "admin" as const };
const AUDITOR = { email: "otto.auditor@example.com", password: "Aud1tor!Secret", name: "Otto Auditor", role: "auditor" as const };

const stack = e2eStackForFile({ staff: [ADMIN, AUDITOR], beforeStart: seedFlagged, env: { TRUST_PROXY: "true" } });
let adminCookie: string;
let auditorCookie: string;

const DAY = 86_400_000;
const FLAGGED = 30;

/** Open applications complete for 40 to 69 days: all on the Reg B list, the oldest first. */
async function seedFlagged(dataDir: string): Promise<void> {
  const database = await openDatabase({ dataDir });
  try {
    const applicant = "reports-regb-applicant";
    await seedApplicant(database.db, { id: applicant, name: "Flagged Applicant", email: "flagged.applicant@example.com" });
    await database.db
      .insert(loanApplications)
      .values(Array.from({ length: FLAGGED }, (_, i) => applicationRow(applicant, { firstName: `Flagged${String(i).padStart(2, "0")}`, lastName: "Applicant", status: "pending", submittedAt: new Date(Date.now() - (69 - i) * DAY) })));
    await seedLoanBook(database.db);
  } finally {
    await database.close();
  }
}

/**
 * A loan book for Delinquency and Roll Rates: loans current, 45 and 100 days behind, and the book
 * measured as the servicing job measures it (the last two month ends, then yesterday's close).
 */
const BOOK_DAYS_LATE = [-10, -5, 45, 100];
async function seedLoanBook(db: Awaited<ReturnType<typeof openDatabase>>["db"]): Promise<void> {
  const borrower = "reports-book-borrower";
  await seedApplicant(db, { id: borrower, name: "Bea Borrower", email: "bea.borrower@example.com", profile: true });
  const today = todayUtc();
  for (const [i, daysLate] of BOOK_DAYS_LATE.entries()) {
    const [app] = await db.insert(loanApplications).values(applicationRow(borrower, { firstName: "Bea", lastName: `Borrower${i}`, status: "approved", submittedAt: new Date(Date.now() - 205 * DAY), reviewedAt: new Date(Date.now() - 201 * DAY) })).returning({ id: loanApplications.id });
    await db.insert(approvedLoans).values({
      userId: borrower,
      applicationId: app!.id,
      obligorName: "Bea Borrower",
      status: "active",
      balanceCents: 500_000 * (i + 1),
      termMonths: 24,
      amountCents: 2_000_000,
      noteRateMilli: 9500,
      paymentCents: 91_800,
      startDate: addDays(today, -200),
      nextDueDate: addDays(today, -daysLate),
      servicingTerms: servicingTermsFrom({ graceDays: 15, flatCents: 2500, percentMilli: 5000, capCents: 10_000 }),
      servicedOn: today,
    });
  }
  const monthStart = (back: number) => {
    const d = new Date(`${today.slice(0, 7)}-01T00:00:00Z`);
    d.setUTCMonth(d.getUTCMonth() - back);
    return d.toISOString().slice(0, 10);
  };
  await runDelinquencyJob(db, monthStart(1));
  await runDelinquencyJob(db, monthStart(0));
  await runDelinquencyJob(db, today);
}

beforeAll(async () => {
  adminCookie = (await signInAdminWithMfa(stack.server.url, ADMIN.email, ADMIN.password, "198.18.40.1")).cookie;
  auditorCookie = (await signInAdminWithMfa(stack.server.url, AUDITOR.email, AUDITOR.password, "198.18.40.2")).cookie;
}, 120_000);

const get = (path: string, cookie?: string) => fetch(`${stack.server.url}${path}`, { headers: cookie ? { cookie } : {}, redirect: "manual" });

describe("/admin/reports", () => {
  it("shows an admin every section, drawn and tabled, with no axe violations; Apply filters by range", async () => {
    const { context, page, errors } = await openWatchedPage(stack.browser, { cookies: toBrowserCookies(adminCookie, stack.server.url) });
    try {
      const res = await page.goto(`${stack.server.url}/admin/reports`);
      expect(res?.status()).toBe(200);
      await waitForHydration(page);
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Pipeline Reports");
      for (const name of ["Applications by Status", "Ageing of Undecided Applications", "Median Time to Decision", "Decisions per Officer", "Denial Reasons", "Approval Rate by Loan Type", "Reg B Clock"]) {
        expect(await page.getByRole("heading", { level: 2, name }).count(), name).toBe(1);
      }
      // Five application charts and the loan book's Delinquency.
      expect(await page.locator('svg[role="img"]').count()).toBe(6);
      expect(await page.locator("table caption").count()).toBeGreaterThanOrEqual(5);
      expect(await page.getByTestId("table-status").locator('th[scope="row"]').allTextContents()).toEqual(["Pending", "Under Review", "Approved", "Denied", "Closed as Incomplete", "Withdrawn"]);
      // Each export link names what it exports (two links both named "Export CSV" read as one).
      expect(await page.getByRole("link", { name: /^Export .* CSV$/ }).allTextContents()).toEqual(["Export Applications CSV", "Export Audit Log CSV"]);
      expect(await page.getByRole("link", { name: "Export Applications CSV", exact: true }).getAttribute("href")).toMatch(/^\/admin\/exports\/applications\?/);
      expect(await page.getByRole("link", { name: "Export Audit Log CSV", exact: true }).getAttribute("href")).toMatch(/^\/admin\/exports\/audit\?/);
      expect(await axeViolations(page)).toEqual([]);

      await page.getByLabel("From", { exact: true }).fill("2026-01-01");
      await page.getByLabel("To", { exact: true }).fill("2026-03-31");
      await page.getByRole("button", { name: "Apply" }).click();
      await page.waitForURL((url) => url.searchParams.get("from") === "2026-01-01" && url.searchParams.get("to") === "2026-03-31");
      await expect.poll(() => page.getByTestId("export-applications").getAttribute("href")).toBe("/admin/exports/applications?from=2026-01-01&to=2026-03-31");

      const bad = await page.goto(`${stack.server.url}/admin/reports?from=2026-03-31&to=2026-01-01`);
      expect(bad?.status()).toBe(400);
      await waitForHydration(page);
      expect(await page.getByTestId("range-error").textContent()).toBe("To must be on or after From.");
      expect(await page.getByLabel("To", { exact: true }).getAttribute("aria-invalid")).toBe("true");
      expect(await axeViolations(page)).toEqual([]);
      expect(errors.filter((e) => !/status of 400/.test(e))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("shows the loan book: Delinquency by days past due and Roll Rates; a range opens the loans list filtered by it, with counts; axe clean", async () => {
    const { context, page, errors } = await openWatchedPage(stack.browser, { cookies: toBrowserCookies(adminCookie, stack.server.url) });
    try {
      await page.goto(`${stack.server.url}/admin/reports`);
      await waitForHydration(page);
      expect(await page.getByRole("heading", { level: 2, name: "Delinquency" }).count()).toBe(1);
      expect(await page.getByRole("heading", { level: 2, name: "Roll Rates" }).count()).toBe(1);
      const rows = page.getByTestId("table-delinquency").getByTestId("delinquency-row");
      expect(await rows.locator('th[scope="row"]').allTextContents()).toEqual(["Current", "1–29", "30–59", "60–89", "90–119", "120+"]);
      // Two current, one 30–59 (45 days on yesterday's close), one 90–119 (100 days).
      expect(await rows.getByTestId("delinquency-loans").allTextContents()).toEqual(["2", "0", "1", "0", "1", "0"]);
      expect(await page.getByTestId("table-delinquency").locator("tr").last().textContent()).toContain("$50,000.00");
      expect(await page.getByTestId("roll-rate-row").count()).toBe(1);
      expect(await axeViolations(page)).toEqual([]);

      await page.getByTestId("table-delinquency").getByRole("link", { name: "30–59" }).click();
      await page.waitForURL((url) => url.pathname === "/admin/loans" && url.searchParams.get("bucket") === "30-59");
      await expect.poll(() => page.getByTestId("loan-row").count()).toBe(1);
      expect(await page.getByTestId("loan-bucket-30-59").getAttribute("aria-current")).toBe("page");
      expect(await page.getByTestId("loan-bucket-30-59").textContent()).toBe("30–59 days (1)");
      expect(await page.getByTestId("loan-bucket-current").textContent()).toBe("Current (2)");
      expect(await page.getByTestId("loan-row").getByTestId("loan-bucket").textContent()).toBe("30–59");
      expect(await axeViolations(page)).toEqual([]);

      const unknown = await page.goto(`${stack.server.url}/admin/loans?bucket=31-60`);
      expect(unknown?.status()).toBe(200);
      await waitForHydration(page);
      expect(await page.getByTestId("loan-bucket-notice").textContent()).toBe('There is no days-past-due range "31-60": showing every range.');
      expect(await page.getByTestId("loan-row").count()).toBe(BOOK_DAYS_LATE.length);
      expect(await axeViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("fits a 390 px phone: the page never scrolls sideways, each wide table scrolls inside its own box", async () => {
    const { context, page, errors } = await openWatchedPage(stack.browser, { width: 390, cookies: toBrowserCookies(adminCookie, stack.server.url) });
    try {
      await page.goto(`${stack.server.url}/admin/reports`);
      await waitForHydration(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      // Every table is either as wide as its box or inside a box that scrolls sideways: no column is cut off.
      const tables = await page.locator("table").evaluateAll((list) =>
        list.map((table) => {
          let box: HTMLElement | null = table.parentElement;
          while (box && getComputedStyle(box).overflowX !== "auto" && getComputedStyle(box).overflowX !== "scroll") box = box.parentElement;
          return { fits: table.scrollWidth <= (table.parentElement?.clientWidth ?? 0) + 1, scrolls: box !== null && box.scrollWidth >= table.scrollWidth };
        }),
      );
      expect(tables.length).toBeGreaterThanOrEqual(5);
      for (const table of tables) expect(table.fits || table.scrolls, JSON.stringify(table)).toBe(true);
      expect(await axeViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("pages the Reg B list 25 at a time (Next, Previous, Last, First), keeping the range and the count", async () => {
    const { context, page, errors } = await openWatchedPage(stack.browser, { cookies: toBrowserCookies(adminCookie, stack.server.url) });
    const countText = `${FLAGGED} applications have been complete for 25 days or more without a decision (all open applications, whatever the date range). The notice of action is due within 30 days of a complete application.`;
    const names = () => page.getByTestId("reg-b-row").locator("th a").allTextContents();
    const pager = () => page.getByRole("navigation", { name: "Reg B Clock pages" });
    try {
      const res = await page.goto(`${stack.server.url}/admin/reports?from=2026-01-01&to=2026-03-31`);
      expect(res?.status()).toBe(200);
      await waitForHydration(page);
      expect(await page.getByTestId("reg-b-count").textContent()).toBe(countText);
      const first = await names();
      expect(first).toEqual(Array.from({ length: 25 }, (_, i) => `Flagged${String(i).padStart(2, "0")} Applicant`));
      expect(await pager().getByText("Page 1 of 2").count()).toBe(1);
      expect(await axeViolations(page)).toEqual([]);

      await pager().getByRole("link", { name: "Next page" }).click();
      await page.waitForURL((url) => url.searchParams.has("regbAfter"));
      const url = new URL(page.url());
      expect([url.searchParams.get("from"), url.searchParams.get("to")]).toEqual(["2026-01-01", "2026-03-31"]);
      await expect.poll(names).toEqual(Array.from({ length: 5 }, (_, i) => `Flagged${25 + i} Applicant`));
      expect(await page.getByTestId("reg-b-count").textContent()).toBe(countText);
      expect(await page.getByTestId("table-status").count()).toBe(1);
      expect(await pager().getByText("Page 2 of 2").count()).toBe(1);
      // The range form still shows the range, and the exports still export it.
      expect(await page.getByLabel("From", { exact: true }).inputValue()).toBe("2026-01-01");
      expect(await page.getByTestId("export-applications").getAttribute("href")).toBe("/admin/exports/applications?from=2026-01-01&to=2026-03-31");

      await pager().getByRole("link", { name: "Previous page" }).click();
      await page.waitForURL((u) => u.searchParams.has("regbBefore"));
      await expect.poll(names).toEqual(first);

      await pager().getByRole("link", { name: "Last page" }).click();
      await page.waitForURL((u) => u.searchParams.get("regbLast") === "1" && u.searchParams.get("from") === "2026-01-01");
      await expect.poll(names).toEqual(Array.from({ length: 5 }, (_, i) => `Flagged${25 + i} Applicant`));

      await pager().getByRole("link", { name: "First page" }).click();
      await page.waitForURL((u) => !u.searchParams.has("regbLast") && u.searchParams.get("to") === "2026-03-31");
      await expect.poll(names).toEqual(first);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("exports both CSVs to an admin, streamed, with the header row", async () => {
    const apps = await get("/admin/exports/applications?from=2026-01-01&to=2026-12-31", adminCookie);
    expect(apps.status).toBe(200);
    expect(apps.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(apps.headers.get("content-disposition")).toBe('attachment; filename="applications-2026-01-01-to-2026-12-31.csv"');
    expect(apps.headers.get("cache-control")).toContain("no-store");
    expect((await apps.text()).split("\r\n")[0]).toBe(
      "Application ID,Submitted,Status,Loan Type,Requested Amount,First Name,Last Name,Email,Phone,State,SSN,Bank Account,Routing Number,Assigned To,Reviewed At,Decision Reasons",
    );
    const today = new Date().toISOString().slice(0, 10);
    const audit = await get(`/admin/exports/audit?from=${today}&to=${today}`, adminCookie);
    expect(audit.status).toBe(200);
    const lines = (await audit.text()).split("\r\n");
    expect(lines[0]).toBe("ID,Time,Actor Name,Actor Email,Action,Table,Record ID,IP Address,Details,Chain Seq,Row Hash");
    // The export audited itself before streaming, so its own row is in it.
    expect(lines.some((l) => l.includes(",audit.export,"))).toBe(true);
    const bad = await get("/admin/exports/audit?from=yesterday&to=2026-01-01", adminCookie);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ message: "From must be a date (yyyy-mm-dd)." });
  });

  it("lets an auditor open the reports and export (200)", async () => {
    expect((await get("/admin/reports", auditorCookie)).status).toBe(200);
    const apps = await get("/admin/exports/applications", auditorCookie);
    expect(apps.status).toBe(200);
    await apps.body?.cancel();
    const audit = await get("/admin/exports/audit", auditorCookie);
    expect(audit.status).toBe(200);
    await audit.body?.cancel();
  });

  it("turns visitors to sign-in, applicants home and an unverified admin to the second factor", async () => {
    for (const path of ["/admin/reports", "/admin/exports/applications", "/admin/exports/audit"]) {
      const anonymous = await get(path);
      expect(anonymous.status, path).toBe(302);
      expect(anonymous.headers.get("location"), path).toMatch(/^\/auth\?redirectTo=/);
    }
    const applicant = await signUpOverHttp(stack.server.url, stack.sink, "reports.applicant@example.com", "198.18.40.9", "Reports Applicant");
    for (const path of ["/admin/reports", "/admin/exports/applications", "/admin/exports/audit"]) {
      const res = await get(path, applicant);
      expect(res.status, path).toBe(302);
      expect(res.headers.get("location"), path).toBe("/");
    }
    const unverified = await signInOverHttp(stack.server.url, ADMIN.email, ADMIN.password, "198.18.40.3");
    const res = await get("/admin/exports/audit", unverified);
    expect(res.headers.get("location")).toMatch(/^\/admin\/mfa\?redirectTo=/);
  });
});
