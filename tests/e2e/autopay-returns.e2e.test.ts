import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, isNotNull, isNull } from "drizzle-orm";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RETRY_ENTRY_DESCRIPTION } from "~/domain/ach-returns";
import { autopayDebitDay } from "~/domain/autopay";
import { AUTOPAY_AUTHORIZATION_STATEMENT, autopayTimingPhrase } from "~/domain/autopay-authorization";
import { addBankingDays, nextBankingDay } from "~/domain/banking-days";
import { addDays, todayUtc } from "~/domain/dates";
import { formatDay } from "~/domain/formats";
import { addMonths } from "~/domain/loan-schedule";
import { formatMoney } from "~/domain/money";
import { AUTOPAY_MAX_DAYS_BEFORE_DUE } from "~/domain/servicing-enums";
import { individualIdFor } from "~/server/loans/ach-batches.server";
import { queueAutopayDebits } from "~/server/loans/autopay-job.server";
import { achBatches, approvedLoans, bankAccounts, bankAccountValidations, loanPayments } from "~/server/platform/db/schema.server";
import { achReturnFile } from "../helpers/ach-return-file";
import { checkNachaFile, type ParsedNachaFile } from "../helpers/nacha-parser";
import { axeViolations, waitForHydration } from "./harness";
import { markFundedAsSettled, signedLoanOverHttp } from "./helpers/signed-loan";
import { e2eStackForFile } from "./helpers/stack";
import { expectToast } from "./helpers/toasts";

/**
 * Autopay and a returned payment in a real browser, end to end: a funded loan whose first installment's
 * autopay debit falls on the next banking day; the borrower sets up autopay; the servicing job queues the
 * debit for that day; staff make the ACH file, read back with the registry's NACHA parser (a WEB batch
 * effective that day holding the recurring entry, Payment Type Code R, of the installment's amount); the
 * bank's day comes and it returns the debit R01 (Insufficient Funds) in a return file staff upload on
 * /admin/ach; the borrower's page says when we will try again and lists the retry; the retry's day comes
 * and the next file holds it in the RETRY PYMT batch; the borrower cancels autopay. The test moves the
 * loan back in time and lets days pass by restarting the server on changed data, as a day would.
 * Axe-clean at each page, no console errors.
 */

const stack = e2eStackForFile({ firstIp: 160, admin: { email: "returns.reviewer@example.com", password: "Ret0rns!Reviewer-Pw" } });

let jane = "";
let adminCookie = "";
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "autopay-returns-"));

beforeAll(async () => {
  jane = await stack.signUp("jane.returns@example.com", "Jane Doe-Smith");
  adminCookie = await stack.adminSession();
});

afterAll(() => {
  fs.rmSync(scratch, { recursive: true, force: true });
});

/**
 * A signing day S (20 to 45 days ago) and a number of days before the due date k (0–5) that make the
 * first installment (due one month after S, still to come) debit on the next banking day: the earliest
 * day a file made today can settle. Days before the due date are tried first, so the choice is exercised.
 */
function backdatedStart(today: string): { start: string; daysBefore: number; due: string } {
  const debitOn = nextBankingDay(today);
  for (let k = AUTOPAY_MAX_DAYS_BEFORE_DUE; k >= 0; k--) {
    for (let back = 45; back >= 20; back--) {
      const start = addDays(today, -back);
      const due = addMonths(start, 1);
      if (due > today && autopayDebitDay(due, k) === debitOn) return { start, daysBefore: k, due };
    }
  }
  throw new Error(`no signing day 20–45 days before ${today} makes an installment debit on ${debitOn}`);
}

/** Create ACH Batch on /admin/ach, then the new file's text as Download NACHA File serves it, checked and parsed. */
async function createBatch(page: Page, previous: string | null): Promise<{ batchId: string; text: string; parsed: ParsedNachaFile }> {
  await page.goto(`${stack.url}/admin/ach`);
  await waitForHydration(page);
  await expectToast(page, "ACH Batch Created", () => page.getByRole("button", { name: "Create ACH Batch" }).click());
  const link = page.locator('a[href^="/admin/ach/"][href$="/file"]').first();
  if (previous) await expect.poll(async () => (await link.getAttribute("href"))?.split("/")[3]).not.toBe(previous);
  const batchId = (await link.getAttribute("href"))!.split("/")[3]!;
  const res = await fetch(`${stack.url}/admin/ach/${batchId}/file`, { headers: { cookie: adminCookie } });
  expect(res.status).toBe(200);
  const text = await res.text();
  return { batchId, text, parsed: checkNachaFile(text) };
}

const yymmdd = (day: string) => day.slice(2).replace(/-/g, "");

describe("autopay, a returned debit and its retry", () => {
  it("Set Up Autopay → the WEB R entry effective the debit day → R01 return file imported → the retry in a later file → Cancel Autopay (axe-clean)", { timeout: 240_000 }, async () => {
    const today = todayUtc();
    const debitOn = nextBankingDay(today);
    const { start, daysBefore, due } = backdatedStart(today);
    const { loanId } = await signedLoanOverHttp(stack.server.url, jane, adminCookie, { ip: stack.nextIp() });
    const individualId = individualIdFor(loanId);

    // Funded and its account validated (staff recorded a bank letter), signed S: installment 1 is due
    // one month after S and its autopay debit day is the next banking day.
    await stack.restart(async (db) => {
      await markFundedAsSettled(db, loanId);
      const [loan] = await db.select({ applicationId: approvedLoans.applicationId, termMonths: approvedLoans.termMonths }).from(approvedLoans).where(eq(approvedLoans.id, loanId));
      const [account] = await db.select({ id: bankAccounts.id }).from(bankAccounts).where(eq(bankAccounts.applicationId, loan!.applicationId));
      await db.delete(bankAccountValidations).where(eq(bankAccountValidations.bankAccountId, account!.id));
      await db.insert(bankAccountValidations).values({ bankAccountId: account!.id, method: "bank_letter", status: "validated", reference: "E2E letter", validatedAt: new Date() });
      const funded = nextBankingDay(start);
      await db
        .update(approvedLoans)
        .set({ startDate: start, expectedFundingDate: funded, fundedOn: funded, firstPaymentDue: due, nextDueDate: due, maturityDate: addMonths(start, loan!.termMonths), servicedOn: null })
        .where(eq(approvedLoans.id, loanId));
    });

    // The borrower: installment 1 due that day, unpaid; Autopay Off.
    const borrower = await stack.open(jane);
    const loanPage = async () => {
      await borrower.page.goto(`${stack.url}/dashboard/loans/${loanId}`);
      await waitForHydration(borrower.page);
    };
    await loanPage();
    const first = borrower.page.getByTestId("schedule-row").first();
    const firstCells = await first.locator("td").allTextContents();
    expect(firstCells[0]).toBe("1");
    expect(firstCells[1]).toBe(formatDay(due));
    expect(firstCells.at(-1)).toContain("Unpaid");
    const installmentAmount = firstCells[2]!;
    const section = borrower.page.getByTestId("autopay");
    expect(await section.getByTestId("autopay-state").textContent()).toBe("Autopay Off");
    expect(await axeViolations(borrower.page)).toEqual([]);

    // Set Up Autopay: the chosen day before the due date (or on it).
    await borrower.page.getByRole("button", { name: "Set Up Autopay" }).click();
    const dialog = borrower.page.getByTestId("autopay-setup-dialog");
    await dialog.waitFor();
    await dialog.getByLabel("Debit day").selectOption(String(daysBefore));
    expect(await dialog.getByTestId("autopay-authorization").textContent()).toContain(autopayTimingPhrase(daysBefore));
    await dialog.getByLabel(new RegExp(AUTOPAY_AUTHORIZATION_STATEMENT)).check();
    expect(await axeViolations(borrower.page)).toEqual([]);
    await expectToast(borrower.page, "Autopay is on", () => dialog.getByRole("button", { name: "Set Up Autopay" }).click());
    await dialog.waitFor({ state: "detached" });
    await section.getByTestId("autopay-state").filter({ hasText: "Autopay On" }).waitFor();
    expect(await section.getByTestId("autopay-next").textContent()).toBe(`Next debit: ${installmentAmount} on ${formatDay(debitOn)} from Checking ••••6789 (planned).`);
    expect(await axeViolations(borrower.page)).toEqual([]);

    // The servicing job runs today: the debit is queued to settle on the next banking day.
    let debit = { id: "", amountCents: 0, reference: "" };
    await stack.restart(async (db) => {
      expect(await queueAutopayDebits(db, today)).toBe(1);
      const rows = await db
        .select({ id: loanPayments.id, amountCents: loanPayments.amountCents, reference: loanPayments.reference, scheduledOn: loanPayments.scheduledOn, paymentType: loanPayments.paymentType, installmentNumber: loanPayments.installmentNumber, status: loanPayments.status })
        .from(loanPayments)
        .where(eq(loanPayments.loanId, loanId));
      expect(rows).toEqual([expect.objectContaining({ scheduledOn: debitOn, paymentType: "R", installmentNumber: 1, status: "pending" })]);
      debit = { id: rows[0]!.id, amountCents: rows[0]!.amountCents, reference: rows[0]!.reference! };
    });
    expect(formatMoney(debit.amountCents)).toBe(installmentAmount);
    expect(debit.reference).toMatch(/^AUTO-[A-Z2-9]{8}$/);

    // Staff: Create ACH Batch: a WEB batch effective the debit day with the recurring entry.
    const staff = await stack.open(adminCookie);
    const file1 = await createBatch(staff.page, null);
    expect(await axeViolations(staff.page)).toEqual([]);
    const web = file1.parsed.batches.filter((b) => b.entryClassCode === "WEB");
    expect(web.map((b) => b.description.trim())).not.toContain(RETRY_ENTRY_DESCRIPTION);
    const entry = web.flatMap((b) => b.entries.map((e) => ({ ...e, effectiveDate: b.effectiveDate }))).find((e) => e.identificationNumber.trim() === individualId);
    expect(entry).toMatchObject({ transactionCode: "27", amount: debit.amountCents, paymentTypeCode: "R", effectiveDate: yymmdd(debitOn), dfiAccount: expect.stringMatching(/^000123456789\s*$/) });
    const trace = String(entry!.traceNumber).padStart(15, "0");

    // The bank's day comes (the file is moved to take effect today), and the bank returns the debit R01.
    await stack.restart(async (db) => {
      await db.update(achBatches).set({ effectiveDate: today }).where(eq(achBatches.id, file1.batchId));
      const [row] = await db.select({ trace: loanPayments.achTraceNumber }).from(loanPayments).where(eq(loanPayments.id, debit.id));
      expect(row!.trace).toBe(trace);
    });
    const returnFile = path.join(scratch, "returns-r01.ach");
    fs.writeFileSync(returnFile, achReturnFile({ files: [file1.text], entries: [{ traceNumber: trace, returnCode: "R01" }], effectiveDate: today }));
    await staff.page.goto(`${stack.url}/admin/ach`);
    await waitForHydration(staff.page);
    const importForm = staff.page.locator("form", { has: staff.page.locator('input[name="intent"][value="import-returns"]') });
    await importForm.getByLabel("The bank's return file (NACHA, at most 960 KB)").setInputFiles(returnFile);
    await expectToast(staff.page, "Return File Imported", () => importForm.getByRole("button", { name: "Import Return File" }).click(), /^1 returned entry: 1 debit\(s\)/);
    const returnedRow = staff.page.getByTestId("ach-batch-entries").locator("tr", { hasText: loanId.slice(0, 8) }).first();
    await returnedRow.filter({ hasText: `Returned ${formatDay(today)} (R01)` }).waitFor();
    expect(await axeViolations(staff.page)).toEqual([]);

    // The borrower: the returned debit and when we will try again; the retry under Upcoming debits.
    const retryOn = addBankingDays(today, 5);
    await loanPage();
    const returned = borrower.page.getByTestId("returned-payments").getByTestId("returned-row");
    expect(await returned.count()).toBe(1);
    const returnedText = (await returned.textContent()) ?? "";
    expect(returnedText).toContain(debit.reference);
    expect(returnedText).toContain("R01");
    expect(returnedText).toContain(`We will try again on ${formatDay(retryOn)}.`);
    const upcoming = borrower.page.getByTestId("upcoming-debit");
    expect(await upcoming.count()).toBe(1);
    const retryCells = await upcoming.first().locator("td").allTextContents();
    expect(retryCells).toEqual([formatDay(retryOn), installmentAmount, "Checking ••••6789", "Retry", `${debit.reference}-R1`]);
    expect(await section.getByTestId("autopay-state").textContent()).toBe("Autopay On");
    expect(await axeViolations(borrower.page)).toEqual([]);

    // The retry's day comes: the next file has it in its own RETRY PYMT batch, same amount, still R.
    await stack.restart(async (db) => {
      const retries = await db
        .update(loanPayments)
        .set({ scheduledOn: nextBankingDay(today) })
        .where(and(eq(loanPayments.retryOf, debit.id), eq(loanPayments.status, "pending"), isNull(loanPayments.achBatchId), isNotNull(loanPayments.retryNumber)))
        .returning({ id: loanPayments.id, retryNumber: loanPayments.retryNumber, scheduledOn: loanPayments.scheduledOn });
      expect(retries).toEqual([expect.objectContaining({ retryNumber: 1 })]);
    });
    const file2 = await createBatch(staff.page, file1.batchId);
    expect(await axeViolations(staff.page)).toEqual([]);
    const retryBatch = file2.parsed.batches.filter((b) => b.entryClassCode === "WEB" && b.description.trim() === RETRY_ENTRY_DESCRIPTION);
    expect(retryBatch).toHaveLength(1);
    expect(retryBatch[0]!.effectiveDate).toBe(yymmdd(nextBankingDay(today)));
    expect(retryBatch[0]!.entries).toEqual([
      expect.objectContaining({ transactionCode: "27", amount: debit.amountCents, paymentTypeCode: "R", identificationNumber: expect.stringMatching(new RegExp(`^${individualId}\\s*$`)) }),
    ]);
    expect(staff.errors).toEqual([]);
    await staff.context.close();

    // The borrower cancels autopay: Autopay Off.
    await loanPage();
    await borrower.page.getByRole("button", { name: "Cancel Autopay" }).click();
    const cancel = borrower.page.getByTestId("autopay-cancel-dialog");
    await cancel.waitFor();
    expect(await axeViolations(borrower.page)).toEqual([]);
    await expectToast(borrower.page, "Autopay is off", () => cancel.getByRole("button", { name: "Cancel Autopay" }).click());
    await section.getByTestId("autopay-state").filter({ hasText: "Autopay Off" }).waitFor();
    // The retry is in the bank's file already: cancelling autopay does not recall it.
    expect(await upcoming.count()).toBe(1);
    expect(await upcoming.first().locator("td").allTextContents()).toEqual([formatDay(nextBankingDay(today)), installmentAmount, "Checking ••••6789", "Retry", `${debit.reference}-R1`]);
    expect(await axeViolations(borrower.page)).toEqual([]);
    expect(borrower.errors).toEqual([]);
    await borrower.context.close();
  });
});
