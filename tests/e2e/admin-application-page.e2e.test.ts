import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { signInAdminWithMfa } from "../helpers/admins";
import { submitApplication } from "../helpers/applications";
import { axeViolations, gotoHydrated } from "./harness";
import type { WatchedPage } from "./helpers/pages";
import { e2eStackForFile } from "./helpers/stack";
import { expectToast } from "./helpers/toasts";

/**
 * /admin/applications/:id in a real browser against the built server (issue 19): the admin opens an
 * application from the list (View Application), sees every field the applicant entered with the SSN and
 * bank numbers masked (none of them in the page), reveals the SSN (audited), previews a document,
 * starts the review (the Under Review tab counts it), approves it from Under Review; the page is
 * axe-clean at 1280×800 and 390×844 and fits the phone's width. Unknown and malformed ids are 404s.
 */

const ADMIN = { email: "page.admin@example.com", password: "Pag3!Admin-Passw0rd" };
const APPLICANT_EMAIL = "applicant.page@example.com";

const stack = e2eStackForFile({ firstIp: 120, admin: ADMIN });
let adminCookie: string;
let applicationId: string;

beforeAll(async () => {
  const applicantCookie = await stack.signUp(APPLICANT_EMAIL);
  applicationId = await submitApplication(stack.server.url, applicantCookie, {
    ip: stack.nextIp(),
    fields: { loanType: "business", businessName: "Doe Bakery LLC", businessYears: "7", loanAmount: "150,000" },
  });
  adminCookie = (await signInAdminWithMfa(stack.server.url, ADMIN.email, ADMIN.password, stack.nextIp())).cookie;
});

/** Runs `run` on a page signed in as the admin (at 1280×800 unless told), closed afterwards; refused loads (4xx) are not page errors. */
const withAdminPage = <T>(run: (watched: WatchedPage) => Promise<T>, { width = 1280, height = 800 } = {}) =>
  stack.withPage(adminCookie, { width, height, expectedConsoleErrors: /status of 4\d\d/ }, run);

const tabLabels = (page: Page) => page.locator('nav[aria-label="Application status"] a').allTextContents();

/** Waits until the page's live stream is connected (so changes elsewhere reach it). */
async function openLive(page: Page, url: string) {
  const stream = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/events" && r.status() === 200);
  const res = await gotoHydrated(page, url);
  await stream;
  return res;
}

describe("the staff application page", () => {
  it("opens from the list, shows every field with the SSN and bank numbers masked, reveals the SSN (audited), previews a document; axe-clean", async () => {
    await withAdminPage(async ({ page, errors }) => {
      await openLive(page, `${stack.server.url}/admin`);
      expect(await tabLabels(page)).toEqual(["Pending (1)", "Under Review (0)", "Approved (0)", "Denied (0)", "Awaiting Confirmation (0)"]);
      const card = page.locator(`[data-testid="application-card"][data-application-id="${applicationId}"]`);
      await card.getByRole("link", { name: /^View Application/ }).click();
      await page.waitForURL(`${stack.server.url}/admin/applications/${applicationId}`);
      await page.getByRole("heading", { level: 2, name: "Application Summary" }).waitFor();
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Bench Applicant");

      const text = (await page.getByTestId("admin-application").textContent()) ?? "";
      for (const expected of [
        // Loan
        "Business Loan",
        "$150,000",
        "8.5%",
        "60 months",
        "Consolidating two credit cards into one payment",
        "Doe Bakery LLC",
        // Personal
        "Jane",
        "Doe-Smith",
        "Q",
        "Apr 12, 1988",
        "jane@example.com",
        "(302) 555-0199",
        "12 Market Street",
        "Wilmington, DE 19801",
        // Employment and finances
        "Full-time",
        "Acme Corp",
        "Engineer",
        "$8,500",
        "$102,000",
        "720",
        "$900",
        // Bank account (masked) and the panels
        "First Bank",
        "••••••6789",
        "•••••••21",
        "•••-••-••••",
        "What We Need",
        "Messages",
        "Application Timeline",
        "Internal Notes",
      ]) {
        expect(text, expected).toContain(expected);
      }
      const html = await page.content();
      for (const secret of ["123-45-6789", "123456789", "000123456789", "021000021", "enc:v"]) expect(html, secret).not.toContain(secret);
      expect(await page.getByTestId("application-document").count()).toBe(7);
      expect(await page.getByTestId("application-timeline").locator("li").first().getAttribute("data-kind")).toBe("submitted");
      expect(await page.getByRole("button", { name: "Start Review" }).count()).toBe(1);
      expect(await page.getByRole("button", { name: "Approve" }).count()).toBe(1);
      expect(await page.getByRole("button", { name: "Deny" }).count()).toBe(1);
      // No request is overdue: no Close as Incomplete, and the page says when it becomes available.
      expect(await page.getByRole("button", { name: "Close as Incomplete" }).count()).toBe(0);
      await page.getByText("Close as Incomplete is available after the due date of an open request.").waitFor();
      expect(await axeViolations(page)).toEqual([]);

      const ssn = page.getByTestId("ssn-value");
      await expectToast(page, "SSN Revealed", () => page.getByRole("button", { name: /^Reveal SSN/ }).click(), "This access has been recorded in the audit log.");
      await expect.poll(() => ssn.textContent()).toBe("123-45-6789");

      await expectToast(page, "Secure Access Generated", () => page.getByRole("button", { name: /^Preview ID Card \(Back\)/ }).click());
      const preview = page.getByRole("dialog", { name: "Document Preview" });
      await preview.getByTestId("preview-image").waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.keyboard.press("Escape");
      await preview.waitFor({ state: "detached" });
      expect(errors).toEqual([]);
    });

    // The view, the reveal and the link are each in the audit log.
    const monitoring = await (await fetch(`${stack.server.url}/admin/monitoring`, { headers: { cookie: adminCookie } })).text();
    for (const action of ["application.view", "ssn.reveal", "document.link"]) expect(monitoring, action).toContain(`data-action="${action}"`);
  });

  it("Start Review → Under Review (1) on the list; Approve from Under Review; the timeline shows both", () =>
    withAdminPage(async ({ page, errors }) => {
      await openLive(page, `${stack.server.url}/admin/applications/${applicationId}`);
      await expectToast(page, "Review started", () => page.getByRole("button", { name: "Start Review" }).click());
      await expect.poll(() => page.getByTestId("admin-application").getAttribute("data-status")).toBe("under_review");
      await page.getByRole("region", { name: "Application Summary" }).getByText("Under Review").waitFor();
      expect(await page.getByRole("button", { name: "Start Review" }).count()).toBe(0);
      await expect.poll(() => page.getByTestId("application-timeline").locator("li").first().getAttribute("data-kind")).toBe("review_started");

      await page.getByRole("link", { name: "All Applications" }).click();
      await page.waitForURL(/\/admin\?status=under_review$/);
      await expect.poll(() => tabLabels(page)).toEqual(["Pending (0)", "Under Review (1)", "Approved (0)", "Denied (0)", "Awaiting Confirmation (0)"]);
      const card = page.locator(`[data-testid="application-card"][data-application-id="${applicationId}"]`);
      expect(await card.getByRole("button", { name: /^Approve/ }).count()).toBe(1);
      await card.getByRole("link", { name: /^View Application/ }).click();
      await page.waitForURL(`${stack.server.url}/admin/applications/${applicationId}`);

      await page.getByRole("button", { name: "Approve" }).click();
      const dialog = page.getByRole("dialog", { name: "Approve Application" });
      await dialog.waitFor();
      await expectToast(page, "Application approved and notification sent!", () => dialog.getByRole("button", { name: "Confirm Approval" }).click());
      await dialog.waitFor({ state: "detached" });
      await expect.poll(() => page.getByTestId("admin-application").getAttribute("data-status")).toBe("approved");
      expect(await page.getByTestId("review-actions").count()).toBe(0);
      // Focus goes to the summary once the decision removed the button that opened the dialog.
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("application-summary");
      const kinds = await page.getByTestId("application-timeline").locator("li").evaluateAll((els) => els.map((el) => el.getAttribute("data-kind")));
      // Issue 20: the approval records the offer in the same transaction (two entries at the same instant).
      expect([...kinds.slice(0, 2)].sort()).toEqual(["approved", "offer_made"]);
      expect(kinds.slice(2)).toEqual(["review_started", "submitted"]);
      expect(errors).toEqual([]);
    }));

  it("adds an internal note that the timeline shows as Internal", () =>
    withAdminPage(async ({ page, errors }) => {
      await openLive(page, `${stack.server.url}/admin/applications/${applicationId}`);
      const notes = page.getByTestId("internal-notes");
      await notes.getByLabel(/^Add a note/).fill("Verified the bakery's licence by phone.");
      await expectToast(page, "Note added", () => notes.getByRole("button", { name: /^Save Note/ }).click());
      await notes.getByText("Verified the bakery's licence by phone.").waitFor();
      const first = page.getByTestId("application-timeline").locator("li").first();
      await expect.poll(() => first.getAttribute("data-kind")).toBe("note");
      expect(await first.textContent()).toContain("Internal");
      expect(errors).toEqual([]);
    }));

  it("is axe-clean and fits a 390×844 phone without sideways scrolling", () =>
    withAdminPage(async ({ page, errors }) => {
      await gotoHydrated(page, `${stack.server.url}/admin/applications/${applicationId}`);
      await page.getByRole("heading", { level: 2, name: "Application Summary" }).waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      expect(await axeViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    }, { width: 390, height: 844 }));

  it("answers 404 for an unknown or malformed id, and sends applicants away", async () => {
    for (const id of ["00000000-0000-4000-8000-000000000000", "not-a-uuid", `${applicationId}x`]) {
      const res = await fetch(`${stack.server.url}/admin/applications/${id}`, { headers: { cookie: adminCookie } });
      expect(res.status, id).toBe(404);
      expect(await res.text()).toContain("Oops! Page not found");
    }
    const visitor = await fetch(`${stack.server.url}/admin/applications/${applicationId}`, { redirect: "manual" });
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toMatch(/^\/auth/);
  });
});
