import { beforeAll, describe, expect, it } from "vitest";
import { signInAdminWithMfa } from "../helpers/admins";
import { signUpOverHttp, toBrowserCookies } from "../helpers/applicants";
import { submitApplication } from "../helpers/applications";
import { axeViolations, gotoHydrated } from "./harness";
import { openWatchedPage } from "./helpers/pages";
import { ipSequence, stackForFile } from "./helpers/stack";
import { expectToast } from "./helpers/toasts";

/**
 * The staff side of a loan offer (issue 20) in a real browser against the built server: an admin with
 * a second factor approves from the application page with an Origination Fee (%) of 2 and less money
 * than requested; the dialog shows the live Counteroffer notice and refuses to post without a reason;
 * with one, the offer panel shows Offered and Counteroffer with the figures; Withdraw Offer asks for a
 * reason (required) and the panel then shows Withdrawn with it. Axe-clean at each step.
 */

const ADMIN = { email: "offer.staff.admin@example.com", password: "0ffer!Staff-Passw0rd" };
const APPLICANT_EMAIL = "offer.staff.applicant@example.com";

const stack = stackForFile({ TRUST_PROXY: "true", ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ORIGINATION_FEE_PERCENT: "1.50" });
const newIp = ipSequence(140);
let adminCookie: string;
let applicationId: string;

beforeAll(async () => {
  const applicantCookie = await signUpOverHttp(stack.server.url, stack.sink, APPLICANT_EMAIL, newIp());
  // $50,000 requested (the helper's default).
  applicationId = await submitApplication(stack.server.url, applicantCookie, { ip: newIp() });
  adminCookie = (await signInAdminWithMfa(stack.server.url, ADMIN.email, ADMIN.password, newIp())).cookie;
});

describe("the staff offer", () => {
  it("approve with a fee and less money → Counteroffer needs a reason → Offered + Counteroffer → Withdraw Offer with a reason → Withdrawn; axe-clean", async () => {
    const { context, page, errors } = await openWatchedPage(stack.browser, {
      cookies: toBrowserCookies(adminCookie, stack.server.url),
      width: 1280,
      expectedConsoleErrors: /status of 4\d\d/,
    });
    try {
      await page.setViewportSize({ width: 1280, height: 800 });
      await gotoHydrated(page, `${stack.server.url}/admin/applications/${applicationId}`);
      await page.getByRole("heading", { level: 2, name: "Application Summary" }).waitFor();
      expect(await page.getByTestId("offer-panel").count()).toBe(0);

      await page.getByRole("button", { name: "Approve" }).click();
      const dialog = page.getByRole("dialog", { name: "Approve Application" });
      await dialog.waitFor();
      // The configured default fee, and no Counteroffer for the requested terms.
      const fee = dialog.getByLabel("Origination Fee (%)");
      expect(await fee.inputValue()).toBe("1.50");
      expect(await dialog.getByTestId("counteroffer-notice").count()).toBe(0);
      await expect.poll(() => dialog.getByTestId("approve-monthly-payment").textContent()).toMatch(/^\$[\d,]+\.\d{2}$/);
      await expect.poll(() => dialog.getByTestId("approve-apr").textContent()).toMatch(/^\d+\.\d{2}%$/);
      expect(await axeViolations(page)).toEqual([]);

      await fee.fill("2");
      await dialog.getByLabel("Approved Amount ($)").fill("40000");
      const notice = dialog.getByTestId("counteroffer-notice");
      await notice.waitFor();
      expect(await notice.textContent()).toContain("Counteroffer");
      expect(await axeViolations(page)).toEqual([]);

      // No reason: refused in the browser, the error beside the reasons, focus on the first checkbox.
      await dialog.getByRole("button", { name: "Confirm Approval" }).click();
      await notice.getByText(/choose at least one reason for the counteroffer/).waitFor();
      await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name)).toBe("counterofferReasons");

      await notice.getByLabel("Insufficient income").check();
      await expectToast(page, "Application approved and notification sent!", () => dialog.getByRole("button", { name: "Confirm Approval" }).click());
      await dialog.waitFor({ state: "detached" });
      await expect.poll(() => page.getByTestId("admin-application").getAttribute("data-status")).toBe("approved");

      const panel = page.getByTestId("offer-panel");
      await panel.waitFor();
      const offer = panel.getByTestId("offer").first();
      expect(await offer.getAttribute("data-status")).toBe("offered");
      expect(await offer.getByTestId("offer-status").textContent()).toBe("Offered");
      expect(await offer.getByTestId("offer-counteroffer").textContent()).toBe("Counteroffer");
      const text = (await offer.textContent()) ?? "";
      for (const expected of ["$40,000.00", "$800.00 (2.00%)", "$39,200.00", "Insufficient income", "Offer Expires"]) expect(text, expected).toContain(expected);
      expect(await axeViolations(page)).toEqual([]);

      // Withdraw Offer: the reason is required.
      await panel.getByRole("button", { name: "Withdraw Offer" }).click();
      const withdraw = page.getByRole("dialog", { name: "Withdraw Offer" });
      await withdraw.waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await withdraw.getByRole("button", { name: "Confirm Withdraw Offer" }).click();
      await withdraw.getByText("Give the reason for withdrawing the offer (the applicant reads it)").waitFor();
      await withdraw.getByLabel(/^Reason/).fill("The employer could not confirm the income we relied on.");
      await expectToast(page, "Offer withdrawn", () => withdraw.getByRole("button", { name: "Confirm Withdraw Offer" }).click());
      await withdraw.waitFor({ state: "detached" });

      await expect.poll(() => offer.getAttribute("data-status")).toBe("withdrawn");
      expect(await offer.getByTestId("offer-status").textContent()).toBe("Withdrawn");
      expect(await offer.getByTestId("offer-withdraw-reason").textContent()).toBe("The employer could not confirm the income we relied on.");
      expect(await panel.getByRole("button", { name: "Withdraw Offer" }).count()).toBe(0);
      await expect.poll(() => page.getByTestId("application-timeline").locator("li").first().getAttribute("data-kind")).toBe("offer_withdrawn");
      expect(await axeViolations(page)).toEqual([]);

      // The list's card shows the latest offer.
      await gotoHydrated(page, `${stack.server.url}/admin?status=approved`);
      const card = page.locator(`[data-testid="application-card"][data-application-id="${applicationId}"]`);
      const cardOffer = card.getByTestId("card-offer");
      expect(await cardOffer.getAttribute("data-offer-status")).toBe("withdrawn");
      expect(await cardOffer.textContent()).toContain("Counteroffer");
      expect(await cardOffer.textContent()).toContain("$40,000.00");
      expect(await axeViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
