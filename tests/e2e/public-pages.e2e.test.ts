import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { signUpOverHttp, toBrowserCookies } from "../helpers/applicants";
import { axeViolations, waitForHydration } from "./harness";
import { e2eStackForFile } from "./helpers/stack";
import { expectToast } from "./helpers/toasts";

/**
 * The public content pages against the built server (docs/requirements.md §2, §5, §7, §9): About, How It Works,
 * FAQ (single-open accordions, by keyboard), Testimonials (static cards, the stats band, the form as a
 * visitor and as a signed-in user), the legal pages ('Last Updated' is today), and axe on each page.
 * The signed-in user is created over HTTP (mailed code + solved ALTCHA), its session cookie handed to
 * the browser.
 */

const stack = e2eStackForFile();

async function withPage<T>(
  options: { width?: number; cookies?: { name: string; value: string }[] },
  run: (page: Page, context: BrowserContext) => Promise<T>,
): Promise<T> {
  const context = await stack.browser.newContext({ viewport: { width: options.width ?? 1280, height: 900 } });
  if (options.cookies?.length) {
    await context.addCookies(options.cookies.map((c) => ({ ...c, url: stack.server.url })));
  }
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    return await run(page, context);
  } finally {
    await context.close();
  }
}

async function open(page: Page, path: string) {
  const response = await page.goto(`${stack.server.url}${path}`);
  expect(response?.status()).toBe(200);
  await waitForHydration(page);
}

async function expectNoAxeViolations(page: Page) {
  expect(await axeViolations(page)).toEqual([]);
}

/** Today's date as the server writes it ('Nov 22, 2026'); the server runs on this machine. */
function today(): string {
  return new Date().toLocaleDateString("en-US", { year: "numeric", month: "short", day: "numeric" });
}

describe("About", () => {
  it("shows the intro, stats, story, mission, values, timeline and four leaders, and passes axe", async () => {
    await withPage({}, async (page) => {
      await open(page, "/about");
      expect(await page.title()).toBe("About Us | Private Loans");
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("About Private Loans");
      const main = page.locator("main");
      for (const figure of ["15", "$2.5B+", "150K+", "4.9/5", "24 hrs"]) {
        await main.getByText(figure, { exact: true }).first().waitFor();
      }
      for (const heading of ["Our Story", "Our Mission", "Our Core Values", "Our Journey", "Leadership Team"]) {
        await page.getByRole("heading", { level: 2, name: heading }).waitFor();
      }
      for (const value of ["Trust and Security", "Client First", "Excellence", "Accessibility"]) {
        await page.getByRole("heading", { level: 3, name: value, exact: true }).waitFor();
      }
      const timeline = page.locator("#journey li");
      expect(await timeline.count()).toBe(6);
      const years = await page.locator("#journey time").allTextContents();
      expect(years).toEqual(["2009", "2012", "2016", "2020", "2023", "2024"]);
      await page.getByRole("heading", { name: "Digital Platform Launch" }).waitFor();
      await page.getByRole("heading", { name: "COVID-19 Support" }).waitFor();

      const portraits = page.locator("#leadership img");
      expect(await portraits.count()).toBe(4);
      for (let i = 0; i < 4; i++) {
        const img = portraits.nth(i);
        expect(await img.getAttribute("alt")).toMatch(/^Illustrated portrait of /);
        expect(await img.getAttribute("width")).toBe("240");
        expect(await img.getAttribute("height")).toBe("240");
        expect((await page.request.get(`${stack.server.url}${await img.getAttribute("src")}`)).status()).toBe(200);
      }
      expect(await page.locator("#leadership").getByText("Education").count()).toBe(4);
      await expectNoAxeViolations(page);
    });
  });

  it("fits a 320 px screen without horizontal scrolling", async () => {
    await withPage({ width: 320 }, async (page) => {
      for (const path of ["/about", "/how-it-works", "/faq", "/testimonials", "/privacy", "/terms", "/disclosures"]) {
        await open(page, path);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(320);
      }
    });
  });
});

describe("How It Works", () => {
  it("shows the four steps, the timeline strip, both checklists and a link to /apply, and passes axe", async () => {
    await withPage({}, async (page) => {
      await open(page, "/how-it-works");
      expect(await page.title()).toBe("How It Works | Private Loans");
      const steps = await page.locator("#steps h3").allTextContents();
      expect(steps).toEqual(["Apply", "Underwriting", "Approval", "Disbursement"]);
      expect(await page.locator("#timeline li").count()).toBe(4);
      await page.getByRole("heading", { name: "Personal Loans" }).waitFor();
      await page.getByRole("heading", { name: "Business Loans" }).waitFor();
      await page.getByText("Government-issued photo ID (front and back)").waitFor();
      expect(await page.locator('main a[href="/apply"]').count()).toBeGreaterThan(0);
      await expectNoAxeViolations(page);
    });
  });
});

describe("FAQ", () => {
  it("has six categories of single-open accordions that work by keyboard, and links to /contact and /apply", async () => {
    await withPage({}, async (page) => {
      await open(page, "/faq");
      expect(await page.title()).toBe("Frequently Asked Questions | Private Loans");
      const categories = page.locator("main section[id] > h2");
      expect(await categories.count()).toBe(6);
      expect(await page.locator('main a[href="/contact"]').count()).toBeGreaterThan(0);
      expect(await page.locator('main a[href="/apply"]').count()).toBeGreaterThan(0);

      // FAQPage structured data lists the same questions the page shows.
      const ld = await page.locator('script[type="application/ld+json"]').allTextContents();
      const faq = ld.map((t) => JSON.parse(t) as { "@type": string; mainEntity?: { name: string }[] }).find((d) => d["@type"] === "FAQPage");
      expect(faq?.mainEntity?.map((q) => q.name)).toContain("Who is Private Loans?");
      expect(faq?.mainEntity?.length).toBe(await page.locator("main section[id] h3 button").count());

      const general = page.locator("section#general");
      const first = general.getByRole("button", { name: "Who is Private Loans?" });
      const second = general.getByRole("button", { name: "Who can apply for a loan?" });
      expect(await first.getAttribute("aria-expanded")).toBe("false");

      await first.focus();
      await page.keyboard.press("Enter");
      await expect.poll(() => first.getAttribute("aria-expanded")).toBe("true");
      await general.getByText(/private lender based in Wilmington/).waitFor();

      // Arrow keys move between questions; opening the second closes the first.
      await page.keyboard.press("ArrowDown");
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Who can apply for a loan?");
      await page.keyboard.press("Space");
      await expect.poll(() => second.getAttribute("aria-expanded")).toBe("true");
      expect(await first.getAttribute("aria-expanded")).toBe("false");
      expect(await general.locator('[data-state="open"][role="region"]').count()).toBe(1);

      // Another category is independent: its own single open item.
      const application = page.locator("section#application");
      const decision = application.getByRole("button", { name: "How long does it take to get a decision?" });
      await decision.focus();
      await page.keyboard.press("Enter");
      await application.getByText(/within 72 hours/).waitFor();
      expect(await second.getAttribute("aria-expanded")).toBe("true");

      // Collapsible: the open one closes again.
      await page.keyboard.press("Enter");
      await expect.poll(() => decision.getAttribute("aria-expanded")).toBe("false");
      await expectNoAxeViolations(page);
    });
  });
});

describe("legal pages", () => {
  const pages = [
    { path: "/privacy", title: "Privacy Policy", text: "Facts: What does Private Loans do with your personal information?" },
    { path: "/terms", title: "Terms of Service", text: "laws of the State of Delaware" },
    { path: "/disclosures", title: "Legal Disclosures", text: "5.99% to 35.99% APR" },
  ];
  for (const { path, title, text } of pages) {
    it(`${path} shows its text and 'Last Updated' with today's date, and passes axe`, async () => {
      await withPage({}, async (page) => {
        await open(page, path);
        expect(await page.title()).toBe(`${title} | Private Loans`);
        expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(title);
        expect(await page.getByTestId("last-updated").textContent()).toBe(`Last Updated: ${today()}`);
        await page.locator("main").getByText(text).first().waitFor();
        await expectNoAxeViolations(page);
      });
    });
  }

  it("the disclosures carry the ECOA notice, E-SIGN consent, licensing and the estimates-only disclaimer", async () => {
    await withPage({}, async (page) => {
      await open(page, "/disclosures");
      for (const heading of ["Equal Credit Opportunity Act notice", "E-SIGN consent to electronic records and signatures", "State licensing", "Loan calculator disclaimer"]) {
        await page.getByRole("heading", { level: 2, name: heading }).waitFor();
      }
      await page.getByText(/estimates only/).first().waitFor();
    });
  });
});

describe("Testimonials", () => {
  it("shows nine rated cards and the stats band; a visitor is asked to sign in (and the server refuses with 401)", async () => {
    await withPage({}, async (page) => {
      await open(page, "/testimonials");
      expect(await page.title()).toBe("Testimonials | Private Loans");
      const cards = page.getByTestId("testimonial-list").locator(":scope > li");
      expect(await cards.count()).toBe(9);
      for (let i = 0; i < 9; i++) {
        expect(await cards.nth(i).getByRole("img", { name: /^Rated [1-5] out of 5 stars$/ }).count()).toBe(1);
      }
      for (const figure of ["150K+", "$2.5B+", "4.9/5", "1-5"]) await page.locator("main").getByText(figure, { exact: true }).waitFor();
      await page.getByText("Business Days to Funding").waitFor();
      await expectNoAxeViolations(page);

      const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Submit Testimonial" }) });
      await form.getByLabel("Full Name").fill("Val Visitor");
      await expectToast(
        page,
        "Authentication Required",
        () => form.getByRole("button", { name: "Submit Testimonial" }).click(),
        "Please sign in to submit a testimonial.",
      );
    });

    const res = await fetch(`${stack.server.url}/testimonials`, {
      method: "POST",
      body: new URLSearchParams({ rating: "5", fullName: "No Session", role: "Tester", content: "Hello" }),
      headers: { origin: stack.server.url, accept: "text/html" },
    });
    expect(res.status).toBe(401);
    expect(await res.text()).toContain("Authentication Required");
  });

  it("as a signed-in user: a missing rating is refused, then a keyboard-chosen rating submits and the form resets", async () => {
    const cookie = await signUpOverHttp(stack.server.url, stack.sink, "terry.tester@example.com", "198.18.30.1", "Terry Tester");
    expect(cookie).toContain("session_token");
    const cookies = toBrowserCookies(cookie, stack.server.url);
    await withPage({ cookies }, async (page) => {
      await open(page, "/testimonials");
      await page.getByRole("banner").getByRole("button", { name: "Sign Out" }).waitFor();
      expect(await page.getByText("You need an account to submit a testimonial.").count()).toBe(0);

      const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Submit Testimonial" }) });
      const submit = form.getByRole("button", { name: "Submit Testimonial" });
      const group = form.getByRole("radiogroup", { name: "Your Rating" });
      expect(await group.getByRole("radio").count()).toBe(5);
      for (const [i, name] of ["1 star", "2 stars", "3 stars", "4 stars", "5 stars"].entries()) {
        expect(await group.getByRole("radio").nth(i).getAttribute("value")).toBe(String(i + 1));
        await group.getByRole("radio", { name, exact: true }).waitFor({ state: "attached" });
      }

      await form.getByLabel("Full Name").fill("Terry Tester");
      await form.getByLabel("Role").fill("Real Estate Investor");
      await form.getByLabel("Location (optional)").fill("Dover, DE");
      await form.getByLabel("Your Review").fill("Closed my bridge loan in nine days. <b>Great</b> team!");

      await expectToast(page, "Rating Required", () => submit.click(), "Please select a star rating for your experience.");
      await form.getByText("Please select a star rating for your experience.").waitFor();
      expect(await group.getAttribute("aria-invalid")).toBe("true");
      // Focus went to the rating; arrow keys choose it.
      await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name)).toBe("rating");
      await group.getByRole("radio", { name: "1 star", exact: true }).focus();
      await page.keyboard.press("Space");
      await page.keyboard.press("ArrowRight");
      await page.keyboard.press("ArrowRight");
      await page.keyboard.press("ArrowRight");
      expect(await group.getByRole("radio", { name: "4 stars" }).isChecked()).toBe(true);
      expect(await group.getAttribute("aria-invalid")).toBeNull();
      await expectNoAxeViolations(page);

      await expectToast(
        page,
        "Testimonial Submitted",
        () => submit.click(),
        "Thank you! Your testimonial will be reviewed and published shortly.",
      );
      // The fields and the rating reset.
      await expect.poll(() => form.getByLabel("Full Name").inputValue()).toBe("");
      expect(await form.getByLabel("Role").inputValue()).toBe("");
      expect(await form.getByLabel("Location (optional)").inputValue()).toBe("");
      expect(await form.getByLabel("Your Review").inputValue()).toBe("");
      for (let i = 0; i < 5; i++) expect(await group.getByRole("radio").nth(i).isChecked()).toBe(false);
      // Pending until an admin approves it: still the nine static cards.
      expect(await page.getByTestId("testimonial-list").locator(":scope > li").count()).toBe(9);
    });
  });
});
