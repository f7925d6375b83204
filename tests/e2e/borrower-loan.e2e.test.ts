import fs from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { ACH_AUTHORIZATION_STATEMENT } from "~/domain/ach-authorization";
import { SCHEDULE_NOTE } from "~/domain/loan-servicing";
import { axeViolations, waitForHydration } from "./harness";
import { markFundedAsSettled, signedLoanOverHttp } from "./helpers/signed-loan";
import { e2eStackForFile } from "./helpers/stack";
import { expectToast } from "./helpers/toasts";

/**
 * The borrower's loan page (issue 21) in a real browser: a loan signed over HTTP; the dashboard links
 * to it (View Loan); the page shows Next Payment, the 36-row Payment Schedule and the schedule note;
 * Make a Payment (the next installment, the ACH authorisation checked) leaves a Pending payment in
 * Payment History; the payoff quote PDF downloads; axe-clean; another applicant and staff get 404.
 */

const stack = e2eStackForFile({ firstIp: 140, admin: { email: "loan.reviewer@example.com", password: "Rev1ewer!Passw0rd" } });

let jane = "";
let john = "";
let adminCookie = "";

beforeAll(async () => {
  jane = await stack.signUp("jane.loan@example.com", "Jane Doe-Smith");
  john = await stack.signUp("john.loan@example.com", "John Loan");
  adminCookie = await stack.adminSession();
});

describe("the borrower's loan page", () => {
  it("Next Payment, the schedule and its note; Make a Payment → Pending; the payoff quote downloads (axe-clean)", async () => {
    const { loanId } = await signedLoanOverHttp(stack.server.url, jane, adminCookie, { ip: stack.nextIp() });
    // Funded: its credit settled (this test is about paying a funded loan).
    await stack.restart((db) => markFundedAsSettled(db, loanId));
    const { context, page, errors } = await stack.open(jane);

    await page.goto(`${stack.server.url}/dashboard`);
    await waitForHydration(page);
    await page.locator("#approved-loans").getByRole("link", { name: /View Loan/ }).first().click();
    await page.waitForURL(`${stack.server.url}/dashboard/loans/${loanId}`);
    await waitForHydration(page);

    await page.getByRole("heading", { level: 1, name: /^Your / }).waitFor();
    // One reference per loan: the agreement's, here, on the payoff letter's file name and inside it.
    const reference = /LN-[0-9A-F]{8}/.exec((await page.getByTestId("loan-reference").textContent()) ?? "")?.[0] ?? "";
    expect(reference).toMatch(/^LN-[0-9A-F]{8}$/);
    expect(await page.getByTestId("loan-status").textContent()).toBe("Current");
    const next = (await page.getByTestId("next-payment").textContent()) ?? "";
    expect(next).toContain("Next Payment");
    const installment = /\$[\d,]+\.\d{2}/.exec(next)?.[0] ?? "";
    expect(installment).toMatch(/^\$80\d\.\d{2}$/); // 25,000 at 9.5 % for 36 months
    expect(await page.getByTestId("schedule-row").count()).toBe(36);
    expect(await page.getByText(SCHEDULE_NOTE).count()).toBe(1);
    expect(await page.getByTestId("payment-history-empty").count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);

    // Make a Payment: the next installment from the checking account on file (masked).
    await page.getByRole("button", { name: "Make a Payment" }).click();
    const dialog = page.getByTestId("make-payment-dialog");
    await dialog.waitFor();
    expect(await dialog.getByLabel("Bank account").locator("option").first().textContent()).toBe("Checking ••••6789");
    const authorization = (await dialog.getByTestId("ach-authorization").textContent()) ?? "";
    expect(authorization).toContain(`one-time electronic debit (ACH) of ${installment} from my checking account ending in 6789`);
    expect(authorization).not.toContain("000123456789");
    expect(await axeViolations(page)).toEqual([]);
    // Without the checkbox: refused in the page.
    await dialog.getByRole("button", { name: "Authorize Payment" }).click();
    await dialog.locator("#pay-authorize-error", { hasText: "Check the box" }).waitFor();
    await dialog.getByLabel(new RegExp(ACH_AUTHORIZATION_STATEMENT)).check();
    await expectToast(page, "Payment authorized", () => dialog.getByRole("button", { name: "Authorize Payment" }).click());
    await dialog.waitFor({ state: "detached" });

    const history = page.getByTestId("payment-history");
    await history.waitFor();
    const row = (await history.getByTestId("history-row").first().textContent()) ?? "";
    expect(row).toContain("Pending");
    expect(row).toContain(installment);
    expect(row).toMatch(/WEB-[A-Z2-9]{8}/);
    expect(await page.getByTestId("payment-pending-note").count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);

    // The payoff quote: the form's date → the PDF letter as a download.
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Get Payoff Quote" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^payoff-quote-ln-[0-9a-f]{8}-\d{4}-\d{2}-\d{2}\.pdf$/);
    expect(download.suggestedFilename()).toContain(`payoff-quote-${reference.toLowerCase()}-`);
    const file = await download.path();
    expect(fs.readFileSync(file).subarray(0, 4).toString("latin1")).toBe("%PDF");
    expect(errors).toEqual([]);
    await context.close();

    // Someone else's loan, and staff on the borrower's route: 404.
    for (const cookie of [john, adminCookie]) {
      expect((await fetch(`${stack.server.url}/dashboard/loans/${loanId}`, { headers: { cookie }, redirect: "manual" })).status).toBe(404);
      expect((await fetch(`${stack.server.url}/dashboard/loans/${loanId}/documents?kind=payoff&date=${new Date().toISOString().slice(0, 10)}`, { headers: { cookie }, redirect: "manual" })).status).toBe(404);
    }
  });
});
