import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { AUTOPAY_AUTHORIZATION_STATEMENT } from "~/domain/autopay-authorization";
import { approvedLoans, autopayAuthorizations, bankAccounts, bankAccountValidations } from "~/server/platform/db/schema.server";
import { queueAutopayDebits } from "~/server/loans/autopay-job.server";
import { axeViolations, waitForHydration } from "./harness";
import { markFundedAsSettled, signedLoanOverHttp } from "./helpers/signed-loan";
import { e2eStackForFile } from "./helpers/stack";
import { expectToast } from "./helpers/toasts";

/**
 * Autopay on the borrower's loan page in a real browser: Autopay Off → Set Up Autopay (the account,
 * the day, the recurring-debit authorisation filled in live, refused without its checkbox) → Autopay
 * On with the next debit; the job queues the debit (Upcoming debits: Autopay); Cancel Autopay → Off.
 * Axe-clean at each step.
 */

const stack = e2eStackForFile({ firstIp: 150, admin: { email: "autopay.reviewer@example.com", password: "Rev1ewer!Passw0rd" } });

let jane = "";
let adminCookie = "";

beforeAll(async () => {
  jane = await stack.signUp("jane.autopay@example.com", "Jane Doe-Smith");
  adminCookie = await stack.adminSession();
});

describe("autopay on the borrower's loan page", () => {
  it("Set Up Autopay → On with the next debit → the queued debit under Upcoming debits → Cancel Autopay (axe-clean)", async () => {
    const { loanId } = await signedLoanOverHttp(stack.server.url, jane, adminCookie, { ip: stack.nextIp() });
    // Funded, and its account validated (staff recorded a bank letter): what autopay needs.
    await stack.restart(async (db) => {
      await markFundedAsSettled(db, loanId);
      const [loan] = await db.select({ applicationId: approvedLoans.applicationId }).from(approvedLoans).where(eq(approvedLoans.id, loanId));
      const [account] = await db.select({ id: bankAccounts.id }).from(bankAccounts).where(eq(bankAccounts.applicationId, loan!.applicationId));
      await db.delete(bankAccountValidations).where(eq(bankAccountValidations.bankAccountId, account!.id));
      await db.insert(bankAccountValidations).values({ bankAccountId: account!.id, method: "bank_letter", status: "validated", reference: "E2E letter", validatedAt: new Date() });
    });
    const { context, page, errors } = await stack.open(jane);
    await page.goto(`${stack.server.url}/dashboard/loans/${loanId}`);
    await waitForHydration(page);
    const section = page.getByTestId("autopay");
    expect(await section.getByTestId("autopay-state").textContent()).toBe("Autopay Off");
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "Set Up Autopay" }).click();
    const dialog = page.getByTestId("autopay-setup-dialog");
    await dialog.waitFor();
    expect(await dialog.getByLabel("Bank account").locator("option").first().textContent()).toBe("Checking ••••6789");
    await dialog.getByLabel("Debit day").selectOption("2");
    const text = (await dialog.getByTestId("autopay-authorization").textContent()) ?? "";
    expect(text).toContain("recurring electronic debits (ACH) from my Checking ••••6789, once a month");
    expect(text).toContain("2 days before each installment's due date");
    expect(text).not.toContain("000123456789");
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Set Up Autopay" }).click();
    await dialog.locator("#autopay-setup-authorize-error", { hasText: "Check the box" }).waitFor();
    await dialog.getByLabel(new RegExp(AUTOPAY_AUTHORIZATION_STATEMENT)).check();
    await expectToast(page, "Autopay is on", () => dialog.getByRole("button", { name: "Set Up Autopay" }).click());
    await dialog.waitFor({ state: "detached" });
    await section.getByTestId("autopay-state").filter({ hasText: "Autopay On" }).waitFor();
    expect(await section.getByTestId("autopay-next").textContent()).toMatch(/Next debit: \$80\d\.\d{2} on .+ from Checking ••••6789 \(planned\)/);
    expect(await axeViolations(page)).toEqual([]);

    // The servicing job on the debit's queue day: the debit is queued for its day.
    await stack.restart(async (db) => {
      const [auth] = await db.select({ nextQueueOn: autopayAuthorizations.nextQueueOn }).from(autopayAuthorizations).where(eq(autopayAuthorizations.loanId, loanId));
      expect(await queueAutopayDebits(db, auth!.nextQueueOn!)).toBe(1);
    });
    await page.goto(`${stack.server.url}/dashboard/loans/${loanId}`);
    await waitForHydration(page);
    const upcoming = (await page.getByTestId("upcoming-debit").first().textContent()) ?? "";
    expect(upcoming).toContain("Autopay");
    expect(upcoming).toMatch(/AUTO-[A-Z2-9]{8}/);

    await page.getByRole("button", { name: "Cancel Autopay" }).click();
    const cancel = page.getByTestId("autopay-cancel-dialog");
    await cancel.waitFor();
    await expectToast(page, "Autopay is off", () => cancel.getByRole("button", { name: "Cancel Autopay" }).click());
    await page.getByTestId("autopay").getByTestId("autopay-state").filter({ hasText: "Autopay Off" }).waitFor();
    expect(await page.getByTestId("upcoming-debits-empty").count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
