import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { submitApplication } from "../helpers/applications";
import { axeViolations, waitForHydration } from "./harness";
import { e2eStackForFile } from "./helpers/stack";

/**
 * Messages (issue 19) in real browsers, two at once: the applicant on /dashboard/applications/:id and
 * a staff member past the second factor on /admin/applications/:id. A message written on one side
 * appears on the other's open page without a reload, as text (HTML typed into it stays text), with a
 * "New" marker; the Message field has a visible label and a counter, sends with the keyboard and keeps
 * focus; empty messages are refused beside the field; the header shows "n unread messages" until the
 * conversation is read on its page.
 */

const stack = e2eStackForFile({ firstIp: 80, admin: { email: "messages.staff@example.com", password: "Rev1ewer!Passw0rd" } });

let jane = "";
let janeApp = "";
let adminCookie = "";

beforeAll(async () => {
  jane = await stack.signUp("jane.messages@example.com", "Jane Messages");
  janeApp = await submitApplication(stack.server.url, jane, { ip: stack.nextIp() });
  adminCookie = await stack.adminSession();
});

const open = (cookie: string) => stack.open(cookie);
const panel = (page: Page) => page.getByTestId("messages-panel");
const bodies = (page: Page) => panel(page).locator("[data-testid=messages] > li > p:last-child").allTextContents();

describe("messages between the applicant and staff", () => {
  it("applicant writes, staff sees it live as text with a New marker and replies; the applicant sees the reply live", async () => {
    const applicant = await open(jane);
    const staff = await open(adminCookie);
    await applicant.page.goto(`${stack.server.url}/dashboard/applications/${janeApp}`);
    await staff.page.goto(`${stack.server.url}/admin/applications/${janeApp}`);
    await waitForHydration(applicant.page);
    await waitForHydration(staff.page);
    expect(await panel(staff.page).textContent()).toContain("No messages yet.");

    // An empty message is refused beside the field, before any request.
    const field = panel(applicant.page).getByLabel("Message", { exact: true });
    await panel(applicant.page).getByRole("button", { name: "Send" }).click();
    await panel(applicant.page).getByText("Write a message before sending").waitFor();
    expect(await field.getAttribute("aria-invalid")).toBe("true");

    // Typed, with a second line and HTML; the counter follows; Ctrl+Enter sends; focus stays in the field.
    const text = "Hello <b>lender</b> <img src=x onerror=alert(1)>";
    await field.click();
    await field.pressSequentially(text);
    await field.press("Shift+Enter");
    await field.pressSequentially("Second line");
    const typed = `${text}\nSecond line`;
    expect(await panel(applicant.page).getByText(`${typed.length} / 5,000`).count()).toBe(1);
    await field.press("Control+Enter");
    await expect.poll(() => bodies(applicant.page)).toEqual([typed]);
    await expect.poll(() => field.inputValue()).toBe("");
    expect(await applicant.page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("body");

    // Staff: live, without a reload, shown as text (no <b> or <img> element made from it), marked New.
    await expect.poll(() => bodies(staff.page), { timeout: 15_000 }).toEqual([typed]);
    const list = panel(staff.page).getByTestId("messages");
    expect(await list.locator("b, img").count()).toBe(0);
    expect(await list.locator("li[data-new]").count()).toBe(1);
    expect(await list.locator("li").first().textContent()).toContain("Jane Messages");

    // Staff reply.
    const staffField = panel(staff.page).getByLabel("Message", { exact: true });
    await staffField.fill("Thanks, we will look at it today.");
    await panel(staff.page).getByRole("button", { name: "Send" }).click();
    await expect.poll(() => bodies(staff.page)).toEqual([typed, "Thanks, we will look at it today."]);

    // The applicant's open page gets the reply live, from the lender (never a staff member's name), marked New.
    await expect.poll(() => bodies(applicant.page), { timeout: 15_000 }).toEqual([typed, "Thanks, we will look at it today."]);
    const reply = panel(applicant.page).getByTestId("messages").locator("li").last();
    expect(await reply.textContent()).toContain("Private Loans");
    expect(await reply.textContent()).not.toContain("messages.staff");
    expect(await reply.getAttribute("data-new")).toBe("");

    // Both pages with the panel in use are axe-clean.
    expect(await axeViolations(applicant.page)).toEqual([]);
    expect(await axeViolations(staff.page)).toEqual([]);
    expect(applicant.errors).toEqual([]);
    expect(staff.errors).toEqual([]);
    await applicant.context.close();
    await staff.context.close();
  });

  it("the header shows 'n unread messages' on Dashboard until the conversation is read on its page, and on Admin for staff", async () => {
    // A staff message the applicant has not seen (sent over HTTP, as the staff page's panel would).
    const res = await fetch(`${stack.server.url}/admin/applications/${janeApp}/messages`, {
      method: "POST",
      headers: { cookie: adminCookie, origin: stack.server.url, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "send", body: "One more question for you." }),
    });
    expect(res.status).toBe(200);

    const { context, page, errors } = await open(jane);
    await page.goto(`${stack.server.url}/dashboard`);
    await waitForHydration(page);
    const dashboardLink = page.locator("header").getByRole("link", { name: /^Dashboard/ }).first();
    expect(await dashboardLink.textContent()).toMatch(/1 unread message\b/);

    // Opening the application shows the panel; it marks the conversation read and the badge goes.
    await page.goto(`${stack.server.url}/dashboard/applications/${janeApp}`);
    await waitForHydration(page);
    await expect.poll(() => page.locator("header").getByRole("link", { name: /^Dashboard/ }).first().textContent(), { timeout: 10_000 }).not.toMatch(/unread/);
    // The marker stays for this visit, so the reader still sees which message was new.
    expect(await panel(page).locator("li[data-new]").last().textContent()).toContain("One more question for you.");
    await page.reload();
    await waitForHydration(page);
    expect(await panel(page).locator("li[data-new]").count()).toBe(0);

    // The applicant writes; staff see the count on the Admin link of the header, on any admin page.
    await panel(page).getByLabel("Message", { exact: true }).fill("Here is my answer.");
    await panel(page).getByRole("button", { name: "Send" }).click();
    await expect.poll(() => bodies(page)).toContain("Here is my answer.");
    expect(errors).toEqual([]);
    await context.close();

    const staff = await open(adminCookie);
    await staff.page.goto(`${stack.server.url}/admin`);
    await waitForHydration(staff.page);
    const adminLink = staff.page.locator("header").getByRole("link", { name: /^Admin/ }).first();
    expect(await adminLink.textContent()).toMatch(/1 unread message\b/);
    expect(staff.errors).toEqual([]);
    await staff.context.close();
  });
});
