import { randomBytes } from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { createCookie } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, launchBrowser, startTestServer, waitForHydration, type TestServer } from "./harness";
import { FOOTER_SERVICE_PATHS, LEGAL_PATHS } from "./helpers/public-paths";

/**
 * The shared layout (docs/requirements.md §2): header, footer, mobile menu, page-transition overlay, 404 page,
 * toasts from the one-time cookie, CSP cleanliness and accessibility.
 */

const MAIN_LINKS = [
  ["/", "Home"],
  ["/about", "About Us"],
  ["/services", "Loan Services"],
  ["/calculator", "Calculator"],
  ["/how-it-works", "How It Works"],
  ["/testimonials", "Testimonials"],
  ["/faq", "FAQs"],
  ["/contact", "Contact"],
];

const FOOTER_LINKS = ["/about", "/services", "/calculator", "/testimonials", "/faq", ...FOOTER_SERVICE_PATHS, ...LEGAL_PATHS];

const TRANSITION_MS = 1000;
const appSecret = randomBytes(32).toString("base64url");

let browser: Browser;
let plain: TestServer; // TRANSITION_MS=0: no overlay in the way
let animated: TestServer; // TRANSITION_MS=1000

beforeAll(async () => {
  [plain, animated, browser] = await Promise.all([
    startTestServer({ TRANSITION_MS: "0", APP_SECRET: appSecret }),
    startTestServer({ TRANSITION_MS: String(TRANSITION_MS) }),
    launchBrowser(),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await Promise.all([plain?.stop(), animated?.stop()]);
});

async function withPage<T>(
  options: { width?: number; height?: number; javaScriptEnabled?: boolean; reducedMotion?: "reduce" | "no-preference" },
  run: (page: Page, context: BrowserContext) => Promise<T>,
): Promise<T> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    reducedMotion: options.reducedMotion ?? "no-preference",
  });
  try {
    return await run(await context.newPage(), context);
  } finally {
    await context.close();
  }
}

describe("header", () => {
  it("has the main links in order, the current page marked, a phone link and Apply Now to /auth", async () => {
    await withPage({}, async (page) => {
      await page.goto(`${plain.url}/about`);
      const nav = page.getByRole("navigation", { name: "Main" });
      const links = nav.getByRole("link");
      expect(await links.count()).toBe(MAIN_LINKS.length);
      for (const [i, [href, label]] of MAIN_LINKS.entries()) {
        await expect.poll(() => links.nth(i).getAttribute("href")).toBe(href);
        expect((await links.nth(i).innerText()).trim()).toBe(label);
      }
      expect(await nav.getByRole("link", { name: "About Us" }).getAttribute("aria-current")).toBe("page");
      expect(await nav.getByRole("link", { name: "Home" }).getAttribute("aria-current")).toBeNull();

      const phone = page.locator('header a[href^="tel:"]');
      await expect.poll(() => phone.isVisible()).toBe(true);
      expect(await phone.getAttribute("href")).toMatch(/^tel:\+1\d{10}$/);

      expect(await page.locator("main#main").count()).toBe(1);
      expect(await page.locator('a[href="#main"]', { hasText: "Skip to main content" }).count()).toBe(1);

      await waitForHydration(page);
      await page.locator("header").getByRole("link", { name: "Apply Now" }).click();
      await page.waitForURL((url) => url.pathname === "/auth");
    });
  });

  it("the skip link is the first tab stop and moves focus to the main content", async () => {
    await withPage({}, async (page) => {
      await page.goto(`${plain.url}/`);
      await waitForHydration(page);
      await page.keyboard.press("Tab");
      const focused = page.locator(":focus");
      expect(await focused.innerText()).toBe("Skip to main content");
      expect(await focused.isVisible()).toBe(true);
      await page.keyboard.press("Enter");
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("main");
    });
  });

  it("collapses into a mobile menu at 375 px: opens, closes on Escape with focus back, closes on navigation", async () => {
    await withPage({ width: 375, height: 700 }, async (page) => {
      await page.goto(`${plain.url}/`);
      await waitForHydration(page);
      // The desktop navigation is not shown at this width.
      expect(await page.getByRole("navigation", { name: "Main" }).count()).toBe(0);

      const toggle = page.getByRole("button", { name: "Open menu" });
      expect(await toggle.getAttribute("aria-expanded")).toBe("false");
      const panelId = await toggle.getAttribute("aria-controls");
      expect(panelId).toBeTruthy();
      const panel = page.locator(`[id="${panelId}"]`);
      expect(await panel.isVisible()).toBe(false);

      await toggle.click();
      const close = page.getByRole("button", { name: "Close menu" });
      await expect.poll(() => close.getAttribute("aria-expanded")).toBe("true");
      expect(await panel.isVisible()).toBe(true);
      const menuLinks = panel.getByRole("navigation", { name: "Main" }).getByRole("link");
      expect(await menuLinks.allInnerTexts()).toEqual(MAIN_LINKS.map(([, label]) => label));
      expect(await panel.getByRole("link", { name: "Apply Now" }).getAttribute("href")).toBe("/auth?redirectTo=/apply");

      // Escape closes and returns focus to the toggle.
      await menuLinks.nth(2).focus();
      await page.keyboard.press("Escape");
      await expect.poll(() => panel.isVisible()).toBe(false);
      expect(await toggle.getAttribute("aria-expanded")).toBe("false");
      expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Open menu");

      // Following a link closes the menu.
      await toggle.click();
      await expect.poll(() => panel.isVisible()).toBe(true);
      await panel.getByRole("link", { name: "FAQs" }).click();
      await page.waitForURL((url) => url.pathname === "/faq");
      await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toBe("Frequently Asked Questions");
      await expect.poll(() => panel.isVisible()).toBe(false);
      // Focus was in the menu, so it goes back to the toggle rather than being lost.
      expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Open menu");
    });
  });
});

describe("footer", () => {
  it("links to exactly the spec's pages (not home improvement) and shows the contact facts and the current year", async () => {
    await withPage({}, async (page) => {
      await page.goto(`${plain.url}/`);
      const nav = page.getByRole("navigation", { name: "Footer" });
      const hrefs = await nav.getByRole("link").evaluateAll((els) => els.map((a) => a.getAttribute("href")));
      expect([...hrefs].sort()).toEqual([...FOOTER_LINKS].sort());
      expect(await page.locator('footer a[href="/services/home-improvement"]').count()).toBe(0);

      const footer = page.locator("footer");
      const text = await footer.innerText();
      expect(text).toContain("Your Trusted Private Lending Partner");
      expect(text).toContain("Trusted Lending. Transparent Solutions.");
      expect(text).toContain(`© ${new Date().getFullYear()} Private Loans. All rights reserved.`);
      expect(await footer.locator('a[href^="tel:+1"]').count()).toBe(1);
      expect(await footer.locator('a[href^="mailto:"]').count()).toBe(1);
      expect(await footer.locator("address").innerText()).toMatch(/\b[A-Z]{2} \d{5}$/);
    });
  });
});

describe("page-transition overlay", () => {
  it("is in the first HTML, shows its three texts, marks the content busy, then goes away", async () => {
    await withPage({}, async (page) => {
      const response = await page.goto(`${animated.url}/`, { waitUntil: "commit" });
      const html = await response!.text();
      expect(html).toContain('data-testid="transition-overlay"');
      // The content beneath is busy from the first byte, not only once scripts run.
      expect(html).toMatch(/<div class="[^"]*" aria-busy="true">/);
      const overlay = page.getByTestId("transition-overlay");
      await overlay.waitFor({ state: "visible" });
      // Its words as the document holds them: on a loaded machine the CSS fade may already have hidden it
      // (innerText of a hidden element is empty) by the time the test reads it.
      const text = (await overlay.textContent()) ?? "";
      expect(text).toContain("Trusted Lending");
      expect(text).toContain("Private Loans");
      expect(text).toContain("Loading your secure connection...");
      expect(await overlay.getByRole("status").count()).toBe(1);
      // Read with the page's own clock in one step: on a loaded machine the configured time may already
      // have passed by now, and then the content is rightly no longer busy.
      const early = await page.evaluate((ms) => ({ covering: performance.now() < ms - 100, busy: document.querySelectorAll("[aria-busy=true]").length }), TRANSITION_MS);
      if (early.covering) expect(early.busy).toBe(1);

      await overlay.waitFor({ state: "hidden", timeout: TRANSITION_MS + 3000 });
      // It stayed for at least the configured time, counted from the navigation start on the page's own
      // clock (a clock started by the test after its checks above measured the test's speed under load).
      expect(await page.evaluate(() => performance.now())).toBeGreaterThanOrEqual(TRANSITION_MS);
      await expect.poll(() => page.locator("[aria-busy=true]").count()).toBe(0);
      // Removed from the DOM once the fade is over.
      await expect.poll(() => overlay.count(), { timeout: 3000 }).toBe(0);
    });
  });

  it("shows again on a client-side path change and scrolls to the top", async () => {
    await withPage({ width: 375, height: 600 }, async (page) => {
      await page.goto(`${animated.url}/`);
      const overlay = page.getByTestId("transition-overlay");
      await expect.poll(() => overlay.count(), { timeout: TRANSITION_MS + 3000 }).toBe(0);

      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
      await page.locator("footer").getByRole("link", { name: "About Us" }).click();
      await page.waitForURL((url) => url.pathname === "/about");
      await overlay.waitFor({ state: "visible", timeout: TRANSITION_MS / 2 });
      expect((await overlay.textContent()) ?? "").toContain("Loading your secure connection...");
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe("About Private Loans");
      // Read with the page's own clock in one step: on a loaded machine the configured time may already
      // have passed by now, and then the content is rightly no longer busy.
      const early = await page.evaluate((ms) => ({ covering: performance.now() < ms - 100, busy: document.querySelectorAll("[aria-busy=true]").length }), TRANSITION_MS);
      if (early.covering) expect(early.busy).toBe(1);
      await overlay.waitFor({ state: "hidden", timeout: TRANSITION_MS + 3000 });
      await expect.poll(() => page.locator("[aria-busy=true]").count()).toBe(0);
    });
  });

  it("is not shown at all with TRANSITION_MS=0", async () => {
    await withPage({}, async (page) => {
      const response = await page.goto(`${plain.url}/`);
      expect(await response!.text()).not.toContain("transition-overlay");
      expect(await page.getByTestId("transition-overlay").count()).toBe(0);
      expect(await page.locator("[aria-busy]").count()).toBe(0);
      await waitForHydration(page);
      await page.locator("header").getByRole("link", { name: "Contact" }).click();
      await page.waitForURL((url) => url.pathname === "/contact");
      await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toBe("Contact Us");
      expect(await page.getByTestId("transition-overlay").count()).toBe(0);
    });
  });

  it("hides itself through CSS alone when scripts do not run", async () => {
    await withPage({ javaScriptEnabled: false }, async (page) => {
      await page.goto(`${animated.url}/about`);
      const overlay = page.getByTestId("transition-overlay");
      expect(await overlay.isVisible()).toBe(true);
      await overlay.waitFor({ state: "hidden", timeout: TRANSITION_MS + 3000 });
      expect(await page.getByRole("heading", { level: 1 }).isVisible()).toBe(true);
    });
  });

  it("with reduced motion keeps the delay but does not spin", async () => {
    await withPage({ reducedMotion: "reduce" }, async (page) => {
      // Read the spinner as soon as it is in the document (waiting for the load event first raced the
      // overlay's own timer on a loaded machine: it could be gone already).
      await page.goto(`${animated.url}/`, { waitUntil: "commit" });
      const overlay = page.getByTestId("transition-overlay");
      // One check in the page, once the stylesheet applies to the spinner (size-24: 96px; the SVG's own
      // attribute says 24): the overlay's own code, which removes it, runs only after the stylesheet.
      const spin = await page.waitForFunction(
        () => {
          const el = document.querySelector("[data-testid=transition-overlay] svg.animate-spin");
          if (!el?.isConnected) return null;
          const style = getComputedStyle(el);
          return style.width === "96px" ? style.animationName : null;
        },
        null,
        { polling: "raf", timeout: 10_000 },
      );
      expect(await spin.jsonValue()).toBe("none");
      await overlay.waitFor({ state: "hidden", timeout: TRANSITION_MS + 10_000 });
      // The delay is kept: hidden no earlier than the configured time after the navigation started,
      // on the page's own clock.
      expect(await page.evaluate(() => performance.now())).toBeGreaterThanOrEqual(TRANSITION_MS);
    });
  });
});

describe("404 and errors", () => {
  it("answers an unknown path with status 404 and the spec's page inside the layout", async () => {
    await withPage({}, async (page) => {
      const response = await page.goto(`${plain.url}/no-such-page`);
      expect(response!.status()).toBe(404);
      expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe("404");
      expect(await page.getByText("Oops! Page not found").isVisible()).toBe(true);
      expect(await page.title()).toContain("Page Not Found");
      expect(await page.locator("header").count()).toBe(1);
      expect(await page.locator("footer").count()).toBe(1);

      await waitForHydration(page);
      await page.getByRole("link", { name: "Return to Home" }).click();
      await page.waitForURL((url) => url.pathname === "/");
      await page.getByRole("heading", { level: 1, name: "Private Loans", exact: true }).waitFor();
    });
  });
});

describe("protected pages", () => {
  it("send visitors to /auth and remember where they were going", async () => {
    for (const path of ["/dashboard", "/apply?loanAmount=50000", "/admin", "/admin/clients", "/admin/documents", "/admin/monitoring", "/admin/security"]) {
      const res = await fetch(`${plain.url}${path}`, { redirect: "manual" });
      expect(res.status, path).toBe(302);
      const location = new URL(res.headers.get("location")!, plain.url);
      expect(location.pathname).toBe("/auth");
      expect(location.searchParams.get("redirectTo")).toBe(path);
    }
  });
});

describe("toasts", () => {
  const toastCookie = createCookie("pl_toast", { path: "/", httpOnly: true, sameSite: "lax", secrets: [appSecret] });

  async function setCookie(context: BrowserContext, header: string) {
    const [pair] = header.split(";");
    const [name, ...value] = pair!.split("=");
    await context.addCookies([{ name: name!, value: value.join("="), url: plain.url }]);
  }

  it("shows a toast from the one-time cookie once, in the 'Notifications' region", async () => {
    await withPage({}, async (page, context) => {
      await setCookie(
        context,
        await toastCookie.serialize({
          type: "success",
          title: "Signed Out",
          description: "You have been successfully signed out",
        }),
      );
      await page.goto(`${plain.url}/`);
      const region = page.locator('section[aria-label^="Notifications"]');
      const toast = region.locator("[data-sonner-toast]");
      await toast.waitFor({ state: "visible" });
      expect(await toast.innerText()).toContain("Signed Out");
      expect(await toast.innerText()).toContain("You have been successfully signed out");
      expect(await toast.getAttribute("data-type")).toBe("success");
      // The cookie was cleared: a reload shows nothing.
      expect((await context.cookies()).some((c) => c.name === "pl_toast" && c.value !== "")).toBe(false);
      await page.reload();
      await waitForHydration(page);
      await page.waitForTimeout(300);
      expect(await region.locator("[data-sonner-toast]").count()).toBe(0);
    });
  });

  it("ignores a forged or malformed cookie", async () => {
    const forged = createCookie("pl_toast", { path: "/", secrets: ["not-the-app-secret-not-the-app-secret"] });
    const malformed = createCookie("pl_toast", { path: "/", secrets: [appSecret] });
    for (const header of [
      await forged.serialize({ type: "error", title: "Forged" }),
      await malformed.serialize({ type: "nonsense", title: 42 }),
    ]) {
      await withPage({}, async (page, context) => {
        await setCookie(context, header);
        await page.goto(`${plain.url}/`);
        await waitForHydration(page);
        await page.waitForTimeout(300);
        expect(await page.locator("[data-sonner-toast]").count()).toBe(0);
      });
    }
  });
});

describe("security and accessibility", () => {
  it("the home page runs with no CSP violation or script error", async () => {
    await withPage({}, async (page) => {
      const problems: string[] = [];
      page.on("console", (m) => {
        if (/Content Security Policy|Refused to (execute|load|apply)/i.test(m.text())) problems.push(m.text());
      });
      page.on("pageerror", (e) => problems.push(e.message));
      await page.goto(`${plain.url}/`);
      await waitForHydration(page);
      // Hydrated and interactive: a client-side navigation works.
      await page.locator("header").getByRole("link", { name: "About Us" }).click();
      await page.waitForURL((url) => url.pathname === "/about");
      await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toBe("About Private Loans");
      expect(problems).toEqual([]);
    });
  });

  for (const [name, path, width] of [
    ["home at 1280 px", "/", 1280],
    ["home at 375 px", "/", 375],
    ["404 page", "/no-such-page", 1280],
  ] as const) {
    it(`axe-core finds no violations on the ${name}`, async () => {
      await withPage({ width }, async (page) => {
        await page.goto(`${plain.url}${path}`);
        await waitForHydration(page);
        expect(await axeViolations(page)).toEqual([]);
      });
    });
  }

  it("axe-core finds no violations with the mobile menu open", async () => {
    await withPage({ width: 375 }, async (page) => {
      await page.goto(`${plain.url}/`);
      await waitForHydration(page);
      await page.getByRole("button", { name: "Open menu" }).click();
      await page.getByRole("button", { name: "Close menu" }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
    });
  });
});
