import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { AGREE_TO_PLAN_LABEL } from "~/domain/validation/hardship";
import { approvedLoans } from "~/server/platform/db/schema.server";
import { axeViolations, waitForHydration } from "./harness";
import { markFundedAsSettled, signedLoanOverHttp } from "./helpers/signed-loan";
import { e2eStackForFile } from "./helpers/stack";
import { expectToast } from "./helpers/toasts";

/**
 * A hardship plan in a real browser: the borrower asks (Request Help with Payments: the reason and what
 * they can pay), staff see the request in the loan's Hardship panel and offer a Deferment, the borrower
 * reviews the new Payment Schedule and its effect on the total cost, signs with their typed name, and
 * the loan page follows the new schedule (the first unpaid installment falls due two months later) with
 * the signed modification's PDF to download. Axe-clean at each step.
 */

const stack = e2eStackForFile({ firstIp: 236, admin: { email: "hardship.reviewer@example.com", password: "Rev1ewer!Passw0rd" } });

let jane = "";
let adminCookie = "";

beforeAll(async () => {
  jane = await stack.signUp("jane.hardship@example.com", "Jane Doe-Smith");
  adminCookie = await stack.adminSession();
});

describe("hardship plan", () => {
  it("Request Help with Payments → staff Offer Plan (Deferment) → the borrower reviews and signs → the new schedule is shown (axe-clean)", async () => {
    const { loanId } = await signedLoanOverHttp(stack.server.url, jane, adminCookie, { ip: stack.nextIp() });
    let firstDueBefore = "";
    await stack.restart(async (db) => {
      await markFundedAsSettled(db, loanId);
      firstDueBefore = (await db.select({ d: approvedLoans.nextDueDate }).from(approvedLoans).where(eq(approvedLoans.id, loanId)))[0]!.d!;
    });
    expect(firstDueBefore).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    // The borrower asks for help.
    const borrower = await stack.open(jane);
    const page = borrower.page;
    await page.goto(`${stack.server.url}/dashboard/loans/${loanId}`);
    await waitForHydration(page);
    const section = page.getByTestId("hardship");
    await section.getByRole("button", { name: "Request Help with Payments" }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await section.getByRole("button", { name: "Request Help with Payments" }).click();
    await section.locator("#hardship-reason-error", { hasText: "Choose the reason" }).waitFor();
    await section.getByLabel("Reason").selectOption("job_loss");
    await section.getByLabel("Details (optional)").fill("My hours were cut for two months.");
    await section.getByLabel("What You Can Pay a Month").fill("150");
    await expectToast(page, "Request sent", () => section.getByRole("button", { name: "Request Help with Payments" }).click());
    await section.getByTestId("hardship-request-status").filter({ hasText: "Open" }).waitFor();
    expect(await section.getByRole("button", { name: "Request Help with Payments" }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);

    // Staff see the request and offer a deferment of two installments.
    const staff = await stack.open(adminCookie);
    await staff.page.goto(`${stack.server.url}/admin/loans/${loanId}`);
    await waitForHydration(staff.page);
    const panel = staff.page.getByTestId("hardship-panel");
    await panel.getByTestId("hardship-request").waitFor();
    expect(await panel.getByTestId("hardship-request").textContent()).toContain("Job loss or reduced hours");
    expect(await panel.getByTestId("hardship-request").textContent()).toContain("$150.00");
    await panel.getByLabel("Plan").selectOption("deferment");
    await panel.getByLabel("Installments to Defer").fill("2");
    expect(await axeViolations(staff.page)).toEqual([]);
    await expectToast(staff.page, "Plan offered", () => panel.getByRole("button", { name: "Offer Plan" }).click());
    await panel.getByTestId("hardship-offer").waitFor();
    expect(await panel.getByTestId("hardship-offer").textContent()).toContain("Deferment");
    expect(await axeViolations(staff.page)).toEqual([]);

    // The borrower reviews the plan: the new schedule and its effect on the total cost.
    await page.goto(`${stack.server.url}/dashboard/loans/${loanId}`);
    await waitForHydration(page);
    await page.getByTestId("hardship-offer").getByRole("link", { name: "Review Your Plan" }).click();
    await page.getByRole("heading", { level: 1, name: "Review Your Plan" }).waitFor();
    await waitForHydration(page);
    const cost = (await page.getByTestId("plan-cost").textContent()) ?? "";
    expect(cost).toContain("Total of remaining payments");
    expect(cost).toContain("Finance charge (interest)");
    expect(cost).toMatch(/\+\$\d/);
    const newFirstDue = (await page.getByTestId("plan-new-schedule").locator("tbody tr").first().locator("td").nth(1).textContent()) ?? "";
    const oldFirstDue = (await page.getByTestId("plan-old-schedule").locator("tbody tr").first().locator("td").nth(1).textContent()) ?? "";
    expect(newFirstDue).not.toBe(oldFirstDue);
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "Sign Plan" }).click();
    await page.locator("#plan-typed-name-error", { hasText: "Type your full name" }).waitFor();
    await page.getByLabel("Full Name").fill("Jane Doe-Smith");
    await page.getByLabel(AGREE_TO_PLAN_LABEL).check();
    await expectToast(page, "Plan signed", () => page.getByRole("button", { name: "Sign Plan" }).click());
    await page.waitForURL(`${stack.server.url}/dashboard/loans/${loanId}`);
    await waitForHydration(page);

    // The loan page follows the new schedule: its first unpaid installment is the moved one.
    const firstRow = page.getByTestId("payment-schedule").getByTestId("schedule-row").first();
    expect(await firstRow.textContent()).toContain(newFirstDue);
    const signed = page.getByTestId("hardship-signed");
    await signed.waitFor();
    expect(await signed.textContent()).toContain("Deferment");
    const href = await signed.getByRole("link", { name: "Signed modification (PDF)" }).getAttribute("href");
    const pdf = await fetch(`${stack.server.url}${href}`, { headers: { cookie: jane } });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(await page.getByTestId("hardship-request-status").textContent()).toBe("Closed");
    expect(await axeViolations(page)).toEqual([]);
    expect(borrower.errors).toEqual([]);
    expect(staff.errors).toEqual([]);
    await borrower.context.close();
    await staff.context.close();
  });
});
