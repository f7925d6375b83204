import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { axeViolations, gotoHydrated } from "./harness";
import { e2eStackForFile } from "./helpers/stack";

/**
 * Issue 18, item 14 and the contact form's half of item 5, where the issue saw them (1280×800 and
 * 390×844): the footer's licensing line from configuration, the Equal Housing Lender statement, the
 * self-hosted typeface, and the contact phone's hint in place of a value-like placeholder.
 */

const LICENSING = {
  LENDER_LEGAL_NAME: "Private Loans Holdings, LLC",
  NMLS_ID: "1234567",
  STATE_LICENSES: "California Financing Law License 60DBO-12345; Delaware Licensed Lender 012345",
};

// One server, with the licensing settings: that the line is left out when none is set is the config's
// unit test (licensing undefined) and the footer's `licensing ? … : null`.
const stack = e2eStackForFile({ env: LICENSING, mail: false });

async function withPage<T>(width: number, height: number, run: (page: Page) => Promise<T>): Promise<T> {
  const context = await stack.browser.newContext({ viewport: { width, height } });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    return await run(page);
  } finally {
    await context.close();
  }
}

describe.each([
  [1280, 800],
  [390, 844],
])("at %ix%i", (width, height) => {
  it("the footer shows the configured legal name, NMLS ID (linked to NMLS Consumer Access) and licences", async () => {
    await withPage(width, height, async (page) => {
      await gotoHydrated(page, `${stack.server.url}/`);
      const line = page.locator("footer [data-testid=licensing]");
      await line.scrollIntoViewIfNeeded();
      expect(await line.isVisible()).toBe(true);
      expect(await line.textContent()).toBe(
        "Private Loans Holdings, LLC. NMLS ID 1234567. Licensed in: California Financing Law License 60DBO-12345; Delaware Licensed Lender 012345.",
      );
      expect(await line.getByRole("link", { name: "1234567" }).getAttribute("href")).toBe(
        "https://www.nmlsconsumeraccess.org/EntityDetails.aspx/COMPANY/1234567",
      );
      // Nothing in the footer overflows the phone's width.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      expect(await axeViolations(page)).toEqual([]);
    });
  });

  it("the footer links the Equal Housing Lender statement on the disclosures page", async () => {
    await withPage(width, height, async (page) => {
      await gotoHydrated(page, `${stack.server.url}/`);
      await page.locator("footer").getByRole("link", { name: "Equal Housing Lender" }).click();
      await page.waitForURL(/\/disclosures#equal-housing$/);
      const section = page.locator("#equal-housing");
      await section.getByRole("heading", { name: "Equal Housing Lender" }).waitFor();
      expect(await section.textContent()).toContain("Fair Housing Act and the Equal Credit Opportunity Act");
    });
  });

  it("text is set in the self-hosted Inter, fetched from this site only", async () => {
    await withPage(width, height, async (page) => {
      const fontRequests: string[] = [];
      page.on("request", (r) => {
        if (r.resourceType() === "font") fontRequests.push(r.url());
      });
      await gotoHydrated(page, `${stack.server.url}/`);
      await page.evaluate(() => document.fonts.ready);
      expect(await page.evaluate(() => document.fonts.check('16px "Inter"'))).toBe(true);
      expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toMatch(/^"?Inter"?,/);
      expect(fontRequests.length).toBeGreaterThan(0);
      for (const url of fontRequests) expect(url.startsWith(`${stack.server.url}/fonts/`), url).toBe(true);
      const woff2 = await page.request.get(`${stack.server.url}/fonts/inter-regular-latin.woff2`);
      expect(woff2.status()).toBe(200);
      expect((await woff2.body()).subarray(0, 4).toString("latin1")).toBe("wOF2");
    });
  });

  it("the contact phone field has a hint, linked by aria-describedby, and no value-like placeholder", async () => {
    await withPage(width, height, async (page) => {
      await gotoHydrated(page, `${stack.server.url}/contact`);
      const phone = page.getByLabel("Phone (optional)");
      expect(await phone.getAttribute("placeholder")).toBeNull();
      expect(await phone.getAttribute("autocomplete")).toBe("tel");
      const describedBy = (await phone.getAttribute("aria-describedby")) ?? "";
      const hint = page.locator(`[id="${describedBy.split(" ")[0]}"]`);
      expect(await hint.textContent()).toBe("10-digit US number, formatted as you type");
      expect(await hint.isVisible()).toBe(true);
    });
  });
});
