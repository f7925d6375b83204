import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, waitForHydration, type TestServer } from "./harness";
import { startServerAndBrowser, stopStack } from "./helpers/stack";

/**
 * Issue 18, "the first hour of a real user": the calculator's limits (item 7), figures that agree with
 * their own schedule (item 9), and the calculator and home page on a phone (item 13).
 */

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  ({ server, browser } = await startServerAndBrowser());
});

afterAll(() => stopStack({ server, browser }));

const DESKTOP = { viewport: { width: 1280, height: 800 } } satisfies BrowserContextOptions;
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true } satisfies BrowserContextOptions;

async function withPage<T>(options: BrowserContextOptions, path: string, run: (page: Page) => Promise<T>): Promise<T> {
  const context = await browser.newContext({ reducedMotion: "reduce", ...options });
  try {
    const page = await context.newPage();
    await page.goto(`${server.url}${path}`);
    await waitForHydration(page);
    return await run(page);
  } finally {
    await context.close();
  }
}

/** "$61,549.54" → 6154954 (cents, to add exactly). */
const cents = (text: string | null) => Math.round(Number(text!.replace(/[$,]/g, "")) * 100);

/** The yearly rows' cells, one array of texts per year. */
async function yearCells(page: Page): Promise<string[][]> {
  return page
    .getByTestId("amortization-schedule")
    .locator("tbody:not([hidden]) > tr")
    .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll("td")].map((cell) => cell.textContent ?? "")));
}

describe("the calculator's limits (1280x800)", () => {
  it("refuses an amount above the largest loan, flags one below the smallest or a rate out of range, and only links valid estimates", async () => {
    await withPage(DESKTOP, "/calculator", async (page) => {
      const amount = page.getByLabel("Loan Amount");
      const rate = page.getByLabel("Interest Rate (%)");
      const applyLink = page.getByRole("link", { name: "Apply Now with This Estimate" });
      const applyDisabled = page.getByRole("button", { name: "Apply Now with This Estimate" });

      await amount.fill("999999999999");
      await expect.poll(() => page.getByTestId("calculator-results").textContent()).toContain("Enter an amount up to $50,000,000 to see your estimate.");
      expect(await page.getByTestId("monthly-payment").count()).toBe(0);
      expect(await page.getByText("Our largest loan is $50,000,000. Enter an amount up to $50,000,000.").isVisible()).toBe(true);
      expect(await amount.getAttribute("aria-invalid")).toBe("true");
      expect(await applyLink.count()).toBe(0);
      expect(await applyDisabled.isDisabled()).toBe(true);
      // The chart and schedule go with the figures.
      expect(await page.getByTestId("amortization-schedule").count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);

      await amount.fill("1000");
      await expect.poll(() => page.getByTestId("monthly-payment").count()).toBe(1);
      expect(await page.getByText("Our loans start at $5,000. Enter at least $5,000 to apply.").isVisible()).toBe(true);
      expect(await applyLink.count()).toBe(0);

      await amount.fill("50000");
      await rate.fill("40");
      await expect.poll(() => page.getByText(/Our rates run from 5\.99% to 35\.99%/).isVisible()).toBe(true);
      expect(await rate.getAttribute("aria-invalid")).toBe("true");
      expect(await applyLink.count()).toBe(0);

      await rate.fill("8.5");
      await expect.poll(() => applyLink.count()).toBe(1);
      expect(await amount.getAttribute("aria-invalid")).toBeNull();
      const url = new URL((await applyLink.getAttribute("href"))!, server.url);
      expect(Object.fromEntries(url.searchParams)).toEqual({ loanAmount: "50000", interestRate: "8.5", loanTerm: "60", monthlyPayment: "1025.83" });
    });
  });
});

describe("figures that agree (1280x800)", () => {
  it("the header totals are the sums of the yearly rows, for the spec's example and at 0 %", async () => {
    await withPage(DESKTOP, "/calculator", async (page) => {
      const header = async () => ({
        total: cents(await page.getByTestId("total-payment").textContent()),
        interest: cents(await page.getByTestId("total-interest").textContent()),
      });
      const sums = async () => {
        const years = await yearCells(page);
        return { total: years.reduce((s, y) => s + cents(y[0]!), 0), interest: years.reduce((s, y) => s + cents(y[2]!), 0), years };
      };

      expect(await page.getByTestId("total-payment").textContent()).toBe("$61,549.54");
      const example = await sums();
      expect(example.years).toHaveLength(5);
      expect(example.years[4]![0]).toBe("$12,309.70");
      expect({ total: example.total, interest: example.interest }).toEqual(await header());

      await page.getByLabel("Interest Rate (%)").fill("0");
      await page.getByLabel("Loan Amount").fill("10000");
      await page.getByLabel("Loan Term").selectOption("36");
      await expect.poll(() => page.getByTestId("total-interest").textContent()).toBe("$0.00");
      expect(await page.getByTestId("total-payment").textContent()).toBe("$10,000.00");
      await expect.poll(async () => (await sums()).years.length).toBe(3);
      const zero = await sums();
      expect({ total: zero.total, interest: zero.interest }).toEqual(await header());
    });
  });
});

describe("on a phone (390x844, touch)", () => {
  it("the Apply button grows around its label and the chart's axis labels are at least 12 px", async () => {
    await withPage(PHONE, "/calculator", async (page) => {
      const button = page.getByRole("link", { name: "Apply Now with This Estimate" });
      const fit = await button.evaluate((el) => {
        const box = el.getBoundingClientRect();
        const range = document.createRange();
        range.selectNodeContents(el);
        const text = range.getBoundingClientRect();
        return {
          height: box.height,
          overflow: el.scrollHeight - el.clientHeight,
          textInside: text.top >= box.top && text.bottom <= box.bottom && text.left >= box.left && text.right <= box.right,
        };
      });
      expect(fit.height).toBeGreaterThanOrEqual(44);
      expect(fit.overflow).toBeLessThanOrEqual(0);
      expect(fit.textInside).toBe(true);

      const chart = page.getByTestId("amortization-chart");
      await chart.scrollIntoViewIfNeeded();
      const sizes = await chart.evaluate((svg: SVGSVGElement) => {
        const scale = svg.getScreenCTM()!.a;
        return [...svg.querySelectorAll("text")].map((t) => Number.parseFloat(getComputedStyle(t).fontSize) * scale);
      });
      expect(sizes.length).toBeGreaterThan(5);
      for (const size of sizes) expect(size).toBeGreaterThanOrEqual(12);
      // The labels stay inside the drawing.
      const clipped = await chart.evaluate((svg: SVGSVGElement) => {
        const frame = svg.getBoundingClientRect();
        return [...svg.querySelectorAll("text")]
          .map((t) => ({ text: t.textContent, box: t.getBoundingClientRect() }))
          .filter(({ box }) => box.left < frame.left - 0.5 || box.right > frame.right + 0.5 || box.bottom > frame.bottom + 0.5)
          .map(({ text }) => text);
      });
      expect(clipped).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
    });
  });

  it("the home page lists the seven loans once on a touch screen, and both ways with a mouse", async () => {
    const visibleLoanLinks = (page: Page) =>
      page.evaluate(() =>
        [...document.querySelectorAll<HTMLAnchorElement>('main a[href^="/services/"]')].filter((a) => a.checkVisibility()).length,
      );
    const phoneHeight = await withPage(PHONE, "/", async (page) => {
      expect(await page.getByRole("region", { name: "Find the Right Fit" }).count()).toBe(0);
      expect(await page.getByRole("region", { name: "Financing for Every Goal" }).getByRole("link", { name: /^Learn More/ }).count()).toBe(7);
      expect(await visibleLoanLinks(page)).toBe(7);
      expect(await axeViolations(page)).toEqual([]);
      return page.evaluate(() => document.documentElement.scrollHeight);
    });
    // Seven loans once instead of twice: well under the 13,975 px the issue measured.
    expect(phoneHeight).toBeLessThan(12_000);

    await withPage(DESKTOP, "/", async (page) => {
      expect(await page.getByRole("region", { name: "Find the Right Fit" }).getByRole("listitem").count()).toBe(7);
      expect(await visibleLoanLinks(page)).toBe(14);
    });
  });
});
