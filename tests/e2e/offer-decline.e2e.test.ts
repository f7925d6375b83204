import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { loanApplications, loanOffers, user as userTable } from "~/server/platform/db/schema.server";
import { approveApplication } from "~/server/applications/reviews.server";
import { toBrowserCookies } from "../helpers/applicants";
import { submitApplication } from "../helpers/applications";
import { axeViolations, gotoHydrated } from "./harness";
import { openWatchedPage } from "./helpers/pages";
import { e2eStackForFile } from "./helpers/stack";

/**
 * Decline Offer in a real browser against the built server on PostgreSQL (issue 20): staff approve
 * LESS money than requested (a Counteroffer, with a reason) through the approve service; the
 * applicant sees Your Loan Offer, labelled Counteroffer with its reason, on the dashboard and on the
 * application page; declines it through the confirm dialog (keyboard: Escape keeps it, focus
 * returns); the card turns Declined, a toast says so, the dashboard no longer lists it, and the
 * mailed notice of action taken names the Counteroffer and its reason.
 */

const PASSWORD = "Str0ng!Passw0rd";
const ADMIN_EMAIL = "offer.reviewer@example.com";
const REASON = "Insufficient income";

// The approval is made by this process on the server's database (startSharedStack).
const stack = e2eStackForFile({ firstIp: 60, env: { TRUST_PROXY: "true", ADMIN_EMAIL, ADMIN_PASSWORD: "Rev1ewer!Passw0rd" }, shared: "portal-offer-decline-e2e-" });

const offerCard = (page: Page) => page.getByRole("region", { name: "Your Loan Offer" });

describe("Decline Offer", () => {
  let cookie: { name: string; value: string };
  let applicationId: string;

  beforeAll(async () => {
    const email = "dana.decline@example.com";
    const [pair] = toBrowserCookies(await stack.signUp(email, "Dana Decline", PASSWORD), stack.server.url);
    if (!pair?.value) throw new Error("no session cookie after sign-up");
    cookie = { name: pair.name, value: pair.value };
    applicationId = await submitApplication(stack.server.url, `${cookie.name}=${cookie.value}`, { ip: stack.nextIp() });
    const [app] = await stack.database.db.select().from(loanApplications).where(eq(loanApplications.id, applicationId));
    const [admin] = await stack.database.db.select().from(userTable).where(eq(userTable.email, ADMIN_EMAIL));
    // Less money than requested, at the requested rate and term: a Counteroffer.
    await approveApplication(
      applicationId,
      { approvedAmountCents: app!.requestedAmountCents - 1_000_000, interestRateMilli: app!.desiredRateMilli, termMonths: app!.loanDuration, counterofferReasons: [REASON] },
      { actor: { id: admin!.id, name: admin!.name, email: admin!.email }, request: { ip: "127.0.0.1", userAgent: "offer-decline e2e" } },
      stack.database.db,
    );
    stack.sink.clear();
  });

  it("shows Your Loan Offer, labelled Counteroffer with its reason and every figure, on the dashboard (axe-clean)", async () => {
    const { context, page, errors } = await openWatchedPage(stack.browser, { cookies: [{ ...cookie, url: stack.server.url }] });
    await gotoHydrated(page, `${stack.server.url}/dashboard`);
    const card = offerCard(page);
    await card.waitFor();
    const text = (await card.textContent()) ?? "";
    for (const label of ["Counteroffer", REASON, "Amount", "APR", "Note Rate", "Monthly Payment", "Term", "Origination Fee", "Amount Financed", "Finance Charge", "Total of Payments", "Offer Expires"]) {
      expect(text).toContain(label);
    }
    // Every term the borrower would sign, the late charge and prepayment among them.
    expect(text).toContain("Late Charge: If a payment is more than 15 days late");
    expect(text).toContain("Prepayment: If you pay off early, you will not have to pay a penalty");
    expect(await card.getByRole("link", { name: "Review and Sign" }).getAttribute("href")).toBe(`/dashboard/applications/${applicationId}/offer`);
    await card.getByRole("button", { name: "Decline Offer" }).waitFor();
    // Loans appear under Approved Loans only once signed.
    expect(await page.getByText("No Approved Loans Yet").count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("declines on the application page through the confirm dialog: Declined, a toast, and a Reg B notice naming the Counteroffer and its reason", async () => {
    const { context, page, errors } = await openWatchedPage(stack.browser, { cookies: [{ ...cookie, url: stack.server.url }] });
    await gotoHydrated(page, `${stack.server.url}/dashboard/applications/${applicationId}`);
    const card = offerCard(page);
    await card.waitFor();
    expect(await card.getByTestId("counteroffer-badge").textContent()).toBe("Counteroffer");
    expect((await card.textContent()) ?? "").toContain(REASON);

    // Keyboard: the dialog opens with focus inside; Escape keeps the offer and gives focus back.
    const trigger = card.getByRole("button", { name: "Decline Offer" });
    await trigger.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Decline this offer?" });
    await dialog.waitFor();
    expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    await expect.poll(() => trigger.evaluate((el) => el === document.activeElement)).toBe(true);

    // Decline for real.
    await trigger.click();
    await dialog.getByRole("button", { name: "Decline Offer" }).click();
    await page
      .locator("[data-sonner-toast]")
      .filter({ has: page.locator("[data-title]", { hasText: /^Offer declined$/ }) })
      .first()
      .waitFor();
    await dialog.waitFor({ state: "detached" });
    await expect.poll(() => card.getByTestId("offer-status").textContent().catch(() => null)).toBe("Declined");
    expect(await card.getByRole("button", { name: "Decline Offer" }).count()).toBe(0);
    expect(await card.getByRole("link", { name: "Review and Sign" }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);

    const [offer] = await stack.database.db.select().from(loanOffers).where(eq(loanOffers.applicationId, applicationId));
    expect(offer?.status).toBe("declined");

    // The notice of action taken reaches the applicant's mailbox.
    await stack.sink.waitFor(1, 20_000);
    const notice = stack.sink.messages.find((m) => m.to.includes("dana.decline@example.com") && m.subject.startsWith("Notice of action taken"));
    expect(notice).toBeTruthy();
    expect(notice!.text).toContain("Counteroffer");
    expect(notice!.text).toContain(REASON);
    expect(notice!.text).toContain("Equal Credit Opportunity Act");
    expect(notice!.text).toContain(`/dashboard/applications/${applicationId}`);
    await context.close();
  });

  it("the dashboard no longer lists the declined offer; a second decline is refused with 409", async () => {
    const { context, page } = await openWatchedPage(stack.browser, { cookies: [{ ...cookie, url: stack.server.url }] });
    await gotoHydrated(page, `${stack.server.url}/dashboard`);
    await page.getByRole("heading", { level: 2, name: "Approved Loans" }).waitFor();
    expect(await offerCard(page).count()).toBe(0);
    await context.close();
    const res = await fetch(`${stack.server.url}/dashboard/applications/${applicationId}/offer-decline`, {
      method: "POST",
      body: new URLSearchParams({ intent: "decline" }),
      headers: { cookie: `${cookie.name}=${cookie.value}`, origin: stack.server.url },
    });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { toast: { description: string } }).toast.description).toContain("can no longer be declined");
  });
});
