import type { BrowserContextOptions, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { loans } from "~/content/loans";
import { axeViolations, waitForHydration } from "./harness";
import { e2eStackForFile } from "./helpers/stack";

/**
 * The public website, part A (docs/requirements.md §2): home, services list and the seven loan detail pages.
 * Figures are checked against the spec's own table, written out here rather than read from the content
 * module, so a wrong number in the content fails the test.
 */

const SPEC_LOANS = [
  { slug: "personal", title: "Personal Loans", amount: "$5,000 to $5,000,000", term: "6 months to 30 years", apply: "/auth?redirectTo=/apply" },
  { slug: "business", title: "Business Loans", amount: "$100,000 to $50,000,000", term: "6 months to 30 years", apply: "/auth?redirectTo=/apply" },
  { slug: "private", title: "Private Loans", amount: "$100,000 to $10,000,000", term: "6 months to 30 years", apply: "/auth?redirectTo=/apply" },
  { slug: "hard-money", title: "Hard Money / Bridge Loans", amount: "$100,000 to $50,000,000", term: "6 to 36 months", apply: "/auth?redirectTo=/apply" },
  { slug: "debt-consolidation", title: "Debt Consolidation Loans", amount: "$50,000 to $2,000,000", term: "6 months to 30 years", apply: "/apply" },
  { slug: "auto", title: "Auto Loans", amount: "$10,000 to $1,000,000", term: "6 months to 30 years", apply: "/apply" },
  { slug: "home-improvement", title: "Home Improvement Loans", amount: "$50,000 to $5,000,000", term: "6 months to 30 years", apply: "/apply" },
] as const;

const BENEFITS = ["Fast and Reliable Funding", "Private and Discreet Process", "Flexible Loan Solutions", "Secure and Transparent"];
const GOLD_400 = "rgb(230, 185, 73)";

const stack = e2eStackForFile({ mail: false });

type PageOptions = Pick<BrowserContextOptions, "javaScriptEnabled" | "reducedMotion" | "hasTouch" | "isMobile"> & {
  width?: number;
  height?: number;
};

async function withPage<T>(options: PageOptions, run: (page: Page) => Promise<T>): Promise<T> {
  const { width = 1280, height = 800, ...rest } = options;
  const context = await stack.browser.newContext({
    viewport: { width, height },
    reducedMotion: "no-preference",
    ...rest,
  });
  try {
    return await run(await context.newPage());
  } finally {
    await context.close();
  }
}

async function hrefs(locator: import("playwright-core").Locator): Promise<(string | null)[]> {
  return locator.evaluateAll((els) => els.map((el) => el.getAttribute("href")));
}

/** Headings in document order must start at h1, have one h1 and never skip a level going down. */
async function headingOrderProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const headings = [...document.querySelectorAll("h1, h2, h3, h4, h5, h6")];
    const problems: string[] = [];
    let previous = 0;
    for (const heading of headings) {
      const level = Number(heading.tagName[1]);
      if (previous === 0 && level !== 1) problems.push(`first heading is ${heading.tagName}`);
      if (previous !== 0 && level > previous + 1) problems.push(`${heading.tagName} "${heading.textContent}" follows h${previous}`);
      previous = level;
    }
    if (document.querySelectorAll("h1").length !== 1) problems.push("not exactly one h1");
    return problems;
  });
}

async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

describe("home page", () => {
  it("shows the hero, claims, four benefits, seven loan cards, the calculator, three testimonials and both calls to action", async () => {
    await withPage({ reducedMotion: "reduce" }, async (page) => {
      await page.goto(`${stack.server.url}/`);
      expect(await page.title()).toBe("Trusted Lending. Transparent Solutions. | Private Loans");
      expect(await page.locator('meta[name="description"]').getAttribute("content")).toMatch(/decision within 24 hours/);

      const main = page.locator("main");
      const h1 = main.getByRole("heading", { level: 1 });
      expect(await h1.count()).toBe(1);
      await expect.poll(() => main.getByRole("heading", { level: 1, name: "Private Loans", exact: true }).count()).toBe(1);
      const text = await main.innerText();
      expect(text).toContain("Trusted Lending. Transparent Solutions.");
      for (const claim of ["24 Hours", "15 Years", "$2.5B+", "150K+", "4.9/5"]) expect(text).toContain(claim);

      // Hero buttons.
      const hero = main.locator("section").first();
      expect(await hero.getByRole("link", { name: "Apply Now" }).getAttribute("href")).toBe("/auth?redirectTo=/apply");
      expect(await hero.getByRole("link", { name: "Estimate Your Loan" }).getAttribute("href")).toBe("/calculator");

      // Why choose us: the four benefits.
      const why = main.getByRole("region", { name: "Private Lending, Done Right" });
      expect(await why.getByRole("heading", { level: 3 }).allInnerTexts()).toEqual(BENEFITS);

      // Seven loan cards, each with Learn More to its page, in the spec's order.
      const learnMore = main.locator("a", { hasText: "Learn More" });
      expect(await hrefs(learnMore)).toEqual(SPEC_LOANS.map((loan) => `/services/${loan.slug}`));
      const cards = main.getByRole("region", { name: "Financing for Every Goal" });
      expect(await cards.getByRole("heading", { level: 3 }).allInnerTexts()).toEqual(SPEC_LOANS.map((loan) => loan.title));

      // The hover grid: the same seven loans, linked.
      const grid = main.getByRole("region", { name: "Find the Right Fit" });
      expect(await hrefs(grid.getByRole("link"))).toEqual(SPEC_LOANS.map((loan) => `/services/${loan.slug}`));

      // The embedded calculator with its defaults (50,000 at 8.5 % for 60 months).
      const calculator = main.getByRole("region", { name: "Estimate Your Monthly Payment" });
      await expect.poll(() => calculator.getByTestId("monthly-payment").innerText()).toBe("$1,025.83");

      // Three testimonial cards and View All Testimonials.
      const testimonials = main.getByRole("region", { name: "What Our Clients Say" });
      expect(await testimonials.getByTestId("testimonial-card").count()).toBe(3);
      expect(await testimonials.getByRole("img", { name: /Rated \d out of 5/ }).count()).toBe(3);
      expect(await testimonials.getByRole("link", { name: "View All Testimonials" }).getAttribute("href")).toBe("/testimonials");

      // Closing call to action.
      const cta = main.getByRole("region", { name: "Ready to Take the Next Step?" });
      expect(await cta.getByRole("link", { name: "Apply Now" }).getAttribute("href")).toBe("/auth?redirectTo=/apply");
      expect(await cta.getByRole("link", { name: "Contact Us" }).getAttribute("href")).toBe("/contact");

      expect(await headingOrderProblems(page)).toEqual([]);
    });
  });

  it("Apply Now leads to /auth and Estimate Your Loan to /calculator", async () => {
    await withPage({}, async (page) => {
      await page.goto(`${stack.server.url}/`);
      await waitForHydration(page);
      await page.locator("main section").first().getByRole("link", { name: "Estimate Your Loan" }).click();
      await page.waitForURL((url) => url.pathname === "/calculator");
      await page.goBack();
      await page.waitForURL((url) => url.pathname === "/");
      await page.locator("main section").first().getByRole("link", { name: "Apply Now" }).click();
      await page.waitForURL((url) => url.pathname === "/auth");
    });
  });

  it("types the title one letter at a time, then highlights 'Loans' in gold", async () => {
    await withPage({}, async (page) => {
      await page.goto(`${stack.server.url}/`);
      const typed = page.getByTestId("typing-title");
      // The server sends the whole title, for search engines and screen readers.
      expect(await page.locator("h1 .sr-only").innerText()).toBe("Private Loans");

      // Once hydrated, the visible copy restarts from nothing and grows.
      await page.locator('[data-testid="typing-title"][data-state="typing"]').waitFor();
      const started = Date.now();
      const samples: string[] = [];
      while ((await typed.getAttribute("data-state")) === "typing" && Date.now() - started < 5000) {
        samples.push((await typed.locator(":scope > span").nth(1).innerText()).trim());
        await page.waitForTimeout(100);
      }
      const elapsed = Date.now() - started;
      expect(await typed.getAttribute("data-state")).toBe("done");
      // 13 letters at 150 ms each: about two seconds (generous bounds for a loaded machine).
      expect(elapsed).toBeGreaterThan(1200);
      expect(elapsed).toBeLessThan(4000);
      // Partial titles were seen, each a prefix of the next.
      const partial = samples.filter((s) => s.length > 0 && s.length < "Private Loans".length);
      expect(partial.length).toBeGreaterThan(3);
      for (const sample of partial) expect("Private Loans".startsWith(sample)).toBe(true);

      const highlight = typed.locator("[data-highlight]");
      expect(await highlight.innerText()).toBe("Loans");
      expect(await highlight.evaluate((el) => getComputedStyle(el).color)).toBe(GOLD_400);
      expect((await typed.locator(":scope > span").nth(1).innerText()).trim()).toBe("Private Loans");
      // The heading's accessible name never changed.
      expect(await page.getByRole("heading", { level: 1, name: "Private Loans", exact: true }).count()).toBe(1);
    });
  });

  it("shows the title complete and highlighted at once with reduced motion", async () => {
    await withPage({ reducedMotion: "reduce" }, async (page) => {
      await page.goto(`${stack.server.url}/`);
      await waitForHydration(page);
      await page.waitForTimeout(400);
      const typed = page.getByTestId("typing-title");
      expect(await typed.getAttribute("data-state")).toBe("done");
      expect(await typed.locator("[data-highlight]").innerText()).toBe("Loans");
    });
  });

  it("renders every section visible without JavaScript", async () => {
    await withPage({ javaScriptEnabled: false }, async (page) => {
      await page.goto(`${stack.server.url}/`);
      const typed = page.getByTestId("typing-title");
      expect(await typed.getAttribute("data-state")).toBe("done");
      expect(await page.locator("[data-reveal]").count()).toBe(0);
      const opacities = await page.locator("main section").evaluateAll((els) => els.map((el) => getComputedStyle(el).opacity));
      expect(opacities.every((o) => o === "1")).toBe(true);
      expect(await page.locator("main").innerText()).toContain("What Our Clients Say");
    });
  });

  it("reveals sections once as they scroll into view, and never hides them with reduced motion", async () => {
    await withPage({}, async (page) => {
      await page.goto(`${stack.server.url}/`);
      await waitForHydration(page);
      const testimonials = page.getByRole("region", { name: "What Our Clients Say" }).locator("[data-reveal]");
      await expect.poll(() => testimonials.getAttribute("data-reveal")).toBe("hidden");
      await expect.poll(() => testimonials.evaluate((el) => getComputedStyle(el).opacity)).toBe("0");
      // The hero, on screen at load, is never hidden.
      expect(await page.locator("main section").first().locator("[data-reveal]").count()).toBe(0);

      await testimonials.scrollIntoViewIfNeeded();
      await expect.poll(() => testimonials.getAttribute("data-reveal")).toBe("shown");
      await expect.poll(() => testimonials.evaluate((el) => getComputedStyle(el).opacity), { timeout: 3000 }).toBe("1");
      // Once: scrolling away does not hide it again.
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.waitForTimeout(200);
      expect(await testimonials.getAttribute("data-reveal")).toBe("shown");
    });
    await withPage({ reducedMotion: "reduce" }, async (page) => {
      await page.goto(`${stack.server.url}/`);
      await waitForHydration(page);
      await page.waitForTimeout(300);
      expect(await page.locator("[data-reveal]").count()).toBe(0);
    });
  });

  it("a keyboard user tabbing into a hidden section reveals it", async () => {
    await withPage({}, async (page) => {
      await page.goto(`${stack.server.url}/`);
      await waitForHydration(page);
      const cta = page.getByRole("region", { name: "Ready to Take the Next Step?" });
      await expect.poll(() => cta.locator("[data-reveal]").getAttribute("data-reveal")).toBe("hidden");
      await cta.getByRole("link", { name: "Contact Us" }).focus();
      await expect.poll(() => cta.locator("[data-reveal]").getAttribute("data-reveal")).toBe("shown");
    });
  });

  it("the hover grid shows a loan's details on hover and on keyboard focus, and is left out on touch screens", async () => {
    const detailsOpacity = (page: Page, index: number) =>
      page
        .getByRole("region", { name: "Find the Right Fit" })
        .getByRole("listitem")
        .nth(index)
        .locator("dl")
        .evaluate((el) => getComputedStyle(el).opacity);

    await withPage({ reducedMotion: "reduce" }, async (page) => {
      await page.goto(`${stack.server.url}/`);
      await waitForHydration(page);
      const grid = page.getByRole("region", { name: "Find the Right Fit" });
      await grid.scrollIntoViewIfNeeded();
      expect(await detailsOpacity(page, 0)).toBe("0");
      // The details are in the accessibility tree all along (screen readers need no hover).
      expect(await grid.getByRole("listitem").nth(3).innerText()).toContain("7 to 14 days");

      await grid.getByRole("listitem").nth(1).hover();
      await expect.poll(() => detailsOpacity(page, 1)).toBe("1");
      expect(await detailsOpacity(page, 0)).toBe("0");

      // Keyboard: Tab from the previous tile's link to the Auto Loans tile.
      await page.mouse.move(0, 0);
      await grid.getByRole("link", { name: "Debt Consolidation Loans" }).focus();
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Auto Loans");
      await expect.poll(() => detailsOpacity(page, 5)).toBe("1");
      expect(await grid.getByRole("listitem").nth(5).innerText()).toContain("$10,000 to $1,000,000");
    });

    await withPage({ width: 390, height: 844, hasTouch: true, isMobile: true, reducedMotion: "reduce" }, async (page) => {
      await page.goto(`${stack.server.url}/`);
      await waitForHydration(page);
      // Nothing to hover: the loan cards list the same loans, so the grid is not shown (issue 18, item 13).
      expect(await page.locator('[aria-labelledby="glance-title"]').isHidden()).toBe(true);
    });
  });

  it("has no horizontal scroll at 320 px", async () => {
    await withPage({ width: 320, height: 640, reducedMotion: "reduce" }, async (page) => {
      await page.goto(`${stack.server.url}/`);
      await waitForHydration(page);
      expect(await horizontalOverflow(page)).toBe(0);
    });
  });
});

describe("services page", () => {
  it("lists the seven loans with amounts and terms, the underwriting disclaimer and a call to contact or calculate", async () => {
    await withPage({}, async (page) => {
      await page.goto(`${stack.server.url}/services`);
      expect(await page.title()).toBe("Loan Services | Private Loans");
      const main = page.locator("main");
      expect(await main.getByRole("heading", { level: 1 }).innerText()).toBe("Loan Services");

      const articles = main.getByRole("article");
      expect(await articles.count()).toBe(7);
      for (const [i, loan] of SPEC_LOANS.entries()) {
        const article = articles.nth(i);
        expect(await article.getByRole("heading", { level: 2 }).innerText()).toBe(loan.title);
        const text = await article.innerText();
        expect(text).toContain(loan.amount);
        expect(text).toContain(loan.term);
        expect(text).toContain("5.99% to 35.99% APR");
        expect(await article.getByRole("link", { name: /^Learn More/ }).getAttribute("href")).toBe(`/services/${loan.slug}`);
        expect(await article.getByRole("link", { name: /^Apply Now/ }).getAttribute("href")).toBe(loan.apply);
      }

      expect(await main.getByRole("complementary", { name: "Loan disclaimer" }).innerText()).toContain(
        "Approval is subject to underwriting.",
      );
      const cta = main.getByRole("region", { name: "Not Sure Which Loan Is Right for You?" });
      expect(await cta.getByRole("link", { name: "Contact Us" }).getAttribute("href")).toBe("/contact");
      expect(await cta.getByRole("link", { name: "Use the Loan Calculator" }).getAttribute("href")).toBe("/calculator");
      expect(await headingOrderProblems(page)).toEqual([]);
    });
  });

  it("alternates picture and text on desktop and stacks them on mobile", async () => {
    const imageIsLeft = (page: Page) =>
      page.locator("main article").evaluateAll((els) =>
        els.map((el) => {
          const img = el.querySelector("img")!.getBoundingClientRect();
          const heading = el.querySelector("h2")!.getBoundingClientRect();
          return { left: img.left < heading.left, above: img.bottom <= heading.top };
        }),
      );
    await withPage({ width: 1280 }, async (page) => {
      await page.goto(`${stack.server.url}/services`);
      const layout = await imageIsLeft(page);
      expect(layout.map((l) => l.left)).toEqual([true, false, true, false, true, false, true]);
    });
    await withPage({ width: 375 }, async (page) => {
      await page.goto(`${stack.server.url}/services`);
      const layout = await imageIsLeft(page);
      expect(layout.every((l) => l.above)).toBe(true);
      expect(await horizontalOverflow(page)).toBe(0);
    });
  });
});

describe("loan detail pages", () => {
  for (const loan of SPEC_LOANS) {
    it(`/services/${loan.slug}: title, amount, rate, term, key benefits, Apply Now to ${loan.apply} and Contact Us`, async () => {
      await withPage({}, async (page) => {
        const response = await page.goto(`${stack.server.url}/services/${loan.slug}`);
        expect(response!.status()).toBe(200);
        expect(await page.title()).toBe(`${loan.title} | Private Loans`);
        expect(await page.locator('meta[name="description"]').getAttribute("content")).toContain(loan.amount);

        const main = page.locator("main");
        expect(await main.getByRole("heading", { level: 1 }).innerText()).toBe(loan.title);
        const details = main.getByRole("complementary", { name: "Loan Details" });
        const detailsText = await details.innerText();
        expect(detailsText).toContain(loan.amount);
        expect(detailsText).toContain("5.99% to 35.99% APR");
        expect(detailsText).toContain(loan.term);
        if (loan.slug === "hard-money") expect(detailsText).toContain("7 to 14 days");

        const benefits = main.getByRole("region", { name: "Key Benefits" }).getByRole("listitem");
        expect(await benefits.count()).toBeGreaterThanOrEqual(4);

        // The hero picture is loaded eagerly (above the fold) and described.
        const hero = main.locator("section").first().locator("img");
        expect(await hero.getAttribute("src")).toBe(`/images/loans/${loan.slug}.svg`);
        expect(await hero.getAttribute("loading")).toBe("eager");
        expect((await hero.getAttribute("alt"))!.length).toBeGreaterThan(10);
        await expect.poll(() => hero.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

        // Every Apply Now on the page goes to the same, spec-given place; Contact Us to /contact.
        const apply = await hrefs(main.getByRole("link", { name: "Apply Now", exact: true }));
        expect(apply.length).toBeGreaterThanOrEqual(1);
        expect(new Set(apply)).toEqual(new Set([loan.apply]));
        const contact = await hrefs(main.getByRole("link", { name: "Contact Us", exact: true }));
        expect(contact.length).toBeGreaterThanOrEqual(1);
        expect(new Set(contact)).toEqual(new Set(["/contact"]));
        expect(await headingOrderProblems(page)).toEqual([]);
      });
    });
  }

  it("has no horizontal scroll at 320 px", async () => {
    await withPage({ width: 320, height: 640 }, async (page) => {
      await page.goto(`${stack.server.url}/services/debt-consolidation`);
      await waitForHydration(page);
      expect(await horizontalOverflow(page)).toBe(0);
    });
  });

  it("client-side navigation from a loan page to another loan shows the new loan", async () => {
    await withPage({}, async (page) => {
      await page.goto(`${stack.server.url}/services/auto`);
      await waitForHydration(page);
      await page.getByRole("region", { name: "Explore Other Loans" }).getByRole("link", { name: /Hard Money/ }).click();
      await page.waitForURL((url) => url.pathname === "/services/hard-money");
      await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toBe("Hard Money / Bridge Loans");
      expect(await page.title()).toBe("Hard Money / Bridge Loans | Private Loans");
    });
  });
});

describe("images", () => {
  it("every loan illustration and the hero picture are served as SVG from our own host", async () => {
    for (const src of [...loans.map((loan) => loan.image.src), "/images/home/hero.svg"]) {
      const response = await fetch(`${stack.server.url}${src}`);
      expect(response.status, src).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
      const body = await response.text();
      expect(body.length, src).toBeLessThan(4096);
      expect(body).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
    }
  });
});

describe("accessibility", () => {
  const pages: [string, string, PageOptions][] = [
    ["home at 1280 px", "/", {}],
    ["home at 375 px on a touch screen", "/", { width: 375, hasTouch: true, isMobile: true }],
    ["services", "/services", {}],
    ["services at 375 px", "/services", { width: 375 }],
    ...SPEC_LOANS.map((loan): [string, string, PageOptions] => [`/services/${loan.slug}`, `/services/${loan.slug}`, {}]),
  ];
  for (const [name, path, options] of pages) {
    it(`axe-core finds no violations on ${name}`, async () => {
      // Reduced motion: every section is fully shown, so axe checks the contrast of all of it.
      await withPage({ reducedMotion: "reduce", ...options }, async (page) => {
        await page.goto(`${stack.server.url}${path}`);
        await waitForHydration(page);
        expect(await axeViolations(page)).toEqual([]);
      });
    });
  }

  it("axe-core finds no violations on the home page with a hover-grid tile opened by the keyboard", async () => {
    await withPage({ reducedMotion: "reduce" }, async (page) => {
      await page.goto(`${stack.server.url}/`);
      await waitForHydration(page);
      await page.getByRole("region", { name: "Find the Right Fit" }).getByRole("link", { name: "Personal Loans" }).focus();
      expect(await axeViolations(page)).toEqual([]);
    });
  });
});
