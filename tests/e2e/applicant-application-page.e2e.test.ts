import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { toBrowserCookies } from "../helpers/applicants";
import { submitApplication } from "../helpers/applications";
import { axeViolations, waitForHydration } from "./harness";
import { openWatchedPage } from "./helpers/pages";
import { e2eStackForFile } from "./helpers/stack";

/**
 * The applicant's application page (/dashboard/applications/:id, issue 19) in a real browser: opened
 * from the dashboard card, its summary and Application Timeline, axe-clean and usable at 390 px;
 * another applicant's id, a malformed id and staff get the 404 page; and a decision staff make over
 * HTTP (POST /admin, approve, after the second factor) appears on the open page without a reload,
 * through the live-update stream.
 */

const ADMIN = { email: "page.reviewer@example.com", password: "Rev1ewer!Passw0rd" };
const stack = e2eStackForFile({ firstIp: 60, admin: ADMIN });

let jane = "";
let john = "";
let janeApp = "";

/** A staff session past the second factor (one for the file: a TOTP code works once per 30 s step). */
const adminSession = stack.adminSession;

beforeAll(async () => {
  jane = await stack.signUp("jane.page@example.com", "Jane Page");
  john = await stack.signUp("john.page@example.com", "John Page");
  janeApp = await submitApplication(stack.server.url, jane, { ip: stack.nextIp(), fields: { loanPurpose: "Replacing the roof and gutters of our house" } });
});

const open = (cookie: string, width = 1280) => openWatchedPage(stack.browser, { cookies: cookie ? toBrowserCookies(cookie, stack.server.url) : [], width });
const pageUrl = (id: string) => `${stack.server.url}/dashboard/applications/${id}`;
const timelineTitles = (page: Page) => page.getByTestId("application-timeline").locator("li > p:first-of-type").allTextContents();

describe("the applicant's application page", () => {
  it("opens from the dashboard card: heading, status, summary, timeline with Submitted, both panels, documents (axe-clean)", async () => {
    const { context, page, errors } = await open(jane);
    await page.goto(`${stack.server.url}/dashboard`);
    await waitForHydration(page);
    const card = page.locator(`[data-application-id="${janeApp}"]`);
    await card.getByRole("link", { name: /^View Application/ }).click();
    await page.waitForURL(pageUrl(janeApp));
    const reference = janeApp.slice(0, 8);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe(`Application ${reference}`);
    expect(await page.title()).toContain(`Application ${reference}`);
    const badge = page.locator("header [data-status]");
    expect(await badge.textContent()).toBe("Pending");
    expect(await badge.getAttribute("data-tone")).toBe("yellow");

    const summary = (await page.getByTestId("application-summary").textContent()) ?? "";
    for (const expected of ["Personal Loan", "Replacing the roof and gutters of our house", reference]) expect(summary).toContain(expected);
    expect(await timelineTitles(page)).toEqual(["Submitted"]);
    await page.getByRole("heading", { level: 2, name: "What We Need" }).waitFor();
    await page.getByRole("heading", { level: 2, name: "Messages" }).waitFor();
    expect(await page.getByTestId("application-documents").getByRole("listitem").count()).toBeGreaterThanOrEqual(7);

    // Nothing sensitive in what the browser received (the page's HTML and its data).
    const html = await page.content();
    for (const hidden of ["123-45-6789", "123456789", "enc:v1"]) expect(html).not.toContain(hidden);

    // Breadcrumbs lead back to the dashboard.
    const crumbs = page.getByRole("navigation", { name: "Breadcrumb" });
    expect(await crumbs.getByRole("link", { name: "Dashboard" }).getAttribute("href")).toBe("/dashboard");
    expect(await crumbs.locator("[aria-current=page]").textContent()).toBe(`Application ${reference}`);
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("fits a 390 px phone without sideways scrolling (axe-clean)", async () => {
    const { context, page, errors } = await open(jane, 390);
    await page.goto(pageUrl(janeApp));
    await waitForHydration(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  // Decision 0052: the typeface arrives after the first paint (font-display: swap). At 412 px (Lighthouse's
  // phone) the status badge used to fit beside the title in the fallback font and not in Inter, so the
  // whole page moved down a line when Inter arrived (cumulative layout shift 0.26). The page must be laid
  // out the same with and without the web fonts.
  it("keeps its layout when the typeface arrives (phone widths)", async () => {
    const blocks = async (width: number, fonts: boolean) => {
      const { context, page } = await open(jane, width);
      if (!fonts) await page.route("**/*.woff2", (route) => route.abort());
      await page.goto(pageUrl(janeApp));
      await waitForHydration(page);
      if (fonts) await page.evaluate(() => document.fonts.ready.then(() => undefined));
      const tops = await page.evaluate(() =>
        ["application-summary", "what-we-need"].map((id) => Math.round(document.querySelector(`[data-testid="${id}"]`)!.getBoundingClientRect().top)),
      );
      await context.close();
      return tops;
    };
    for (const width of [400, 412]) expect(await blocks(width, true), `${width} px`).toEqual(await blocks(width, false));
  });

  it("is the 404 page for another applicant's id, a malformed id and staff; a visitor is sent to sign in", async () => {
    const admin = await adminSession();
    for (const [cookie, url] of [
      [john, pageUrl(janeApp)],
      [jane, pageUrl("not-a-uuid")],
      [jane, pageUrl(janeApp.replace(/^.{8}/, "00000000"))],
      [admin, pageUrl(janeApp)],
    ] as const) {
      const { context, page } = await open(cookie);
      const res = await page.goto(url);
      expect(res?.status(), url).toBe(404);
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("404");
      const text = (await page.locator("main").textContent()) ?? "";
      expect(text).toContain("Oops! Page not found");
      expect(text).not.toContain("Replacing the roof");
      expect(text).not.toContain("Application Timeline");
      await context.close();
    }
    const { context, page } = await open("");
    await page.goto(pageUrl(janeApp));
    expect(new URL(page.url()).pathname).toBe("/auth");
    expect(new URL(page.url()).searchParams.get("redirectTo")).toBe(`/dashboard/applications/${janeApp}`);
    await context.close();
  });

  it("shows a decision staff make over HTTP live: the badge and the timeline change without a reload", async () => {
    const { context, page, errors } = await open(jane);
    const stream = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/events" && r.status() === 200);
    await page.goto(pageUrl(janeApp));
    await waitForHydration(page);
    await stream;
    await page.evaluate(() => ((window as unknown as { __noReload: string }).__noReload = "still here"));

    const admin = await adminSession();
    const approve = await fetch(`${stack.server.url}/admin`, {
      method: "POST",
      body: new URLSearchParams({ intent: "approve", applicationId: janeApp, approvedAmount: "20000", interestRate: "9.5", termMonths: "36", originationFeePercent: "1", counterofferReasons: "Insufficient income" }),
      headers: { cookie: admin, origin: stack.server.url },
      redirect: "manual",
    });
    expect(approve.status).toBe(200);

    const badge = page.locator("header [data-status]");
    await expect.poll(() => badge.textContent(), { timeout: 20_000 }).toBe("Approved");
    expect(await badge.getAttribute("data-tone")).toBe("green");
    expect(await timelineTitles(page)).toEqual(["Loan Offer Made", "Approved", "Submitted"]);
    // Staff appear as the lender, never by name.
    const timeline = (await page.getByTestId("application-timeline").textContent()) ?? "";
    expect(timeline).toContain("Private Loans");
    expect(timeline).not.toContain(ADMIN.email);
    expect(timeline).not.toContain("Administrator");
    expect(await page.evaluate(() => (window as unknown as { __noReload?: string }).__noReload)).toBe("still here");
    expect(errors).toEqual([]);
    await context.close();
  });
});
