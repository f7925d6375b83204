import { dollarsOf, percentOf } from "~/domain/money";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, setConfig } from "~/server/config.server";
import { openDatabase, type Database } from "~/server/db/client.server";
import { loanApplications, loanOffers, user as userTable } from "~/server/db/schema.server";
import { approveApplication } from "~/server/reviews.server";
import { signUpOverHttp, toBrowserCookies } from "../helpers/applicants";
import { submitApplication } from "../helpers/applications";
import type { SmtpSink } from "../helpers/smtp-sink";
import { axeViolations, gotoHydrated, testSecrets, type TestServer } from "./harness";
import { openWatchedPage } from "./helpers/pages";
import { ipSequence, startStack, stopStack } from "./helpers/stack";

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

let scratch: { url: string; drop: () => Promise<void> };
let sink: SmtpSink;
let server: TestServer;
let database: Database;
let browser: Browser;
let configDir: string;
const newIp = ipSequence(60);

beforeAll(async () => {
  // The approval is made by this process on the server's database: PostgreSQL (the embedded database
  // belongs to the server process). The usual local server unless CI names one.
  process.env.TEST_DATABASE_URL ||= "postgres://postgres@127.0.0.1:5432/test";
  const { createScratchPostgresDatabase } = await import("../helpers/test-db");
  scratch = await createScratchPostgresDatabase();
  const secrets = testSecrets();
  ({ sink, server, browser } = await startStack({ ...secrets, DATABASE_URL: scratch.url, TRUST_PROXY: "true", ADMIN_EMAIL, ADMIN_PASSWORD: "Rev1ewer!Passw0rd" }));
  configDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-offer-decline-e2e-"));
  setConfig(loadConfig({ NODE_ENV: "production", DATA_DIR: configDir, DATABASE_URL: scratch.url, PUBLIC_URL: server.url, ...secrets }));
  database = await openDatabase({ databaseUrl: scratch.url, poolSize: 2 });
});

afterAll(async () => {
  await database?.close();
  await stopStack({ sink, server, browser });
  await scratch?.drop();
  if (configDir) fs.rmSync(configDir, { recursive: true, force: true });
});

const offerCard = (page: Page) => page.getByRole("region", { name: "Your Loan Offer" });

describe("Decline Offer", () => {
  let cookie: { name: string; value: string };
  let applicationId: string;

  beforeAll(async () => {
    const email = "dana.decline@example.com";
    const [pair] = toBrowserCookies(await signUpOverHttp(server.url, sink, email, newIp(), "Dana Decline", PASSWORD), server.url);
    if (!pair?.value) throw new Error("no session cookie after sign-up");
    cookie = { name: pair.name, value: pair.value };
    applicationId = await submitApplication(server.url, `${cookie.name}=${cookie.value}`, { ip: newIp() });
    const [app] = await database.db.select().from(loanApplications).where(eq(loanApplications.id, applicationId));
    const [admin] = await database.db.select().from(userTable).where(eq(userTable.email, ADMIN_EMAIL));
    // Less money than requested, at the requested rate and term: a Counteroffer.
    await approveApplication(
      applicationId,
      { approvedAmount: dollarsOf(app!.requestedAmountCents) - 10_000, interestRate: percentOf(app!.desiredRateMilli), termMonths: app!.loanDuration, counterofferReasons: [REASON] },
      { id: admin!.id, name: admin!.name, email: admin!.email },
      { ip: "127.0.0.1", userAgent: "offer-decline e2e" },
      database.db,
    );
    sink.clear();
  });

  it("shows Your Loan Offer, labelled Counteroffer with its reason and every figure, on the dashboard (axe-clean)", async () => {
    const { context, page, errors } = await openWatchedPage(browser, { cookies: [{ ...cookie, url: server.url }] });
    await gotoHydrated(page, `${server.url}/dashboard`);
    const card = offerCard(page);
    await card.waitFor();
    const text = (await card.textContent()) ?? "";
    for (const label of ["Counteroffer", REASON, "Amount", "APR", "Note Rate", "Monthly Payment", "Term", "Origination Fee", "Amount Financed", "Finance Charge", "Total of Payments", "Offer Expires"]) {
      expect(text).toContain(label);
    }
    expect(await card.getByRole("link", { name: "Review and Sign" }).getAttribute("href")).toBe(`/dashboard/applications/${applicationId}/offer`);
    await card.getByRole("button", { name: "Decline Offer" }).waitFor();
    // Loans appear under Approved Loans only once signed.
    expect(await page.getByText("No Approved Loans Yet").count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("declines on the application page through the confirm dialog: Declined, a toast, and a Reg B notice naming the Counteroffer and its reason", async () => {
    const { context, page, errors } = await openWatchedPage(browser, { cookies: [{ ...cookie, url: server.url }] });
    await gotoHydrated(page, `${server.url}/dashboard/applications/${applicationId}`);
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

    const [offer] = await database.db.select().from(loanOffers).where(eq(loanOffers.applicationId, applicationId));
    expect(offer?.status).toBe("declined");

    // The notice of action taken reaches the applicant's mailbox.
    await sink.waitFor(1, 20_000);
    const notice = sink.messages.find((m) => m.to.includes("dana.decline@example.com") && m.subject.startsWith("Notice of action taken"));
    expect(notice).toBeTruthy();
    expect(notice!.text).toContain("Counteroffer");
    expect(notice!.text).toContain(REASON);
    expect(notice!.text).toContain("Equal Credit Opportunity Act");
    expect(notice!.text).toContain(`/dashboard/applications/${applicationId}`);
    await context.close();
  });

  it("the dashboard no longer lists the declined offer; a second decline is refused with 409", async () => {
    const { context, page } = await openWatchedPage(browser, { cookies: [{ ...cookie, url: server.url }] });
    await gotoHydrated(page, `${server.url}/dashboard`);
    await page.getByRole("heading", { level: 2, name: "Approved Loans" }).waitFor();
    expect(await offerCard(page).count()).toBe(0);
    await context.close();
    const res = await fetch(`${server.url}/dashboard/applications/${applicationId}/offer-decline`, {
      method: "POST",
      body: new URLSearchParams({ intent: "decline" }),
      headers: { cookie: `${cookie.name}=${cookie.value}`, origin: server.url },
    });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { toast: { description: string } }).toast.description).toContain("can no longer be declined");
  });
});
