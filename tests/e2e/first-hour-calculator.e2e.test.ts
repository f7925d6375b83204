import type { BrowserContextOptions, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { axeViolations, waitForHydration } from "./harness";
import { e2eStackForFile } from "./helpers/stack";

/**
 * Issue 18, "the first hour of a real user": the calculator's limits (item 7), figures that agree with
 * their own schedule (item 9), and the calculator and home page on a phone (item 13).
 */

const stack = e2eStackForFile({ mail: false });

const DESKTOP = { viewport: { width: 1280, height: 800 } } satisfies BrowserContextOptions;
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true } satisfies BrowserContextOptions;

async function withPage<T>(options: BrowserContextOptions, path: string, run: (page: Page) => Promise<T>): Promise<T> {
  const context = await stack.browser.newContext({ reducedMotion: "reduce", ...options });
  try {
    const page = await context.newPage();
    await page.goto(`${stack.server.url}${path}`);
    await waitForHydration(page);
    return await run(page);
  } finally {
    await context.close();
  }
}

/** "$61,549.80" → 6154980 (cents, to add exactly). */
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
      const url = new URL((await applyLink.getAttribute("href"))!, stack.server.url);
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

      // The spec's words: total payment is payment times months; total interest is total minus principal.
      expect(await page.getByTestId("monthly-payment").textContent()).toBe("$1,025.83");
      expect(await page.getByTestId("total-payment").textContent()).toBe("$61,549.80");
      expect(await page.getByTestId("total-interest").textContent()).toBe("$11,549.80");
      const example = await sums();
      expect(example.years).toHaveLength(5);
      expect(example.years[4]![0]).toBe("$12,309.96");
      expect({ total: example.total, interest: example.interest }).toEqual(await header());
      // Every month's row, opened: 60 payments of $1,025.83 whose principal adds up to the $50,000 borrowed.
      for (const year of [1, 2, 3, 4, 5]) await page.getByRole("button", { name: `Year ${year}`, exact: true }).click();
      const months = await page
        .getByTestId("amortization-schedule")
        .locator("tbody:not([hidden]) > tr:has(th:text-matches('^Month'))")
        .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll("td")].map((cell) => cell.textContent ?? "")));
      expect(months).toHaveLength(60);
      expect(new Set(months.map((m) => m[0]))).toEqual(new Set(["$1,025.83"]));
      expect(months.reduce((s, m) => s + cents(m[1]!), 0)).toBe(5_000_000);
      expect(months.reduce((s, m) => s + cents(m[2]!), 0)).toBe(1_154_980);
      expect(months.at(-1)).toEqual(["$1,025.83", "$1,018.36", "$7.47", "$0.00"]);

      await page.getByLabel("Interest Rate (%)").fill("0");
      await page.getByLabel("Loan Amount").fill("10000");
      await page.getByLabel("Loan Term").selectOption("36");
      // 36 payments of $277.78 are $10,000.08: the spec's total, its 8 cents counted as interest.
      await expect.poll(() => page.getByTestId("total-interest").textContent()).toBe("$0.08");
      expect(await page.getByTestId("total-payment").textContent()).toBe("$10,000.08");
      await expect.poll(async () => (await sums()).years.length).toBe(3);
      const zero = await sums();
      expect({ total: zero.total, interest: zero.interest }).toEqual(await header());
    });
  });
});

describe("amounts with cents and payments that never repay (1280x800)", () => {
  it("keeps a typed decimal point and refuses the cents with a message, never reading 12345.67 as 1,234,567", async () => {
    await withPage(DESKTOP, "/calculator", async (page) => {
      const amount = page.getByLabel("Loan Amount");
      const applyLink = page.getByRole("link", { name: "Apply Now with This Estimate" });
      await amount.fill("");
      await amount.pressSequentially("12345.67");
      expect(await amount.inputValue()).toBe("12,345.67");
      await expect.poll(() => page.getByText("Please enter the loan amount in whole dollars, without cents").isVisible()).toBe(true);
      expect(await amount.getAttribute("aria-invalid")).toBe("true");
      expect(await page.getByTestId("calculator-results").textContent()).toBe("Enter the amount in whole dollars to see your estimate.");
      expect(await page.getByTestId("monthly-payment").count()).toBe(0);
      expect(await applyLink.count()).toBe(0);
      expect(await page.getByRole("button", { name: "Apply Now with This Estimate" }).isDisabled()).toBe(true);
      expect(await page.getByTestId("amortization-schedule").count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);

      // A third decimal is refused as typed; removing the cents gives the estimate of what is shown.
      await amount.press("End");
      await amount.press("8");
      expect(await amount.inputValue()).toBe("12,345.67");
      for (let i = 0; i < 3; i++) await amount.press("Backspace");
      expect(await amount.inputValue()).toBe("12,345");
      await expect.poll(() => applyLink.count()).toBe(1);
      const payment = await page.getByTestId("monthly-payment").textContent();
      const url = new URL((await applyLink.getAttribute("href"))!, stack.server.url);
      expect(url.searchParams.get("loanAmount")).toBe("12345");
      expect(`$${url.searchParams.get("monthlyPayment")}`).toBe(payment);
    });
  });

  it("shows a warning instead of figures and a schedule when the rounded payment never repays ($5,000 at 35.99 % for 360 months)", async () => {
    await withPage(DESKTOP, "/calculator", async (page) => {
      await page.getByLabel("Loan Amount").fill("5000");
      await page.getByLabel("Interest Rate (%)").fill("35.99");
      await page.getByLabel("Loan Term").selectOption("360");
      await expect.poll(() => page.getByTestId("never-repays").isVisible()).toBe(true);
      expect(await page.getByTestId("never-repays").textContent()).toContain("would never repay the loan");
      expect(await page.getByTestId("monthly-payment").count()).toBe(0);
      expect(await page.getByTestId("amortization-schedule").count()).toBe(0);
      expect(await page.getByRole("link", { name: "Apply Now with This Estimate" }).count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);

      await page.getByLabel("Loan Term").selectOption("60");
      await expect.poll(() => page.getByTestId("monthly-payment").count()).toBe(1);
      expect(await page.getByTestId("never-repays").count()).toBe(0);
      expect(await page.getByTestId("amortization-schedule").count()).toBe(1);
    });
  });
});

describe("the schedule table scrolls inside its frame", () => {
  for (const [name, options] of [
    ["1280x800", DESKTOP],
    ["390x844", PHONE],
  ] as const) {
    it(`at ${name}: every column can be scrolled into view, and the page itself does not scroll sideways`, async () => {
      await withPage(options, "/calculator", async (page) => {
        await page.getByRole("button", { name: "Year 1", exact: true }).click();
        const region = page.getByRole("region", { name: /Amortization schedule/ });
        await region.scrollIntoViewIfNeeded();
        const viewportWidth = options.viewport.width;
        const frame = await region.evaluate((el) => {
          const box = el.getBoundingClientRect();
          return { left: box.left, right: box.right, scrollable: el.scrollWidth - el.clientWidth };
        });
        expect(frame.left).toBeGreaterThanOrEqual(0);
        expect(frame.right).toBeLessThanOrEqual(viewportWidth);
        if (viewportWidth < 600) expect(frame.scrollable).toBeGreaterThan(0);
        // Scrolled to its end, the last column's heading and a month's balance are inside the frame and the screen.
        await region.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
        for (const cell of [region.getByRole("columnheader", { name: "Remaining Balance" }), region.locator("tbody:not([hidden]) tr").nth(2).locator("td").last()]) {
          const box = (await cell.boundingBox())!;
          expect(box.x).toBeGreaterThanOrEqual(frame.left - 0.5);
          expect(box.x + box.width).toBeLessThanOrEqual(Math.min(frame.right, viewportWidth) + 0.5);
        }
        // The Year / Month column stays in view, and the title is never cut off by the scrolling.
        for (const fixed of [region.getByRole("button", { name: "Year 1", exact: true }), region.getByRole("rowheader", { name: "Month 2" })]) {
          const box = (await fixed.boundingBox())!;
          expect(box.x).toBeGreaterThanOrEqual(frame.left - 0.5);
          expect(box.x + box.width).toBeLessThanOrEqual(frame.right + 0.5);
        }
        const title = await page.getByText("Amortization schedule", { exact: true }).evaluate((el) => ({ right: el.getBoundingClientRect().right, clipped: el.scrollWidth > el.clientWidth }));
        expect(title.right).toBeLessThanOrEqual(viewportWidth);
        expect(title.clipped).toBe(false);
        expect(await page.getByText("Scroll the table sideways to see every column.").isVisible()).toBe(viewportWidth < 640);
        expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
        expect(await axeViolations(page)).toEqual([]);
      });
    });
  }
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
