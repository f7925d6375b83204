import { beforeAll, describe, expect, it } from "vitest";
import { signInAdminWithMfa } from "../helpers/admins";
import { signUpOverHttp, toBrowserCookies } from "../helpers/applicants";
import { submitApplication } from "../helpers/applications";
import { axeViolations, gotoHydrated, waitForHydration } from "./harness";
import { openWatchedPage } from "./helpers/pages";
import { e2eStackForFile, ipSequence } from "./helpers/stack";
import { expectToast } from "./helpers/toasts";

/**
 * Four-eyes approval and assignment (issue 22) in a real browser against the built server: a loan
 * officer (seeded with the product's create-admin --role) approves $300,000 on the application page →
 * "Approval Proposed" and the panel "Approval Waiting for Confirmation" without Confirm Approval for
 * them; their forged confirm POST is a 403; the admin confirms in the browser → Offered. Assign to Me
 * then My Queue lists it. Axe-clean with the panel shown.
 */

const ADMIN = {
  email: "four.eyes.admin@example.com",
  password: "F0ur-Eyes!Admin-Passw0rd",
};
const OFFICER = {
  email: "four.eyes.officer@example.com",
  password: "F0ur-Eyes!Officer-Passw0rd",
  name: "Olive Officer",
  role: "loan_officer" as const,
};
const AUDITOR = { email: "four.eyes.auditor@example.com", password: "F0ur-Eyes!Auditor-Passw0rd", name: "Audrey Auditor", role: "auditor" as const };
const APPLICANT_EMAIL = "four.eyes.applicant@example.com";

const newIp = ipSequence(170);
const stack = e2eStackForFile({ admin: ADMIN, staff: [OFFICER, AUDITOR] });
let adminCookie: string;
let officerCookie: string;
let auditorCookie: string;
let applicationId: string;

beforeAll(async () => {
  const applicantCookie = await signUpOverHttp(stack.server.url, stack.sink, APPLICANT_EMAIL, newIp());
  applicationId = await submitApplication(stack.server.url, applicantCookie, {
    ip: newIp(),
    fields: { loanAmount: "300,000" },
  });
  adminCookie = (await signInAdminWithMfa(stack.server.url, ADMIN.email, ADMIN.password, newIp())).cookie;
  officerCookie = (await signInAdminWithMfa(stack.server.url, OFFICER.email, OFFICER.password, newIp())).cookie;
  auditorCookie = (await signInAdminWithMfa(stack.server.url, AUDITOR.email, AUDITOR.password, newIp())).cookie;
}, 120_000);

describe("four-eyes approval", () => {
  it("officer proposes $300,000 → no Confirm for them, forged confirm 403 → admin confirms → Offered; axe-clean", async () => {
    const officer = await openWatchedPage(stack.browser, {
      cookies: toBrowserCookies(officerCookie, stack.server.url),
      width: 1280,
      expectedConsoleErrors: /status of 4\d\d/,
    });
    let proposalId: string;
    try {
      const page = officer.page;
      await gotoHydrated(page, `${stack.server.url}/admin/applications/${applicationId}`);
      await page.getByRole("heading", { level: 2, name: "Application Summary" }).waitFor();
      await page.getByTestId("review-actions").getByRole("button", { name: "Approve" }).click();
      const dialog = page.getByRole("dialog", { name: "Approve Application" });
      await dialog.waitFor();
      await dialog.getByLabel("Approved Amount ($)").fill("300000");
      await expectToast(
        page,
        "Approval Proposed",
        () => dialog.getByRole("button", { name: "Confirm Approval" }).click(),
        "Another staff member must confirm approvals of $250,000 or more before the offer is made.",
      );
      await dialog.waitFor({ state: "detached" });
      const panel = page.getByTestId("approval-panel");
      await panel.getByRole("heading", { name: "Approval Waiting for Confirmation" }).waitFor();
      expect(await panel.getByTestId("proposed-terms").textContent()).toContain("$300,000.00");
      expect(await panel.getByTestId("own-proposal-note").textContent()).toBe("Waiting for confirmation. You proposed this approval: another staff member must confirm it.");
      expect(await panel.getByRole("button", { name: "Confirm Approval" }).count()).toBe(0);
      expect(await panel.getByRole("button", { name: "Send Back" }).count()).toBe(0);
      // Approve is not offered while the proposal waits; the application is still open.
      expect(await page.getByTestId("review-actions").getByRole("button", { name: "Approve" }).count()).toBe(0);
      expect(await page.getByTestId("admin-application").getAttribute("data-status")).toBe("pending");
      expect(await axeViolations(page)).toEqual([]);

      // The list: Awaiting Confirmation (1); the proposer's card says "Waiting for confirmation" and
      // offers neither Approve nor a way to confirm; no notice asks them to confirm their own.
      await gotoHydrated(page, `${stack.server.url}/admin`);
      const awaitingTab = page.getByRole("navigation", { name: "Application status" }).getByRole("link", { name: "Awaiting Confirmation (1)" });
      await awaitingTab.waitFor();
      expect(await page.getByTestId("awaiting-confirmation-notice").count()).toBe(0);
      await awaitingTab.click();
      await page.waitForURL(/status=awaiting_confirmation/);
      await expect.poll(() => awaitingTab.getAttribute("aria-current")).toBe("page");
      const ownCard = page.locator(`[data-testid="application-card"][data-application-id="${applicationId}"]`);
      await ownCard.waitFor();
      expect(await ownCard.getByTestId("card-awaiting-confirmation").textContent()).toBe("Waiting for confirmation");
      expect(await ownCard.getByRole("button", { name: /Approve|Confirm/ }).count()).toBe(0);
      expect(await ownCard.getByRole("link", { name: /Confirm/ }).count()).toBe(0);
      expect(await page.getByText("Confirm Approval").count()).toBe(0);
      expect(await page.locator('[data-testid="application-card"]').count()).toBe(1);
      expect(await axeViolations(page)).toEqual([]);
      await officer.context.close();
    } catch (error) {
      await officer.context.close();
      throw error;
    }

    // The officer's forged confirmation: refused by the server.
    const adminPage = await openWatchedPage(stack.browser, {
      cookies: toBrowserCookies(adminCookie, stack.server.url),
      width: 1280,
      expectedConsoleErrors: /status of 4\d\d/,
    });
    try {
      const page = adminPage.page;
      // Another staff member is told on the list, and reaches the proposal from Awaiting Confirmation (1).
      await gotoHydrated(page, `${stack.server.url}/admin`);
      const notice = page.getByTestId("awaiting-confirmation-notice");
      await notice.waitFor();
      expect(await notice.textContent()).toContain("1 approval is waiting for your confirmation.");
      await notice.getByRole("link", { name: "Show Awaiting Confirmation" }).click();
      await page.waitForURL(/status=awaiting_confirmation/);
      const tab = page.getByRole("navigation", { name: "Application status" }).getByRole("link", { name: "Awaiting Confirmation (1)" });
      await expect.poll(() => tab.getAttribute("aria-current")).toBe("page");
      const card = page.locator(`[data-testid="application-card"][data-application-id="${applicationId}"]`);
      expect(await card.getByTestId("card-awaiting-confirmation").textContent()).toBe("Waiting for confirmation");
      expect(await axeViolations(page)).toEqual([]);
      await card.getByRole("link", { name: /^Confirm or Send Back/ }).click();
      await page.waitForURL(`${stack.server.url}/admin/applications/${applicationId}`);
      await waitForHydration(page);
      const panel = page.getByTestId("approval-panel");
      await panel.getByRole("heading", { name: "Approval Waiting for Confirmation" }).waitFor();
      expect(await panel.textContent()).toContain("Olive Officer");
      proposalId = await panel.locator('input[name="proposalId"]').first().inputValue();
      const forged = await fetch(`${stack.server.url}/admin/applications/${applicationId}/approval`, {
        method: "POST",
        headers: {
          cookie: officerCookie,
          origin: stack.server.url,
          "content-type": "application/x-www-form-urlencoded",
          "x-forwarded-for": newIp(),
        },
        body: new URLSearchParams({ intent: "confirm", proposalId }),
      });
      expect(forged.status).toBe(403);
      expect(((await forged.json()) as { toast: { description: string } }).toast.description).toBe("You proposed this approval: another staff member must confirm it.");

      expect(await axeViolations(page)).toEqual([]);
      await expectToast(page, "Approval Confirmed", () => panel.getByRole("button", { name: "Confirm Approval" }).click());
      await expect.poll(() => page.getByTestId("admin-application").getAttribute("data-status")).toBe("approved");
      const offer = page.getByTestId("offer-panel").getByTestId("offer").first();
      await offer.waitFor();
      expect(await offer.getByTestId("offer-status").textContent()).toBe("Offered");
      expect(await page.getByTestId("approval-panel").count()).toBe(0);
    } finally {
      await adminPage.context.close();
    }
  });

  it("Assign to Me → My Queue lists the application", async () => {
    const { context, page } = await openWatchedPage(stack.browser, {
      cookies: toBrowserCookies(officerCookie, stack.server.url),
      width: 1280,
    });
    try {
      await gotoHydrated(page, `${stack.server.url}/admin/applications/${applicationId}`);
      const panel = page.getByTestId("assignment-panel");
      expect(await panel.getByTestId("assigned-to").textContent()).toBe("Unassigned");
      await expectToast(page, "Assigned to Olive Officer", () => panel.getByRole("button", { name: "Assign to Me" }).click());
      await expect.poll(() => panel.getByTestId("assigned-to").textContent()).toContain("Assigned to: Olive Officer");
      await panel.getByText(/Assignment history/).click();
      expect(await panel.getByTestId("assignment-history").textContent()).toContain("assigned to Olive Officer by Olive Officer");
      expect(await axeViolations(page)).toEqual([]);

      await gotoHydrated(page, `${stack.server.url}/admin?status=approved`);
      await page.getByRole("link", { name: "My Queue" }).click();
      await page.waitForURL(/queue=mine/);
      const card = page.locator(`[data-testid="application-card"][data-application-id="${applicationId}"]`);
      await card.waitFor();
      expect(await card.getByTestId("card-assigned-to").textContent()).toBe("Olive Officer");
      expect(await page.getByRole("link", { name: "My Queue" }).getAttribute("aria-current")).toBe("page");
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("the routes: GET is 405; the auditor is refused (403) and sees no controls; unknown proposals 404, bad input 400", async () => {
    const post = (path: string, cookie: string, fields: Record<string, string>) =>
      fetch(`${stack.server.url}/admin/applications/${applicationId}/${path}`, {
        method: "POST",
        headers: { cookie, origin: stack.server.url, "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": newIp() },
        body: new URLSearchParams(fields),
      });
    for (const path of ["approval", "assignment"]) {
      const get = await fetch(`${stack.server.url}/admin/applications/${applicationId}/${path}`, { headers: { cookie: adminCookie } });
      expect(get.status).toBe(405);
    }
    const unknown = "00000000-0000-4000-8000-000000000000";
    expect((await post("approval", auditorCookie, { intent: "confirm", proposalId: unknown })).status).toBe(403);
    expect((await post("assignment", auditorCookie, { intent: "assign-me" })).status).toBe(403);
    expect((await post("approval", adminCookie, { intent: "confirm", proposalId: unknown })).status).toBe(404);
    expect((await post("approval", adminCookie, { intent: "send-back", proposalId: unknown, comment: "Matrix check" })).status).toBe(404);
    expect((await post("approval", adminCookie, { intent: "send-back", proposalId: unknown, comment: "" })).status).toBe(400);
    expect((await post("assignment", adminCookie, { intent: "assign", assigneeId: "no-such-staff" })).status).toBe(400);

    const { context, page } = await openWatchedPage(stack.browser, { cookies: toBrowserCookies(auditorCookie, stack.server.url), width: 1280 });
    try {
      await gotoHydrated(page, `${stack.server.url}/admin/applications/${applicationId}`);
      const panel = page.getByTestId("assignment-panel");
      await panel.waitFor();
      expect(await panel.getByTestId("assigned-to").textContent()).toContain("Olive Officer");
      expect(await panel.getByRole("button").count()).toBe(0);
      expect(await page.getByTestId("review-actions").count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
