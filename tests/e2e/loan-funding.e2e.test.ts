import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { todayUtc } from "~/domain/dates";
import { achBatches, approvedLoans } from "~/server/platform/db/schema.server";
import { submitApplication } from "../helpers/applications";
import { checkNachaFile } from "../helpers/nacha-parser";
import { axeViolations, waitForHydration } from "./harness";
import { e2eStackForFile } from "./helpers/stack";
import { expectToast } from "./helpers/toasts";

/**
 * Funding a signed loan in a real browser: the borrower signs (over HTTP, as Review and Sign posts);
 * the dashboard says Awaiting Funding; staff open the loan's Funding Checklist, find the screening
 * blocked by a potential match (the applicant's name is on the sample SDN list the test servers load),
 * clear it on the application page, accept the ID document and record the account's validation; Fund
 * Loan; Create ACH Batch makes a file with the PPD credit of the net proceeds and, for a second
 * borrower signed meanwhile, the prenote of their account, read back with the registry's NACHA parser;
 * the bank settles the credit on the file's effective date (the test moves the file's day back, as a
 * day passing would); Mark Funds Settled makes the loan Active, and the borrower's dashboard and loan
 * page say "Funds sent on <date> to account ••••6789". Axe-clean at each step.
 */

const stack = e2eStackForFile({ firstIp: 140, admin: { email: "fund.admin@example.com", password: "Fund!Adm1n-Passw0rd" } });

const post = async (path: string, cookie: string, fields: Record<string, string>, expected: number[] = [200]) => {
  const res = await fetch(`${stack.url}${path}`, { method: "POST", body: new URLSearchParams(fields), headers: { cookie, origin: stack.url }, redirect: "manual" });
  expect(expected, `${path} ${fields.intent}: ${res.status} ${await res.clone().text()}`).toContain(res.status);
  return res;
};

/** An application submitted by `cookie`'s applicant, approved as requested, consented and signed with the application's name. */
async function signedLoan(cookie: string, adminCookie: string, first: string, last: string, account: string) {
  const applicationId = await submitApplication(stack.url, cookie, {
    ip: stack.nextIp(),
    fields: { firstName: first, lastName: last, middleInitial: "", loanAmount: "25,000", desiredInterestRate: "9.5", loanDuration: "36", accountNumber: account },
  });
  await post("/admin", adminCookie, { intent: "approve", applicationId, approvedAmount: "25000", interestRate: "9.5", termMonths: "36", originationFeePercent: "1.00" });
  await post(`/dashboard/applications/${applicationId}/offer`, cookie, { intent: "consent", agree: "on" });
  await post(`/dashboard/applications/${applicationId}/offer`, cookie, { intent: "sign", signatureKind: "typed", typedName: `${first} ${last}`, agree: "on", signedOn: todayUtc() }, [200, 204, 302, 303]);
  const dashboard = await (await fetch(`${stack.url}/dashboard`, { headers: { cookie } })).text();
  const loanId = [...dashboard.matchAll(/\/dashboard\/loans\/([0-9a-f-]{36})/g)].map((m) => m[1]!).at(0);
  if (!loanId) throw new Error("no View Loan link on the dashboard");
  return { applicationId, loanId };
}

describe("funding a signed loan", () => {
  it("sign → Awaiting Funding → checklist → potential match cleared → Fund Loan → ACH file (credit and prenote) → settled → Active, Funds sent", { timeout: 180_000 }, async () => {
    const rustam = await stack.signUp("rustam.karimov@example.com", "Rustam Karimov");
    const adminCookie = await stack.adminSession();
    const { applicationId, loanId } = await signedLoan(rustam, adminCookie, "Rustam", "Karimov", "000123456789");

    // The borrower's dashboard: the loan awaits funding.
    const borrower = await stack.open(rustam);
    await borrower.page.goto(`${stack.url}/dashboard`);
    await waitForHydration(borrower.page);
    await borrower.page.getByText("Awaiting Funding").first().waitFor();
    expect(await axeViolations(borrower.page)).toEqual([]);
    await borrower.context.close();

    const staff = await stack.open(adminCookie);
    const page = staff.page;
    const checklist = page.getByTestId("funding-checklist");
    const openLoan = async () => {
      await page.goto(`${stack.url}/admin/loans/${loanId}`);
      await waitForHydration(page);
      await page.getByRole("heading", { level: 2, name: "Funding Checklist" }).waitFor();
    };
    await openLoan();
    expect(await axeViolations(page)).toEqual([]);
    // Screened at submission: a potential match blocks funding; Fund Loan is disabled.
    expect(await checklist.textContent()).toContain("Sanctions screening clear");
    expect(await page.getByRole("button", { name: "Fund Loan" }).isDisabled()).toBe(true);

    // The application page shows the list entry; staff clear it with a reason.
    await page.goto(`${stack.url}/admin/applications/${applicationId}`);
    await waitForHydration(page);
    await page.getByRole("heading", { name: "Sanctions Screening: Potential Match" }).waitFor();
    expect(await page.getByText("KARIMOV, Rustam Bakhtiyorovich").count()).toBeGreaterThan(0);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Clear Match" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Clear Match" });
    await dialog.waitFor();
    await dialog.getByLabel(/^Reason/).fill("Different date of birth (1990) and nationality: not the listed person.");
    await expectToast(page, "Match cleared", () => dialog.getByRole("button", { name: "Clear Match" }).click());

    // Back on the loan: accept the ID document, record the account's validation, then Fund Loan.
    await openLoan();
    await expectToast(page, "ID document accepted", () => checklist.getByRole("button", { name: /^Accept ID Document/ }).first().click());
    const validation = page.getByRole("region", { name: "Account Validation" });
    await validation.getByLabel("Validation Method").selectOption("bank_letter");
    await validation.getByLabel("Reference").fill("VOIDED-CHECK-0042");
    await expectToast(page, "Account Validated", () => validation.getByRole("button", { name: "Record Validation" }).click());

    // A second borrower signs meanwhile: their account's prenote waits for the next file.
    const ora = await stack.signUp("ora.second@example.com", "Ora Second");
    await signedLoan(ora, adminCookie, "Ora", "Second", "000555444333");

    await openLoan();
    await expectToast(page, "Loan funded", () => page.getByRole("button", { name: "Fund Loan" }).click());
    expect(await axeViolations(page)).toEqual([]);

    // Create ACH Batch: one file with the credit of the net proceeds and the second borrower's prenote.
    await page.goto(`${stack.url}/admin/ach`);
    await waitForHydration(page);
    await expectToast(page, "ACH Batch Created", () => page.getByRole("button", { name: "Create ACH Batch" }).click());
    const batchId = (await page.locator('a[href^="/admin/ach/"][href$="/file"]').first().getAttribute("href"))!.split("/")[3]!;
    const file = await (await fetch(`${stack.url}/admin/ach/${batchId}/file`, { headers: { cookie: adminCookie } })).text();
    const parsed = checkNachaFile(file);
    const entries = parsed.batches.flatMap((b) => b.entries.map((e) => ({ ...e, sec: b.entryClassCode })));
    // 25,000 less the 1 % origination fee, to the checking account ending 6789.
    expect(entries).toContainEqual(expect.objectContaining({ sec: "PPD", transactionCode: "22", amount: 2_475_000, dfiAccount: expect.stringMatching(/^000123456789\s*$/) }));
    expect(entries).toContainEqual(expect.objectContaining({ sec: "PPD", transactionCode: "23", amount: 0, dfiAccount: expect.stringMatching(/^000555444333\s*$/) }));
    expect(parsed.batches.find((b) => b.entryClassCode === "PPD")!.serviceClassCode).toBe(220);

    // The bank settles the credit on the file's effective date: the test lets that day come (the file
    // is moved back to have been made the banking day before today).
    const today = todayUtc();
    await stack.restart(async (db) => {
      await db.update(achBatches).set({ effectiveDate: today }).where(eq(achBatches.id, batchId));
    });

    await openLoan();
    await page.getByRole("button", { name: "Mark Funds Settled" }).click();
    const settle = page.getByRole("dialog", { name: "Mark Funds Settled" });
    await settle.getByLabel("Settlement Date").fill(today);
    await expectToast(page, "Funds settled", () => settle.getByRole("button", { name: "Mark Settled" }).click());
    await stack.restart(async (db) => {
      const [loan] = await db.select({ status: approvedLoans.status, fundedOn: approvedLoans.fundedOn }).from(approvedLoans).where(eq(approvedLoans.id, loanId));
      expect(loan).toEqual({ status: "active", fundedOn: today });
    });
    await staff.context.close();

    // The borrower: Active, and when and where the funds went, on the dashboard and the loan page.
    // The day as the pages format it; the account by its last four digits only.
    const sent = /Funds sent on .+ to account ••••6789/;
    const after = await stack.open(rustam);
    await after.page.goto(`${stack.url}/dashboard`);
    await waitForHydration(after.page);
    await after.page.getByText(sent).first().waitFor();
    await after.page.goto(`${stack.url}/dashboard/loans/${loanId}`);
    await waitForHydration(after.page);
    await after.page.getByText(sent).first().waitFor();
    expect(await axeViolations(after.page)).toEqual([]);
    expect(after.errors).toEqual([]);
    await after.context.close();
  });
});
