import { formatUsd } from "~/domain/formats";
import type { BrowserContext, Page, Request as PwRequest } from "playwright-core";
import { describe, expect, it } from "vitest";
import { centsFromDollars, formatMoney, formatMoneyDecimal, rateFromPercent } from "~/domain/money";
import { estimateLoan } from "~/domain/loan-math";
import { axeViolations, waitForHydration } from "./harness";
import { mark, waitForMail } from "./helpers/mailbox";
import { PUBLIC_PAGE_PATHS } from "./helpers/public-paths";
import { e2eStackForFile } from "./helpers/stack";

/**
 * The calculator (docs/requirements.md §2, §5, §6, §10), the contact form (§7, §8) and the SEO plumbing
 * (sitemap.xml, robots.txt, canonical and Open Graph tags, structured data) against the built server.
 */

const PUBLIC_URL = "https://www.privateloans.example";
const LENDER = "lender.inbox@loans.example";

const stack = e2eStackForFile({ env: { LENDER_NOTIFY_EMAIL: LENDER, PUBLIC_URL } });

async function withPage<T>(options: { javaScriptEnabled?: boolean }, run: (page: Page, context: BrowserContext) => Promise<T>): Promise<T> {
  const context = await stack.browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: options.javaScriptEnabled ?? true });
  try {
    return await run(await context.newPage(), context);
  } finally {
    await context.close();
  }
}

async function open(page: Page, path: string) {
  await page.goto(`${stack.server.url}${path}`);
  await waitForHydration(page);
}

async function figures(page: Page) {
  return {
    monthly: await page.getByTestId("monthly-payment").textContent(),
    total: await page.getByTestId("total-payment").textContent(),
    interest: await page.getByTestId("total-interest").textContent(),
  };
}

function expected(amount: number, rate: number, term: number) {
  const e = estimateLoan(centsFromDollars(amount), rateFromPercent(rate), term)!;
  return { monthly: formatMoney(e.monthlyPaymentCents), total: formatMoney(e.totalPaymentCents), interest: formatMoney(e.totalInterestCents) };
}

describe("calculator", () => {
  it("shows the spec's default figures for 50,000 at 8.5 % over 60 months", async () => {
    await withPage({}, async (page) => {
      await open(page, "/calculator");
      await expect(page.getByLabel("Loan Amount").inputValue()).resolves.toBe("50,000");
      await expect(page.getByLabel("Interest Rate (%)").inputValue()).resolves.toBe("8.5");
      await expect(page.getByLabel("Loan Term").inputValue()).resolves.toBe("60");
      expect(await figures(page)).toEqual({ monthly: "$1,025.83", total: "$61,549.80", interest: "$11,549.80" });
      // Rate bounds on the input only, with the hint; the APR statement beside the results.
      const rate = page.getByLabel("Interest Rate (%)");
      expect(await rate.evaluate((el: HTMLInputElement) => [el.min, el.max, el.step])).toEqual(["5.99", "35.99", "0.01"]);
      await expect(page.getByText("Range: 5.99% - 35.99%").isVisible()).resolves.toBe(true);
      await expect(page.getByText(/Rates from 5\.99% to 35\.99% APR/).isVisible()).resolves.toBe(true);
      expect(await page.getByTestId("calculator-results").getAttribute("aria-live")).toBe("polite");
      const terms = await page.getByLabel("Loan Term").evaluate((el: HTMLSelectElement) => [...el.options].map((o) => Number(o.value)));
      expect(terms).toEqual([6, 12, 18, 24, 36, 48, 60, 84, 120, 180, 240, 300, 360]);
      // Page content: explanations and the estimates-only warning.
      for (const text of ["Monthly payment", "Total interest paid", "Total repayable", "Results are estimates only."]) {
        await expect(page.getByText(text, { exact: true }).first().isVisible(), text).resolves.toBe(true);
      }
    });
  });

  it("renders the default figures on the server too (no JavaScript needed to read them)", async () => {
    const html = await (await fetch(`${stack.server.url}/calculator`)).text();
    for (const figure of ["$1,025.83", "$61,549.80", "$11,549.80"]) expect(html).toContain(figure);
  });

  it("formats the amount as you type, keeps the caret, updates on rate and term, hides results at zero, and makes no requests", async () => {
    await withPage({}, async (page) => {
      await open(page, "/calculator");
      await page.waitForLoadState("networkidle");
      const requests: PwRequest[] = [];
      page.on("request", (r) => requests.push(r));

      const amount = page.getByLabel("Loan Amount");
      await amount.fill("");
      await amount.pressSequentially("1234567");
      expect(await amount.inputValue()).toBe("1,234,567");
      expect(await figures(page)).toEqual(expected(1_234_567, 8.5, 60));

      // Letters are refused; the caret stays after the same digit when a separator moves.
      await amount.fill("");
      await amount.pressSequentially("50000");
      await amount.press("Home");
      await amount.press("ArrowRight"); // after the "5"
      await amount.pressSequentially("1");
      expect(await amount.inputValue()).toBe("510,000");
      expect(await amount.evaluate((el: HTMLInputElement) => el.selectionStart)).toBe(2);
      await amount.pressSequentially("x");
      expect(await amount.inputValue()).toBe("510,000");
      expect(await amount.evaluate((el: HTMLInputElement) => el.selectionStart)).toBe(2);

      await page.getByLabel("Loan Term").selectOption("120");
      expect(await figures(page)).toEqual(expected(510_000, 8.5, 120));
      await page.getByLabel("Interest Rate (%)").fill("12.25");
      expect(await figures(page)).toEqual(expected(510_000, 12.25, 120));

      // The schedule: a year expands to its twelve months.
      const year1 = page.getByRole("button", { name: "Year 1", exact: true });
      expect(await year1.getAttribute("aria-expanded")).toBe("false");
      await year1.click();
      expect(await year1.getAttribute("aria-expanded")).toBe("true");
      const monthsId = (await year1.getAttribute("aria-controls"))!;
      const monthRows = page.locator(`[id="${monthsId}"] tr`);
      expect(await monthRows.count()).toBe(12);
      expect(await monthRows.first().locator("th").textContent()).toBe("Month 1");
      expect(await page.getByRole("button", { name: /^Year \d+$/ }).count()).toBe(10);
      await year1.click();
      expect(await page.locator(`[id="${monthsId}"]`).isHidden()).toBe(true);
      const schedule = page.getByTestId("amortization-schedule");
      expect(await page.getByRole("table", { name: "Amortization schedule" }).getAttribute("data-testid")).toBe("amortization-schedule");
      expect(await schedule.locator('thead th[scope="col"]').count()).toBe(5);
      const chartLabel = await page.getByRole("img", { name: /Principal versus interest by year over 10 years/ }).getAttribute("aria-label");
      expect(chartLabel).toContain(formatUsd(510_000));

      // The apply link carries the current estimate.
      const href = await page.getByRole("link", { name: "Apply Now with This Estimate" }).getAttribute("href");
      const url = new URL(href!, stack.server.url);
      expect(url.pathname).toBe("/apply");
      expect(Object.fromEntries(url.searchParams)).toEqual({
        loanAmount: "510000",
        interestRate: "12.25",
        loanTerm: "120",
        monthlyPayment: formatMoneyDecimal(estimateLoan(51_000_000, 12_250, 120)!.monthlyPaymentCents),
      });

      // Zero (or nothing) hides the results.
      await amount.fill("0");
      expect(await page.getByTestId("monthly-payment").count()).toBe(0);
      expect(await page.getByTestId("calculator-results").textContent()).toContain("Enter a loan amount above zero");
      await amount.fill("");
      expect(await page.getByTestId("monthly-payment").count()).toBe(0);
      await amount.pressSequentially("25000");
      expect(await figures(page)).toEqual(expected(25_000, 12.25, 120));

      await page.waitForTimeout(300);
      expect(requests.map((r) => `${r.method()} ${r.url()}`)).toEqual([]);
    });
  });

  it("has no axe violations (with a year expanded)", async () => {
    await withPage({}, async (page) => {
      await open(page, "/calculator");
      await page.getByRole("button", { name: "Year 2", exact: true }).click();
      expect(await axeViolations(page)).toEqual([]);
    });
  });
});

describe("contact", () => {
  it("sends a message: 'Sending...', success toast, fields cleared, the lender's e-mail delivered", async () => {
    await withPage({}, async (page) => {
      await open(page, "/contact");
      const before = mark(stack.sink);
      await page.getByLabel("Name", { exact: true }).fill("Jane Doe");
      await page.getByLabel("Email", { exact: true }).fill("jane.contact@example.com");
      const phone = page.getByLabel("Phone (optional)");
      await phone.pressSequentially("5551234567");
      expect(await phone.inputValue()).toBe("(555) 123-4567");
      await page.getByLabel("Subject", { exact: true }).fill("Bridge loan timing");
      await page.getByLabel("Message", { exact: true }).fill("How fast can a bridge loan close? <b>Thanks</b>");

      // Hold the post a moment to see the sending state.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route("**/contact.data*", async (route) => {
        await held;
        await route.continue();
      });
      await page.getByRole("button", { name: "Send Message" }).click();
      await page.getByRole("button", { name: "Sending..." }).waitFor();
      release();

      await page.getByText("Message sent! We'll get back to you within 24 hours.").waitFor();
      for (const label of ["Name", "Email", "Phone (optional)", "Subject", "Message"]) {
        expect(await page.getByLabel(label, { exact: true }).inputValue(), label).toBe("");
      }
      const mail = await waitForMail(stack.sink, { to: LENDER, subject: /Contact form: Bridge loan timing/, after: before });
      expect(mail.text).toContain("Jane Doe");
      expect(mail.text).toContain("jane.contact@example.com");
      expect(mail.text).toContain("(555) 123-4567");
      expect(mail.text).toContain("How fast can a bridge loan close? <b>Thanks</b>");
      expect(mail.html).toContain("&lt;b&gt;Thanks&lt;/b&gt;");
    });
  });

  it("checks required fields in the browser and sends nothing", async () => {
    await withPage({}, async (page) => {
      await open(page, "/contact");
      const before = mark(stack.sink);
      const posts: string[] = [];
      page.on("request", (r) => {
        if (r.method() === "POST") posts.push(r.url());
      });
      await page.getByLabel("Phone (optional)").pressSequentially("555");
      await page.getByRole("button", { name: "Send Message" }).click();
      for (const message of [
        "Please enter your name",
        "Please enter your email address",
        "Please enter a valid 10-digit phone number",
        "Please enter a subject",
        "Please enter your message",
      ]) {
        await expect(page.getByText(message).isVisible(), message).resolves.toBe(true);
      }
      expect(await page.getByLabel("Name", { exact: true }).getAttribute("aria-invalid")).toBe("true");
      expect(await page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("name");
      expect(await axeViolations(page)).toEqual([]);

      await page.getByLabel("Email", { exact: true }).fill("nope");
      await page.getByRole("button", { name: "Send Message" }).click();
      await page.getByText("Please enter a valid email address").waitFor();
      await page.waitForTimeout(300);
      expect(posts).toEqual([]);
      expect(stack.sink.messages.length).toBe(before);
    });
  });

  it("works without JavaScript: errors and values come back, then the success message", async () => {
    await withPage({ javaScriptEnabled: false }, async (page) => {
      await page.goto(`${stack.server.url}/contact`);
      await page.getByLabel("Name", { exact: true }).fill("No Script");
      await page.getByLabel("Email", { exact: true }).fill("noscript@example.com");
      await page.getByRole("button", { name: "Send Message" }).click();
      await page.waitForLoadState();
      await page.getByText("Please enter a subject").waitFor();
      expect(await page.getByLabel("Name", { exact: true }).inputValue()).toBe("No Script");
      await page.getByLabel("Subject", { exact: true }).fill("Plain form");
      await page.getByLabel("Message", { exact: true }).fill("Sent without scripts.");
      await page.getByRole("button", { name: "Send Message" }).click();
      await page.getByRole("status").getByText("Message sent! We'll get back to you within 24 hours.").waitFor();
      expect(await page.getByLabel("Name", { exact: true }).inputValue()).toBe("");
    });
  });

  it("shows the contact-info and call-now cards, and has no axe violations", async () => {
    await withPage({}, async (page) => {
      await open(page, "/contact");
      const main = page.locator("main");
      expect(await main.locator('a[href^="tel:"]').count()).toBeGreaterThanOrEqual(2);
      expect(await main.locator('a[href^="mailto:"]').count()).toBeGreaterThanOrEqual(1);
      const text = (await main.textContent()) ?? "";
      for (const part of ["Monday - Friday", "9:00 AM - 6:00 PM", "Saturday", "10:00 AM - 4:00 PM", "Sunday", "Closed", "Call Now"]) {
        expect(text, part).toContain(part);
      }
      // The honeypot is there for bots only.
      const trap = page.locator('input[name="company_website"]');
      expect(await trap.getAttribute("tabindex")).toBe("-1");
      expect(await trap.getAttribute("autocomplete")).toBe("off");
      expect(await trap.evaluate((el) => el.closest("[aria-hidden='true']") !== null)).toBe(true);
      expect(await axeViolations(page)).toEqual([]);
    });
  });

  // Last in this block: it uses up this IP's contact allowance.
  it("answers too many messages from one IP with a toast, not an error page, and keeps what was typed", async () => {
    const post = () =>
      fetch(`${stack.server.url}/contact`, {
        method: "POST",
        body: new URLSearchParams({ name: "Flood", email: "flood@example.com", subject: "Again", message: "And again" }),
      });
    // Post until the allowance is gone (earlier tests used some of it).
    for (let i = 0; i < 10 && (await post()).status !== 429; i++);
    await withPage({}, async (page) => {
      await open(page, "/contact");
      await page.getByLabel("Name", { exact: true }).fill("Patient Person");
      await page.getByLabel("Email", { exact: true }).fill("patient@example.com");
      await page.getByLabel("Subject", { exact: true }).fill("Hello");
      await page.getByLabel("Message", { exact: true }).fill("One more message");
      await page.getByRole("button", { name: "Send Message" }).click();
      await page.getByText(/^Too many attempts\. Please wait \d+ minutes? and try again\.$/).waitFor();
      expect(await page.getByText("Unexpected Application Error").count()).toBe(0);
      expect(await page.getByLabel("Name", { exact: true }).inputValue()).toBe("Patient Person");
    });
  });
});

describe("SEO", () => {
  it("serves sitemap.xml with every public page as an absolute URL", async () => {
    const res = await fetch(`${stack.server.url}/sitemap.xml`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/xml/);
    const xml = await res.text();
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>/);
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toEqual(PUBLIC_PAGE_PATHS.map((p) => `${PUBLIC_URL}${p}`));
    for (const hidden of ["/apply", "/auth", "/dashboard", "/admin"]) expect(xml).not.toContain(`${PUBLIC_URL}${hidden}<`);
  });

  it("serves robots.txt allowing the site, keeping crawlers out of private areas, naming the sitemap", async () => {
    const res = await fetch(`${stack.server.url}/robots.txt`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toContain("User-agent: *\nAllow: /\n");
    for (const path of ["/dashboard", "/admin", "/dev", "/api"]) expect(text).toContain(`Disallow: ${path}\n`);
    // The ways in (sign in, apply) may be found by a search: a crawler only ever sees the sign-in page.
    for (const path of ["/apply", "/auth"]) expect(text).not.toContain(`Disallow: ${path}`);
    expect(text).toContain(`Sitemap: ${PUBLIC_URL}/sitemap.xml`);
  });

  it("puts a canonical link, Open Graph tags and Organization/FinancialService JSON-LD in the head", async () => {
    await withPage({}, async (page) => {
      await open(page, "/calculator?loanAmount=1");
      const head = page.locator("head");
      const og = (property: string) => head.locator(`meta[property="${property}"]`).getAttribute("content");
      expect(await head.locator('link[rel="canonical"]').getAttribute("href")).toBe(`${PUBLIC_URL}/calculator`);
      expect(await og("og:url")).toBe(`${PUBLIC_URL}/calculator`);
      expect(await og("og:title")).toBe(await page.title());
      expect(await og("og:title")).toBe("Loan Calculator | Private Loans");
      expect(await og("og:description")).toBe(await head.locator('meta[name="description"]').getAttribute("content"));
      expect(await og("og:type")).toBe("website");
      expect(await og("og:site_name")).toBe("Private Loans");

      const jsonLd = JSON.parse((await head.locator('script[type="application/ld+json"]').textContent())!) as {
        "@graph": Record<string, unknown>[];
      };
      const types = jsonLd["@graph"].map((n) => n["@type"]);
      expect(types).toEqual(["Organization", "FinancialService"]);
      const service = jsonLd["@graph"][1]!;
      expect(service).toMatchObject({
        name: "Private Loans",
        url: `${PUBLIC_URL}/`,
        telephone: expect.stringMatching(/^\+1\d{10}$/),
        address: { "@type": "PostalAddress", addressCountry: "US" },
        openingHours: ["Mo-Fr 09:00-18:00", "Sa 10:00-16:00"],
      });

      // A client-side navigation moves the canonical URL along.
      await page.locator("header").getByRole("link", { name: "Contact", exact: true }).first().click();
      await page.waitForURL(`${stack.server.url}/contact`);
      await page.waitForFunction((url) => document.querySelector('link[rel="canonical"]')?.getAttribute("href") === url, `${PUBLIC_URL}/contact`);
      expect(await og("og:title")).toBe("Contact Us | Private Loans");
      expect(await head.locator('link[rel="canonical"]').count()).toBe(1);
    });
  });

  it("gives the 404 page no canonical URL", async () => {
    const html = await (await fetch(`${stack.server.url}/no-such-page`)).text();
    expect(html).not.toContain('rel="canonical"');
    expect(html).toContain("application/ld+json");
  });
});
