import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { user as userTable } from "~/server/platform/db/schema.server";
import { approveApplication } from "~/server/applications/reviews.server";
import { toBrowserCookies } from "../helpers/applicants";
import { submitApplication as submitValidApplication } from "../helpers/applications";
import { axeViolations } from "./harness";
import { waitForMail } from "./helpers/mailbox";
import { openWatchedPage } from "./helpers/pages";
import { e2eStackForFile } from "./helpers/stack";

/**
 * /dashboard in a real browser against the built server on PostgreSQL (docs/requirements.md §3, §5, §8): empty
 * states and the funding note, an application submitted over HTTP listed with its badge and details,
 * an approval made through the server's review code arriving live (no page reload), isolation between
 * applicants, the guard, and axe on the empty and the filled page.
 *
 * The test process opens its own connection to the same scratch database and calls approveApplication:
 * the database trigger's NOTIFY reaches the server's LISTEN and from there the browser's event stream.
 */

const PASSWORD = "Str0ng!Passw0rd";
const ADMIN_EMAIL = "reviewer@example.com";

// The live-approval case needs the server's database in this process (startSharedStack).
const stack = e2eStackForFile({ firstIp: 20, env: { TRUST_PROXY: "true", ADMIN_EMAIL, ADMIN_PASSWORD: "Rev1ewer!Passw0rd" }, shared: "portal-dashboard-e2e-" });

/** Signs up over HTTP like the browser does (mailed code, solved ALTCHA); returns the session cookie. */
async function signUp(email: string, fullName: string): Promise<{ name: string; value: string }> {
  const [pair] = toBrowserCookies(await stack.signUp(email, fullName, PASSWORD), stack.server.url);
  if (!pair?.value) throw new Error("no session cookie after sign-up");
  return { name: pair.name, value: pair.value };
}

/** POST /api/applications with the fixtures (multipart), as the wizard sends it; returns the new id. */
const submitApplication = (cookie: { name: string; value: string }, fields: Record<string, string> = {}) =>
  submitValidApplication(stack.server.url, `${cookie.name}=${cookie.value}`, { fields, ip: stack.nextIp() });

/** A fresh browser context (signed in when given a cookie); `errors` collects console errors and page errors. */
const newPage = (cookie?: { name: string; value: string }, width = 1280) =>
  openWatchedPage(stack.browser, { cookies: cookie ? [{ ...cookie, url: stack.server.url }] : [], width });

/** Opens /dashboard and waits until the page is hydrated and its live stream is connected. */
async function openDashboard(page: Page) {
  const stream = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/events" && r.status() === 200);
  const res = await page.goto(`${stack.server.url}/dashboard`);
  expect(res?.status()).toBe(200);
  await stream;
}

const applicationsList = (page: Page) => page.getByRole("list", { name: "Your loan applications" });
const loansList = (page: Page) => page.getByRole("list", { name: "Your approved loans" });

describe("the applicant dashboard", () => {
  let jane: { name: string; value: string };
  let olderId: string;
  let newerId: string;

  it("sends a visitor to /auth", async () => {
    const { context, page } = await newPage();
    await page.goto(`${stack.server.url}/dashboard`);
    expect(new URL(page.url()).pathname).toBe("/auth");
    expect(new URL(page.url()).searchParams.get("redirectTo")).toBe("/dashboard");
    await context.close();
  });

  it("greets a new applicant and shows both empty states and the funding note (axe-clean)", async () => {
    jane = await signUp("jane.doe@example.com", "Jane Doe");
    const { context, page, errors } = await newPage(jane);
    await openDashboard(page);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Welcome, Jane Doe");
    await page.getByRole("heading", { level: 2, name: "Approved Loans" }).waitFor();
    await page.getByRole("heading", { level: 2, name: "Loan Applications" }).waitFor();
    await page.getByRole("heading", { name: "No Approved Loans Yet" }).waitFor();
    expect(await page.getByRole("link", { name: "Apply Now" }).getAttribute("href")).toBe("/apply");
    expect(await page.getByRole("link", { name: "Apply for New Loan" }).getAttribute("href")).toBe("/apply");
    await page.getByText("No applications submitted yet").waitFor();
    const note = (await page.getByRole("note").textContent()) ?? "";
    expect(note).toContain("1-3 business days");
    expect(note).toContain("Loan Origination Fee Compliance");
    expect(await page.getByRole("status").filter({ hasText: "Loan Approved!" }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("lists submitted applications newest first, pending in yellow, with a details dialog (axe-clean)", async () => {
    olderId = await submitApplication(jane);
    newerId = await submitApplication(jane, { loanAmount: "20,000", loanPurpose: "Replacing the roof before the winter" });
    const { context, page, errors } = await newPage(jane);
    await openDashboard(page);

    const items = applicationsList(page).locator("[data-application-id]");
    expect(await items.count()).toBe(2);
    expect(await items.nth(0).getAttribute("data-application-id")).toBe(newerId);
    expect(await items.nth(1).getAttribute("data-application-id")).toBe(olderId);

    const older = page.locator(`[data-application-id="${olderId}"]`);
    const text = (await older.textContent()) ?? "";
    expect(text).toContain("Personal Loan");
    expect(text).not.toContain("Personal Loans");
    expect(text).toContain("$50,000");
    expect(text).toContain("Consolidating two credit cards into one payment");
    const today = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone) }).format(new Date());
    expect(text).toContain(today);
    const badge = older.locator("[data-status]");
    expect(await badge.textContent()).toBe("Pending");
    expect(await badge.getAttribute("data-tone")).toBe("yellow");
    expect(await badge.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe("rgba(0, 0, 0, 0)");
    expect(await page.getByText("No Approved Loans Yet").count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);

    // The card's reference and the detail view: the id cut to 8 characters, the facts, the documents by name.
    expect(text).toContain(`Reference: ${olderId.slice(0, 8)}…`);
    expect(text).not.toContain(olderId);
    await older.getByRole("button", { name: /^View Details/ }).click();
    const dialog = page.getByRole("dialog", { name: "Application Details" });
    await dialog.waitFor();
    const details = (await dialog.textContent()) ?? "";
    expect(details).toContain(`Application ID: ${olderId.slice(0, 8)}…`);
    expect(details).not.toContain(olderId);
    for (const expected of ["Pending", "Personal Loan", "$50,000", "Consolidating two credit cards into one payment", today]) {
      expect(details).toContain(expected);
    }
    // Each name is followed by its Download button (issue 18 item 12: dashboard-documents tests cover the link).
    const names = (await dialog.getByRole("list", { name: "Documents submitted" }).getByRole("listitem").allTextContents()).map((n) => n.replace(/Download .*$/, ""));
    expect(names.sort()).toEqual(
      ["back.png", "bill.pdf", "feb.pdf", "front.jpg", "jan.pdf", "mar.pdf", "signature.png"],
    );
    expect(await dialog.locator("a, img, iframe, object, embed").count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    expect(errors).toEqual([]);
    await context.close();
  });

  it("fits a 320 px wide screen without sideways scrolling", async () => {
    const { context, page } = await newPage(jane, 320);
    await openDashboard(page);
    await applicationsList(page).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await page.locator(`[data-application-id="${olderId}"]`).getByRole("button", { name: /^View Details/ }).click();
    const box = await page.getByRole("dialog").boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(320);
    await context.close();
  });

  it("shows a counteroffer live as 'Counteroffer' (page, toast, e-mail), an approval on the terms asked as 'Loan Approved!', without a reload; others see nothing", async () => {
    const { context, page, errors } = await newPage(jane);
    await openDashboard(page);
    // A second applicant's dashboard is open at the same time.
    const john = await signUp("john.roe@example.com", "John Roe");
    const other = await newPage(john);
    await openDashboard(other.page);

    await page.evaluate(() => ((window as unknown as { __noReload: string }).__noReload = "still here"));
    const [admin] = await stack.database.db.select().from(userTable).where(eq(userTable.email, ADMIN_EMAIL));
    expect(admin).toBeTruthy();
    await approveApplication(
      olderId,
      // Less than the $50,000 requested: a Counteroffer (issue 20), so it names its reason.
      { approvedAmountCents: 4_500_000, interestRateMilli: 8500, termMonths: 60, counterofferReasons: ["Insufficient income"] },
      { actor: { id: admin!.id, name: admin!.name, email: admin!.email }, request: { ip: "127.0.0.1", userAgent: "dashboard e2e" } },
      stack.database.db,
    );

    // Less than asked for is a counteroffer, and is announced as one: never 'Loan Approved!'.
    const counterNotice = page.getByRole("status").filter({ hasText: "Counteroffer" });
    await counterNotice.waitFor({ timeout: 20_000 });
    expect(await counterNotice.textContent()).toContain("We can't make the loan you asked for, but we can offer you one on other terms.");
    expect(await counterNotice.textContent()).not.toMatch(/approved|congratulations/i);
    await page
      .locator("[data-sonner-toast]")
      .filter({ has: page.locator("[data-title]", { hasText: /^Counteroffer$/ }) })
      .first()
      .waitFor();
    expect(await page.getByText("Loan Approved!").count()).toBe(0);
    // The e-mail says so too, with what was asked and what is offered.
    const counterMail = await waitForMail(stack.sink, { to: "jane.doe@example.com", subject: /^Counteroffer on your Private Loans application$/ });
    expect(counterMail.text).toMatch(/You asked for:?\s+\$50,000 at 8\.5% for 60 months \(5 years\)/);
    expect(counterMail.text).toMatch(/We offer:?\s+\$45,000 at 8\.5% for 60 months \(5 years\)/);
    expect(counterMail.text).not.toMatch(/congratulations/i);
    await page.getByRole("button", { name: "Dismiss counteroffer notice" }).click();
    await expect.poll(() => counterNotice.count()).toBe(0);

    const badge = page.locator(`[data-application-id="${olderId}"] [data-status]`);
    await expect.poll(() => badge.textContent()).toBe("Approved");
    expect(await badge.getAttribute("data-tone")).toBe("green");
    expect(await page.locator(`[data-application-id="${newerId}"] [data-status]`).textContent()).toBe("Pending");

    // Issue 20: an approval is an offer; the loan is listed under Approved Loans once the agreement is signed.
    const offer = page.getByRole("region", { name: "Your Loan Offer" });
    await offer.waitFor();
    const offerText = (await offer.textContent()) ?? "";
    for (const expected of ["Counteroffer", "Insufficient income", "$45,000.00", "8.50%", "60 months", "Monthly Payment", "APR", "Offer Expires"]) {
      expect(offerText).toContain(expected);
    }
    expect(await loansList(page).count()).toBe(0);
    expect(await page.getByText("No Approved Loans Yet").count()).toBe(1);
    expect(await page.evaluate(() => (window as unknown as { __noReload?: string }).__noReload)).toBe("still here");
    expect(await axeViolations(page)).toEqual([]);

    // The newer application approved on the terms it asked for: 'Loan Approved!', and its e-mail.
    await approveApplication(
      newerId,
      { approvedAmountCents: 5_000_000, interestRateMilli: 8500, termMonths: 60 },
      { actor: { id: admin!.id, name: admin!.name, email: admin!.email }, request: { ip: "127.0.0.1", userAgent: "dashboard e2e" } },
      stack.database.db,
    );
    const notice = page.getByRole("status").filter({ hasText: "Loan Approved!" });
    await notice.waitFor({ timeout: 20_000 });
    expect(await notice.textContent()).toContain("Congratulations! One of your loan applications has been approved.");
    await page
      .locator("[data-sonner-toast]")
      .filter({ has: page.locator("[data-title]", { hasText: /^Loan Approved!$/ }) })
      .first()
      .waitFor();
    const approvedMail = await waitForMail(stack.sink, { to: "jane.doe@example.com", subject: /application is approved$/ });
    expect(approvedMail.text).toContain("Congratulations, your loan is approved!");
    expect(approvedMail.text).toContain(newerId);
    expect(await page.evaluate(() => (window as unknown as { __noReload?: string }).__noReload)).toBe("still here");

    // The notice stays until dismissed.
    await page.getByRole("button", { name: "Dismiss approval notice" }).click();
    await expect.poll(() => notice.count()).toBe(0);
    expect(errors).toEqual([]);

    // The other applicant saw neither the notice nor anything of Jane's.
    const otherText = (await other.page.locator("main").textContent()) ?? "";
    expect(otherText).toContain("Welcome, John Roe");
    expect(otherText).toContain("No Approved Loans Yet");
    expect(otherText).toContain("No applications submitted yet");
    expect(otherText).not.toContain("Consolidating two credit cards");
    expect(await other.page.getByRole("status").filter({ hasText: "Loan Approved!" }).count()).toBe(0);
    await other.context.close();
    await context.close();
  });

  it("never shows one applicant's applications on another's dashboard", async () => {
    const sam = await signUp("sam.poe@example.com", "Sam Poe");
    const samsId = await submitApplication(sam, { loanPurpose: "Sam's own purpose for a car loan", loanType: "auto-loans" });
    const { context, page } = await newPage(sam);
    await openDashboard(page);
    const ids = await applicationsList(page).locator("[data-application-id]").evaluateAll((els) => els.map((el) => el.getAttribute("data-application-id")));
    expect(ids).toEqual([samsId]);
    const text = (await page.locator("main").textContent()) ?? "";
    expect(text).not.toContain("Consolidating two credit cards");
    expect(text).not.toContain(olderId.slice(0, 8));
    expect(text).toContain("No Approved Loans Yet");
    // And Jane's page still lists only hers.
    const janes = await newPage(jane);
    await openDashboard(janes.page);
    const janeIds = await applicationsList(janes.page).locator("[data-application-id]").evaluateAll((els) => els.map((el) => el.getAttribute("data-application-id")));
    expect(janeIds).toEqual([newerId, olderId]);
    await janes.context.close();
    await context.close();
  });
});
