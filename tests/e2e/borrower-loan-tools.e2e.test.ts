import fs from "node:fs";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { submitApplication } from "../helpers/applications";
import { makePdf } from "../helpers/files";
import { axeViolations, waitForHydration } from "./harness";
import { markFundedAsSettled, signedLoanOverHttp } from "./helpers/signed-loan";
import { e2eStackForFile } from "./helpers/stack";
import { expectToast } from "./helpers/toasts";

/**
 * What a signed borrower can do from the dashboard and the loan page, in a real browser at 1280x800 and
 * 390x844: the dashboard's Next step says the agreement is signed (never that a specialist will call to
 * sign); the signed agreement downloads as a PDF; a message written on the loan page lands in the
 * application's thread staff read; Change Bank Account refuses a bad routing number beside the field
 * and keeps what was typed, then changes the account; on a phone the tables scroll inside their own
 * box and the page itself never scrolls sideways; a long document name wraps and is the borrower's own.
 */

const stack = e2eStackForFile({ firstIp: 160, admin: { email: "tools.reviewer@example.com", password: "Rev1ewer!Passw0rd" } });
const VIEWPORTS = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
] as const;

let jane = "";
let adminCookie = "";
let loan = { applicationId: "", loanId: "" };

beforeAll(async () => {
  jane = await stack.signUp("jane.tools@example.com", "Jane Doe-Smith");
  adminCookie = await stack.adminSession();
  loan = await signedLoanOverHttp(stack.server.url, jane, adminCookie, { ip: stack.nextIp() });
  // Funded: its credit settled (these tests are about the funded loan's tools).
  await stack.restart((db) => markFundedAsSettled(db, loan.loanId));
});

async function openAs(cookie: string, viewport: { width: number; height: number }, path: string) {
  const watched = await stack.open(cookie, { width: viewport.width });
  await watched.page.setViewportSize(viewport);
  await watched.page.goto(`${stack.server.url}${path}`);
  await waitForHydration(watched.page);
  return watched;
}

/** Whether the page itself scrolls sideways (something is cut off at the right edge). */
const pageOverflows = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

describe("a signed borrower's dashboard and loan page", () => {
  for (const viewport of VIEWPORTS) {
    it(`the dashboard's Next step is true for a signed loan (${viewport.name})`, async () => {
      const { context, page, errors } = await openAs(jane, viewport, "/dashboard");
      const loanStep = (await page.getByTestId("loan-next-step").first().textContent()) ?? "";
      expect(loanStep).toContain("Next step:");
      expect(loanStep).toContain("Your loan agreement is signed");
      expect(loanStep).not.toContain("specialist will contact you");
      const appStep = (await page.locator(`[data-application-id="${loan.applicationId}"]`).getByTestId("application-next-step").textContent()) ?? "";
      expect(appStep).toContain("Your loan agreement is signed");
      expect(await pageOverflows(page)).toBe(false);
      expect(await axeViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it("the signed agreement downloads as a PDF from the loan page", async () => {
    const { context, page, errors } = await openAs(jane, VIEWPORTS[0], `/dashboard/loans/${loan.loanId}`);
    const link = page.getByRole("link", { name: "Download Signed Agreement" });
    expect(await link.getAttribute("href")).toBe(`/dashboard/applications/${loan.applicationId}/agreement`);
    const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    expect(fs.readFileSync(await download.path()).subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("a message written on the loan page is in the application's thread that staff read", async () => {
    const text = `Please revoke my pending debit ${Date.now()}`;
    const { context, page, errors } = await openAs(jane, VIEWPORTS[1], `/dashboard/loans/${loan.loanId}`);
    const section = page.getByRole("region", { name: "Message Us" });
    await section.getByLabel("Message").fill(text);
    await expectToast(page, "Message sent", () => section.getByRole("button", { name: "Send" }).click());
    await section.getByText(text).waitFor();
    expect(await pageOverflows(page)).toBe(false);
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
    const staffPage = await (await fetch(`${stack.server.url}/admin/applications/${loan.applicationId}`, { headers: { cookie: adminCookie } })).text();
    expect(staffPage).toContain(text);
  });

  for (const viewport of VIEWPORTS) {
    it(`Change Bank Account refuses a bad routing number and keeps the input, then changes the account (${viewport.name})`, async () => {
      const { context, page, errors } = await openAs(jane, viewport, `/dashboard/loans/${loan.loanId}`);
      await page.getByRole("button", { name: "Change Bank Account" }).click();
      const dialog = page.getByTestId("change-account-dialog");
      await dialog.waitFor();
      const last4 = viewport.name === "phone" ? "7766" : "5544";
      await dialog.getByLabel("Account Holder Name").fill("Jane Doe-Smith");
      await dialog.getByLabel("Bank Name").fill("Harbor Savings Bank");
      await dialog.getByLabel("Routing Number").fill("011000016");
      await dialog.getByLabel("Account Number").fill(`000123${last4}`);
      await dialog.getByLabel("Account Type").selectOption("savings");
      await dialog.getByRole("button", { name: "Save Bank Account" }).click();
      await dialog.getByText("This is not a valid ABA routing number. Please check the 9 digits printed on your checks.").waitFor();
      expect(await dialog.getByLabel("Routing Number").getAttribute("aria-invalid")).toBe("true");
      // Nothing typed is lost.
      expect(await dialog.getByLabel("Bank Name").inputValue()).toBe("Harbor Savings Bank");
      expect(await dialog.getByLabel("Routing Number").inputValue()).toBe("011000016");
      expect(await dialog.getByLabel("Account Number").inputValue()).toBe(`000123${last4}`);
      expect(await dialog.getByLabel("Account Type").inputValue()).toBe("savings");
      expect(await axeViolations(page)).toEqual([]);

      await dialog.getByLabel("Routing Number").fill("011000015");
      await expectToast(page, "Payment account changed", () => dialog.getByRole("button", { name: "Save Bank Account" }).click());
      await dialog.waitFor({ state: "detached" });
      await page.getByTestId("payment-account").filter({ hasText: `Savings ••••${last4}` }).waitFor();
      expect(await page.getByTestId("payment-account").textContent()).toContain("Harbor Savings Bank");
      expect(await pageOverflows(page)).toBe(false);
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it("staff see the new payment account on the loan", async () => {
    const staffLoan = await (await fetch(`${stack.server.url}/admin/loans/${loan.loanId}`, { headers: { cookie: adminCookie } })).text();
    expect(staffLoan).toContain("Savings ••••7766");
    expect(staffLoan).toContain("Harbor Savings Bank");
  });

  it("on a phone the schedule and history tables scroll inside their box; the page does not scroll sideways", async () => {
    const { context, page, errors } = await openAs(jane, VIEWPORTS[1], `/dashboard/loans/${loan.loanId}`);
    for (const testId of ["payment-schedule", "payment-history"]) {
      const table = page.getByTestId(testId);
      if ((await table.count()) === 0) continue;
      const sizes = await table.evaluate((el) => {
        const scroller = el.parentElement!;
        return { scrollWidth: scroller.scrollWidth, clientWidth: scroller.clientWidth, overflowX: getComputedStyle(scroller).overflowX, right: scroller.getBoundingClientRect().right };
      });
      expect(sizes.scrollWidth, testId).toBeGreaterThan(sizes.clientWidth);
      expect(sizes.overflowX, testId).toBe("auto");
      expect(sizes.right, testId).toBeLessThanOrEqual(390);
    }
    expect(await page.getByTestId("payment-schedule").count()).toBe(1);
    expect(await pageOverflows(page)).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("a long document name wraps on a phone and is the name the borrower gave it", async () => {
    const longName = "Bank Statement for Checking Account ending 6789 covering October 2026 — downloaded from online banking.pdf";
    const applicationId = await submitApplication(stack.server.url, jane, { files: { bankStatement1: { bytes: makePdf(3000), name: longName, type: "application/pdf" } }, ip: stack.nextIp() });
    const { context, page, errors } = await openAs(jane, VIEWPORTS[1], `/dashboard/applications/${applicationId}`);
    const name = page.getByTestId("document-name").filter({ hasText: longName });
    await name.waitFor();
    const box = await name.evaluate((el) => ({ lines: Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight)), scroll: el.scrollWidth, client: el.clientWidth }));
    expect(box.lines).toBeGreaterThan(1);
    expect(box.scroll).toBeLessThanOrEqual(box.client);
    expect(await page.getByText("Bank Statement (Month 1)", { exact: true }).first().isVisible()).toBe(true);
    expect(await pageOverflows(page)).toBe(false);
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
    const staffPage = await (await fetch(`${stack.server.url}/admin/applications/${applicationId}`, { headers: { cookie: adminCookie } })).text();
    expect(staffPage).toContain("Bank Statement for Checking Account ending 6789");
  });
});
