import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { formatUtcDateTime } from "~/domain/formats";
import { signInAdminWithMfa } from "../helpers/admins";
import { signUpOverHttp, toBrowserCookies } from "../helpers/applicants";
import { submitApplication } from "../helpers/applications";
import { axeViolations, gotoHydrated } from "./harness";
import { openWatchedPage } from "./helpers/pages";
import { markFundedAsSettled, signedLoanOverHttp } from "./helpers/signed-loan";
import { e2eStackForFile } from "./helpers/stack";
import { expectToast } from "./helpers/toasts";

/**
 * The staff screens after the usability review, in a browser against the built server: the ledger
 * reads top to bottom from the disbursement with a balance that only falls; a double click on Post
 * Payment posts once and shows only the success toast; cards and the application page show the
 * income as given; the navigation names Contact Inbox and Application Messages (the list, unread
 * first, linking to the thread); a loan officer has no Encrypt Existing Bank Data; Active Sessions
 * shows this device's address (as TRUST_PROXY resolves it) and a fresh Last Seen.
 */

const ADMIN = { email: "sara.screens@example.com", password: "Scr33ns!Admin-Pass", name: "Sara Screens", role: "admin" as const };
const OFFICER = { email: "olly.officer@example.com", password: "0ff1cer!Screens-Pass", name: "Olly Officer", role: "loan_officer" as const };

const stack = e2eStackForFile({ staff: [ADMIN, OFFICER], env: { TRUST_PROXY: "true" } });
let adminCookie: string;
let officerCookie: string;
let loanId: string;
let monthlyOnlyApp: string;

const post = (path: string, cookie: string, fields: Record<string, string>) =>
  fetch(`${stack.server.url}${path}`, { method: "POST", body: new URLSearchParams(fields), headers: { cookie, origin: stack.server.url }, redirect: "manual" });

beforeAll(async () => {
  adminCookie = (await signInAdminWithMfa(stack.server.url, ADMIN.email, ADMIN.password, "198.18.60.1")).cookie;
  officerCookie = (await signInAdminWithMfa(stack.server.url, OFFICER.email, OFFICER.password, "198.18.60.2")).cookie;
  const applicant = await signUpOverHttp(stack.server.url, stack.sink, "mona.monthly@example.com", "198.18.60.3", "Mona Monthly");
  ({ loanId } = await signedLoanOverHttp(stack.server.url, applicant, adminCookie, { ip: "198.18.60.3" }));
  await stack.restart((db) => markFundedAsSettled(db, loanId));
  // Only the (required) monthly income, no annual one.
  monthlyOnlyApp = await submitApplication(stack.server.url, applicant, { fields: { annualIncome: "", monthlyIncome: "4,500" }, ip: "198.18.60.3" });
  const sent = await post(`/dashboard/applications/${monthlyOnlyApp}/messages`, applicant, { intent: "send", body: "Is the pay stub from last month enough?" });
  expect(sent.status).toBe(200);
}, 180_000);

/** The ledger's rows as read: kind, day and the principal balance after each (in cents). */
async function ledgerRows(page: Page) {
  return page.getByTestId("ledger").locator("tbody tr").evaluateAll((rows) =>
    rows.map((row) => {
      const cells = [...row.querySelectorAll("td")];
      const balance = row.querySelector('[data-testid="principal-balance-after"]')?.textContent ?? "";
      return {
        kind: row.getAttribute("data-kind"),
        date: cells[0]?.querySelector("time")?.getAttribute("datetime") ?? "",
        reference: row.getAttribute("data-reference"),
        balanceCents: Math.round(Number(balance.replace(/[$,]/g, "")) * 100),
      };
    }),
  );
}

describe("the staff loan page", () => {
  it("a double click on Post Payment posts once, with the success toast and no error; the ledger reads top to bottom", async () => {
    const { context, page, errors } = await openWatchedPage(stack.browser, { cookies: toBrowserCookies(adminCookie, stack.server.url) });
    try {
      await gotoHydrated(page, `${stack.server.url}/admin/loans/${loanId}`);
      const record = async (amount: string, receivedOn: string, reference: string, click: "dblclick" | "click") => {
        await page.getByRole("button", { name: "Record Payment" }).click();
        const dialog = page.getByRole("dialog", { name: "Record Payment" });
        await dialog.waitFor();
        await dialog.getByLabel("Amount").fill(amount);
        await dialog.getByLabel("Received Date").fill(receivedOn);
        await dialog.getByLabel("Method").selectOption({ label: "Check" });
        await dialog.getByLabel("Reference").fill(reference);
        const button = dialog.getByRole("button", { name: "Post Payment" });
        await expectToast(page, "Payment recorded", () => (click === "dblclick" ? button.dblclick() : button.click()));
        await dialog.waitFor({ state: "detached" });
      };
      const today = new Date().toISOString().slice(0, 10);
      await record("800.00", today, "CHK-DOUBLE-1", "dblclick");
      // Whatever the second click did, nothing failed and one payment was posted.
      await page.waitForTimeout(1_000);
      expect(await page.locator("[data-sonner-toast]").filter({ hasText: "Failed to record the payment" }).count()).toBe(0);
      await page.reload();
      await page.getByTestId("ledger").waitFor();
      expect(await page.locator('[data-testid="ledger-payment"][data-reference="CHK-DOUBLE-1"]').count()).toBe(1);
      await record("900.00", today, "CHK-SECOND-2", "click");
      await page.locator('[data-testid="ledger-payment"][data-reference="CHK-SECOND-2"]').waitFor();

      const rows = await ledgerRows(page);
      expect(rows[0]!.kind).toBe("disbursement");
      expect(rows[0]!.balanceCents).toBe(2_500_000);
      expect(rows.map((r) => r.reference).filter(Boolean)).toEqual(["CHK-DOUBLE-1", "CHK-SECOND-2"]);
      for (let i = 1; i < rows.length; i++) {
        expect(rows[i]!.date >= rows[i - 1]!.date, JSON.stringify(rows)).toBe(true);
        expect(rows[i]!.balanceCents, JSON.stringify(rows)).toBeLessThanOrEqual(rows[i - 1]!.balanceCents);
      }
      expect(rows.at(-1)!.balanceCents).toBeLessThan(2_500_000);
      expect(await page.getByRole("columnheader", { name: "Principal Balance" }).count()).toBe(1);
      expect(await axeViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);
});

describe("the staff lists and navigation", () => {
  it("shows the income as given: Monthly Income on the card and the application page when no annual income was stated", async () => {
    const { context, page } = await openWatchedPage(stack.browser, { cookies: toBrowserCookies(adminCookie, stack.server.url) });
    try {
      await gotoHydrated(page, `${stack.server.url}/admin?status=pending`);
      const card = page.locator(`[data-testid="application-card"][data-application-id="${monthlyOnlyApp}"]`);
      await card.waitFor();
      const text = (await card.textContent()) ?? "";
      expect(text).toContain("Monthly Income");
      expect(text).not.toContain("Annual Income");
      expect(await card.getByTestId("card-income").textContent()).toBe("$4,500");
      await gotoHydrated(page, `${stack.server.url}/admin/applications/${monthlyOnlyApp}`);
      const facts = (await page.getByRole("region", { name: "Employment and Finances" }).textContent()) ?? "";
      expect(facts).toMatch(/Monthly Income\s*\$4,500/);
    } finally {
      await context.close();
    }
  }, 60_000);

  it("names Contact Inbox and Application Messages; the list puts unread first and links to the thread", async () => {
    for (const width of [1280, 390]) {
      const { context, page, errors } = await openWatchedPage(stack.browser, { cookies: toBrowserCookies(adminCookie, stack.server.url), width });
      try {
        await gotoHydrated(page, `${stack.server.url}/admin`);
        const nav = page.getByRole("navigation", { name: "Admin" });
        expect(await nav.getByRole("link", { name: "Messages", exact: true }).count()).toBe(0);
        expect(await nav.getByRole("link", { name: /^Contact Inbox/ }).getAttribute("href")).toBe("/admin/messages");
        const appMessages = nav.getByRole("link", { name: /^Application Messages/ });
        expect(await appMessages.getAttribute("href")).toBe("/admin/conversations");
        // The badge counting unread applicant messages is on Application Messages.
        expect(await appMessages.textContent()).toMatch(/Application Messages\s*1/);
        await appMessages.click();
        await page.waitForURL("**/admin/conversations");
        await page.getByRole("heading", { level: 1, name: "Application Messages" }).waitFor();
        const rows = page.getByTestId("conversation-row");
        await rows.first().waitFor();
        expect(await rows.first().getAttribute("data-application-id")).toBe(monthlyOnlyApp);
        expect(await rows.first().getByTestId("conversation-unread").textContent()).toBe("1 unread message");
        expect(await rows.first().getByTestId("conversation-latest").textContent()).toBe("Is the pay stub from last month enough?");
        const wide = await page.evaluate(() =>
          // The admin navigation scrolls sideways by design; nothing else may pass the window's edge.
          [...document.querySelectorAll("main *")].filter((e) => !e.closest('nav[aria-label="Admin"]') && e.getBoundingClientRect().right > window.innerWidth + 1).map((e) => `${e.tagName}.${e.className}`.slice(0, 120)).slice(0, 8),
        );
        expect(wide).toEqual([]);
        expect(await axeViolations(page)).toEqual([]);
        if (width === 390) {
          await rows.first().getByRole("link", { name: "Mona Monthly" }).click();
          await page.waitForURL(`**/admin/applications/${monthlyOnlyApp}#messages`);
          await page.getByTestId("messages-panel").getByText("Is the pay stub from last month enough?").waitFor();
        }
        await gotoHydrated(page, `${stack.server.url}/admin/messages`);
        expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Contact Inbox");
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }
  }, 90_000);

  it("shows Encrypt Existing Bank Data to an admin only, not to a loan officer", async () => {
    for (const [cookie, shown] of [
      [adminCookie, 1],
      [officerCookie, 0],
    ] as const) {
      const { context, page } = await openWatchedPage(stack.browser, { cookies: toBrowserCookies(cookie, stack.server.url) });
      try {
        await gotoHydrated(page, `${stack.server.url}/admin`);
        await page.getByRole("heading", { name: "Loan Applications" }).waitFor();
        expect(await page.getByRole("button", { name: "Encrypt Existing Bank Data" }).count()).toBe(shown);
        expect(await page.getByRole("heading", { name: "Secure Data Utilities" }).count()).toBe(shown);
      } finally {
        await context.close();
      }
    }
  }, 60_000);
});

describe("Active Sessions", () => {
  it("shows this device's address as the proxy gave it and a Last Seen of now", async () => {
    // Signed in from 198.18.60.1; the page is opened from another address, which the row then shows.
    const context = await stack.browser.newContext({ viewport: { width: 1280, height: 900 }, extraHTTPHeaders: { "x-forwarded-for": "198.18.60.99" } });
    try {
      await context.addCookies(toBrowserCookies(adminCookie, stack.server.url));
      const page = await context.newPage();
      const before = Date.now();
      await gotoHydrated(page, `${stack.server.url}/account`);
      const current = page.getByTestId("session-row").filter({ hasText: "This device" });
      await current.waitFor();
      const cells = await current.locator("td").allTextContents();
      expect(cells[1]).toBe("198.18.60.99");
      const fresh = [before - 60_000, before, Date.now(), Date.now() + 60_000].map((t) => formatUtcDateTime(new Date(t).toISOString(), "medium"));
      expect(fresh).toContain(cells[2]);
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);
});
