import { formatUsd } from "~/domain/formats";
import type { BrowserContext, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { formatMoney } from "~/domain/money";
import { todayUtc } from "~/domain/dates";
import { disclosure } from "~/domain/truth-in-lending";
import { signInAdminWithMfa } from "../helpers/admins";
import { submitApplication } from "../helpers/applications";
import { axeViolations } from "./harness";
import { e2eStackForFile } from "./helpers/stack";

/**
 * /admin in a real browser against the built server (docs/requirements.md §3, §5, §9): an applicant submits two
 * applications over HTTP; the admin (signed in and past the second factor over HTTP, the cookie copied
 * into the browser) sees Pending (2), approves one through the dialog (payment computed live), denies
 * the other with a reason, watches the tabs move (also live on a second open page), adds a note, runs
 * 'Encrypt Existing Bank Data', and axe finds nothing on the page or in the dialogs.
 */

const ADMIN = { email: "review.admin@example.com", password: "Rev1ew!Passw0rd" };
const APPLICANT_EMAIL = "applicant.review@example.com";

const stack = e2eStackForFile({ firstIp: 40, admin: ADMIN });
let adminCookie: string;
let applicantCookie: string;
let firstId: string;
let secondId: string;

const submit = (cookie: string, fields: Record<string, string> = {}) => submitApplication(stack.server.url, cookie, { fields, ip: stack.nextIp() });

beforeAll(async () => {

  applicantCookie = await stack.signUp(APPLICANT_EMAIL);
  firstId = await submit(applicantCookie);
  secondId = await submit(applicantCookie, { loanAmount: "20,000", desiredInterestRate: "12", loanDuration: "36", loanPurpose: "Replacing the roof before the winter" });

  adminCookie = (await signInAdminWithMfa(stack.server.url, ADMIN.email, ADMIN.password, stack.nextIp())).cookie;
});

/** A page signed in as the admin; a refused action (409/400) is logged by the browser as a failed resource, which is expected. */
const newPage = (width = 1280) =>
  stack.open(adminCookie, { width, expectedConsoleErrors: /status of 4\d\d/ });

/** Opens /admin and waits until the page is hydrated and its live stream is connected. */
async function openAdmin(page: Page, search = "") {
  const stream = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/events" && r.status() === 200);
  const res = await page.goto(`${stack.server.url}/admin${search}`);
  expect(res?.status()).toBe(200);
  await stream;
}

const tab = (page: Page, label: RegExp) => page.getByRole("navigation", { name: "Application status" }).getByRole("link", { name: label });
const card = (page: Page, id: string) => page.locator(`[data-testid="application-card"][data-application-id="${id}"]`);
const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });

async function tabLabels(page: Page): Promise<string[]> {
  // By selector, not role: while a dialog is open the page behind it is hidden from the accessibility tree.
  return page.locator('nav[aria-label="Application status"] a').allTextContents();
}

describe("the admin review screen", () => {
  let watcher: { context: BrowserContext; page: Page };

  it("shows the tools, Pending (2) with both applications (no SSN, no bank numbers), and is axe-clean", async () => {
    const { context, page, errors } = await newPage();
    await openAdmin(page);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Admin Dashboard");
    expect(await tabLabels(page)).toEqual(["Pending (2)", "Under Review (0)", "Approved (0)", "Denied (0)", "Awaiting Confirmation (0)"]);
    expect(await tab(page, /^Pending/).getAttribute("aria-current")).toBe("page");

    for (const [name, href] of [
      ["Client Information", "/admin/clients"],
      ["Security Settings", "/admin/security"],
      ["Activity Monitoring", "/admin/monitoring"],
      ["Document Viewer", "/admin/documents"],
    ]) {
      expect(await page.getByRole("region", { name: "Admin tools" }).getByRole("link", { name: new RegExp(`^${name}`) }).getAttribute("href")).toBe(href);
    }
    await page.getByRole("heading", { name: "Secure Data Utilities" }).waitFor();
    await page.getByRole("button", { name: "Encrypt Existing Bank Data" }).waitFor();

    // Newest first.
    const ids = await page.locator('[data-testid="application-card"]').evaluateAll((els) => els.map((el) => el.getAttribute("data-application-id")));
    expect(ids).toEqual([secondId, firstId]);
    const text = (await card(page, firstId).textContent()) ?? "";
    for (const expected of ["Bench Applicant", APPLICANT_EMAIL, "Pending", "Personal Loan", "$50,000", "Consolidating two credit cards into one payment", "$102,000", "720", "Full-time", "(302) 555-0199"]) {
      expect(text, expected).toContain(expected);
    }
    expect(text).not.toContain("Personal Loans");
    const html = await page.content();
    for (const secret of ["123-45-6789", "123456789", "000123456789", "021000021", "enc:v"]) expect(html).not.toContain(secret);
    expect(await card(page, firstId).getByRole("button", { name: /^Approve/ }).count()).toBe(1);
    expect(await card(page, firstId).getByRole("button", { name: /^Deny/ }).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("fits a 320 px wide screen without sideways scrolling, also with the approve dialog open", async () => {
    const { context, page } = await newPage(320);
    await openAdmin(page);
    await card(page, firstId).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await card(page, firstId).getByRole("button", { name: /^Approve/ }).click();
    const dialog = page.getByRole("dialog", { name: "Approve Application" });
    await dialog.waitFor();
    const box = await dialog.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(320);
    // Escape closes it and gives focus back to the button that opened it; nothing was decided.
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    // Focus goes back in the dialog's closing effect, a moment after it leaves the page.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-action"))).toBe("approve");
    expect(await tabLabels(page)).toEqual(["Pending (2)", "Under Review (0)", "Approved (0)", "Denied (0)", "Awaiting Confirmation (0)"]);
    await context.close();
  });

  it("approves one through the dialog: terms pre-filled, the payment computed live, a bad rate refused, then 'Application approved and notification sent!'", async () => {
    // A second admin page stays open to see the change arrive live.
    watcher = await newPage();
    await openAdmin(watcher.page);

    const { context, page, errors } = await newPage();
    await openAdmin(page);
    const approve = card(page, firstId).getByRole("button", { name: /^Approve/ });
    await approve.click();
    const dialog = page.getByRole("dialog", { name: "Approve Application" });
    await dialog.waitFor();
    const amount = dialog.getByLabel("Approved Amount ($)");
    const rate = dialog.getByLabel("Interest Rate (%)");
    const term = dialog.getByLabel("Term (months)");
    expect([await amount.inputValue(), await rate.inputValue(), await term.inputValue()]).toEqual(["50000", "8.5", "60"]);
    const payment = dialog.getByTestId("approve-monthly-payment");
    // The offer's payment is the level payment of an agreement signed today (interest by the day), near
    // the calculator's $1,025.83 estimate at the rate ÷ 12.
    const signedToday = (amountCents: number) => formatMoney(disclosure({ amountCents, noteRateMilli: 8_500, termMonths: 60, originationFeeMilli: 0, signedOn: todayUtc() }).paymentCents);
    expect(await payment.textContent()).toBe(signedToday(5_000_000));
    expect(await payment.textContent()).toMatch(/^\$1,025\.\d\d$/);
    expect(await axeViolations(page)).toEqual([]);

    await amount.fill("40000");
    await expect.poll(() => payment.textContent()).toBe(signedToday(4_000_000));
    await rate.fill("40");
    expect(await payment.textContent()).toBe("—");
    await dialog.getByRole("button", { name: "Confirm Approval" }).click();
    await dialog.getByText("Interest rate must be between 5.99% and 35.99%").waitFor();
    expect(await rate.getAttribute("aria-invalid")).toBe("true");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("interestRate");
    expect(await tabLabels(page)).toEqual(["Pending (2)", "Under Review (0)", "Approved (0)", "Denied (0)", "Awaiting Confirmation (0)"]);

    await rate.fill("9.25");
    // Less money than requested is a Counteroffer: it needs a reason.
    const counteroffer = dialog.getByTestId("counteroffer-notice");
    await counteroffer.waitFor();
    await dialog.getByRole("button", { name: "Confirm Approval" }).click();
    await counteroffer.getByText(/choose at least one reason for the counteroffer/).waitFor();
    await counteroffer.getByRole("checkbox", { name: "Insufficient income" }).check();
    await dialog.getByRole("button", { name: "Confirm Approval" }).click();
    await toast(page, "Application approved and notification sent!").waitFor();
    await dialog.waitFor({ state: "detached" });
    await expect.poll(() => tabLabels(page)).toEqual(["Pending (1)", "Under Review (0)", "Approved (1)", "Denied (0)", "Awaiting Confirmation (0)"]);
    expect(await card(page, firstId).count()).toBe(0);
    // The card is gone: focus went to the list's heading, not to the document body.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("applications-heading");

    // Live: the other page updated without a reload.
    await expect.poll(() => tabLabels(watcher.page), { timeout: 10_000 }).toEqual(["Pending (1)", "Under Review (0)", "Approved (1)", "Denied (0)", "Awaiting Confirmation (0)"]);
    expect(await card(watcher.page, firstId).count()).toBe(0);

    // The applicant's e-mail went out through the outbox, announcing a counteroffer, not an approval.
    await expect.poll(() => stack.sink.messages.some((m) => m.to.includes(APPLICANT_EMAIL) && /^Counteroffer on your/.test(m.subject)), { timeout: 15_000 }).toBe(true);
    expect(stack.sink.messages.some((m) => m.to.includes(APPLICANT_EMAIL) && /approved/i.test(m.subject))).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("denies the other with a reason ('Application denied'); the tabs read Approved (1) / Denied (1)", async () => {
    const { context, page, errors } = await newPage();
    await openAdmin(page);
    await card(page, secondId).getByRole("button", { name: /^Deny/ }).click();
    const dialog = page.getByRole("dialog", { name: "Deny Application" });
    await dialog.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Confirm Denial" }).click();
    await dialog.getByText("Choose at least one reason for the denial").waitFor();
    await dialog.getByRole("checkbox", { name: "Credit history" }).check();
    await dialog.getByLabel("Other reason (optional)").fill("Recent missed payments");
    // The reasons rest on a consumer report: its agency is required, checked in the browser first.
    await dialog.getByRole("radio", { name: /A consumer report/ }).check();
    await dialog.getByRole("button", { name: "Confirm Denial" }).click();
    await dialog.getByText("Enter the consumer reporting agency's name (at most 100 characters)").waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("agencyName");
    await dialog.getByLabel("Agency name").fill("Equifax Information Services LLC");
    await dialog.getByLabel("Agency address").fill("P.O. Box 740241, Atlanta, GA 30374");
    await dialog.getByLabel("Agency telephone number").fill("800-685-1111");
    await dialog.getByRole("checkbox", { name: "A credit score was used in the decision" }).check();
    await dialog.getByLabel("Credit score", { exact: true }).fill("580");
    await dialog.getByLabel("Lowest possible score").fill("300");
    await dialog.getByLabel("Highest possible score").fill("850");
    await dialog.getByLabel("Date of the score").fill("2026-11-20");
    await dialog.getByLabel("Key factor 1").fill("Serious delinquency");
    await dialog.getByLabel("Key factor 2").fill("Too many accounts with balances");
    await dialog.getByRole("checkbox", { name: /Number of recent inquiries/ }).check();
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Confirm Denial" }).click();
    await toast(page, "Application denied").waitFor();
    await dialog.waitFor({ state: "detached" });
    await expect.poll(() => tabLabels(page)).toEqual(["Pending (0)", "Under Review (0)", "Approved (1)", "Denied (1)", "Awaiting Confirmation (0)"]);
    await page.getByText("No pending applications").waitFor();
    await expect.poll(() => tabLabels(watcher.page), { timeout: 10_000 }).toEqual(["Pending (0)", "Under Review (0)", "Approved (1)", "Denied (1)", "Awaiting Confirmation (0)"]);
    await watcher.context.close();

    await tab(page, /^Denied/).click();
    await page.waitForURL(/status=denied/);
    const denied = card(page, secondId);
    await denied.waitFor();
    const text = (await denied.textContent()) ?? "";
    expect(text).toContain("Denied");
    expect(text).toContain("Credit history");
    expect(text).toContain("Recent missed payments");
    expect(await denied.getByRole("button", { name: /^(Approve|Deny)/ }).count()).toBe(0);

    // The notice of action taken carries the FCRA disclosures of model form C-3 with the bureau and score.
    await expect.poll(() => stack.sink.messages.some((m) => m.to.includes(APPLICANT_EMAIL) && /Decision on your/.test(m.subject)), { timeout: 15_000 }).toBe(true);
    const notice = stack.sink.messages.find((m) => m.to.includes(APPLICANT_EMAIL) && /Decision on your/.test(m.subject))!;
    const noticeText = notice.text.replace(/\s+/g, " ");
    expect(noticeText).toContain("Our credit decision was based in whole or in part on information obtained in a report from the consumer reporting agency listed below.");
    expect(noticeText).toContain("We also obtained your credit score from this consumer reporting agency and used it in making our credit decision.");
    for (const shown of ["Equifax Information Services LLC", "(800) 685-1111", "580", "a low of 300 to a high of 850", "Nov 20, 2026", "Serious delinquency", "Number of recent inquiries on your consumer report", "Recent missed payments"]) {
      expect(noticeText).toContain(shown);
    }

    // Staff see the source on the application's page.
    const staffView = await stack.open(adminCookie);
    await staffView.page.goto(`${stack.server.url}/admin/applications/${secondId}`);
    expect(await staffView.page.getByTestId("denial-source").textContent()).toContain("Consumer report: Equifax Information Services LLC");
    await staffView.context.close();

    // The applicant's page says what the notice says, not only "Denied".
    const applicantPage = await stack.open(applicantCookie, { width: 390 });
    await applicantPage.page.goto(`${stack.server.url}/dashboard/applications/${secondId}`);
    const denial = applicantPage.page.getByTestId("denial-notice");
    await denial.waitFor();
    expect(await denial.getByTestId("denial-reasons").getByRole("listitem").allTextContents()).toEqual(["Credit history", "Recent missed payments"]);
    const source = (await denial.getByTestId("denial-source").textContent()) ?? "";
    expect(source).toContain("The reporting agency played no part in our decision");
    expect(source).toContain("Equifax Information Services LLC");
    expect(source).toContain("Serious delinquency");
    expect(await axeViolations(applicantPage.page)).toEqual([]);
    expect(applicantPage.errors).toEqual([]);
    await applicantPage.context.close();

    await tab(page, /^Approved/).click();
    await page.waitForURL(/status=approved/);
    const approved = card(page, firstId);
    await approved.waitFor();
    expect((await approved.textContent()) ?? "").toContain(`${formatUsd(40_000)} at 9.25% for 60 months`);
    expect(await approved.getByRole("button", { name: /^(Approve|Deny)/ }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("a second decision on a decided application is refused with 409 (already decided)", async () => {
    const res = await fetch(`${stack.server.url}/admin`, {
      method: "POST",
      body: new URLSearchParams({
        intent: "approve",
        applicationId: secondId,
        approvedAmount: "1000",
        interestRate: "10",
        termMonths: "12",
        originationFeePercent: "1",
        counterofferReasons: "Credit history",
      }),
      headers: { cookie: adminCookie, origin: stack.server.url },
    });
    expect(res.status).toBe(409);
    const bad = await fetch(`${stack.server.url}/admin`, {
      method: "POST",
      body: new URLSearchParams({ intent: "approve", applicationId: "nope", approvedAmount: "abc" }),
      headers: { cookie: adminCookie, origin: stack.server.url },
    });
    expect(bad.status).toBe(400);
  });

  it("adds a note to a decided application", async () => {
    const { context, page, errors } = await newPage();
    await openAdmin(page, "?status=approved");
    const approved = card(page, firstId);
    await approved.getByLabel(/^Add a note/).fill("Called the applicant to confirm the terms.");
    await approved.getByRole("button", { name: /^Save Note/ }).click();
    await toast(page, "Note added").waitFor();
    await expect.poll(async () => (await approved.getByTestId("application-notes").textContent()) ?? "").toMatch(/UTC\] Administrator: Called the applicant to confirm the terms\.$/);
    expect(await approved.getByLabel(/^Add a note/).inputValue()).toBe("");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("runs 'Encrypt Existing Bank Data': everything is already encrypted", async () => {
    const { context, page, errors } = await newPage();
    await openAdmin(page);
    await page.getByRole("button", { name: "Encrypt Existing Bank Data" }).click();
    // Two applications: two SSNs and two bank accounts of two numbers each, and this admin's TOTP secret.
    await toast(page, "Encryption migration complete: encrypted 0, skipped 7").waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("a decision made elsewhere while the dialog is open: 'Failed to update application' (already decided), and the list catches up", async () => {
    const thirdId = await submit(applicantCookie, { loanAmount: "15,000" });
    const { context, page, errors } = await newPage();
    await openAdmin(page);
    await card(page, thirdId).getByRole("button", { name: /^Approve/ }).click();
    const dialog = page.getByRole("dialog", { name: "Approve Application" });
    await dialog.waitFor();
    // Another admin denies it meanwhile.
    const res = await fetch(`${stack.server.url}/admin`, {
      method: "POST",
      body: new URLSearchParams({ intent: "deny", applicationId: thirdId, reasons: "Credit history" }),
      headers: { cookie: adminCookie, origin: stack.server.url },
    });
    expect(res.status).toBe(200);
    await dialog.getByRole("button", { name: "Confirm Approval" }).click();
    const failed = toast(page, "Failed to update application");
    await failed.waitFor();
    expect(await failed.textContent()).toContain("This application has already been decided.");
    await dialog.waitFor({ state: "detached" });
    await expect.poll(() => tabLabels(page)).toEqual(["Pending (0)", "Under Review (0)", "Approved (1)", "Denied (2)", "Awaiting Confirmation (0)"]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
