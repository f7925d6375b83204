import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { daysBetween, lateFeeCents, payoffQuote, type LoanTerms } from "~/domain/loan-servicing";
import { runServicingJobs } from "~/server/loans/servicing-jobs.server";

import { loadConfig, setConfig, getConfig } from "~/server/platform/config.server";
import { todayUtc } from "~/domain/dates";
import { openDatabase } from "~/server/platform/db/client.server";
import { runMigrations } from "~/server/platform/db/migrate.server";
import { approvedLoans, bankAccountValidations, bankAccounts, loanFees, loanPayments } from "~/server/platform/db/schema.server";
import { encryptField } from "~/server/platform/crypto/field-encryption.server";
import { ENCRYPTION_PURPOSES } from "~/server/platform/crypto/encryption-purposes.server";
import { formatMoney } from "~/domain/money";
import { LOAN_PAYMENT_MESSAGES } from "~/domain/validation/loan-payments";
import { createLocalStorage } from "~/server/platform/storage/storage.server";
import { signInAdminWithMfa } from "../helpers/admins";
import { toBrowserCookies } from "../helpers/applicants";
import type { SmtpSink } from "../helpers/smtp-sink";
import { newDataDir } from "./data-template";
import { axeViolations, gotoHydrated, launchBrowser, testSecrets, type TestServer } from "./harness";
import { openWatchedPage } from "./helpers/pages";
import { confirmWithReason, REASON_DIALOGS } from "./helpers/reason-dialog";
import { startServerWithMail, stopStack } from "./helpers/stack";
import { expectToast } from "./helpers/toasts";
import { seedApplicant, seedLoan, seedUser } from "../helpers/seed";

/**
 * The servicing journey (issue 21's "done means"), staff side, in a real browser against the built
 * server: a loan from a signed agreement (approved, consented and signed through the services, 70 days
 * ago, in the server's data folder before it starts), a late fee on the first installment (inserted here
 * as the servicing job assesses it: lateFeeCents of the installment, once, after the grace period),
 * then on /admin/loans/:id two Record Payments, a Reverse Payment (Returned / NSF), the payoff quote
 * (payoffQuote, as the page's Payoff Today shows it) and a final Record Payment of it: Paid in Full.
 * Axe-clean at each step; the loan tape then says Paid in Full.
 */

const ADMIN = { email: "journey.admin@example.com", password: "J0urney!Adm1n-Pass" };
const DAY = 86_400_000;

let dataDir: string;
let secrets: Record<string, string>;
let sink: SmtpSink;
let server: TestServer;
let browser: Browser;
let loanId = "";
let terms: LoanTerms;
let paymentCents = 0;
let fee = { amountCents: 0, assessedOn: "", installmentNumber: 1 };
const today = todayUtc();
const dayBefore = (days: number) => todayUtc(new Date(Date.now() - days * DAY));

beforeAll(async () => {
  dataDir = newDataDir("portal-journey-e2e-");
  secrets = testSecrets();
  setConfig(loadConfig({ NODE_ENV: "production", DATA_DIR: dataDir, PUBLIC_URL: "http://127.0.0.1", ...secrets }));
  const database = await openDatabase({ dataDir });
  try {
    await runMigrations(database);
    const db = database.db;
    const reviewer = { id: "journey-reviewer", name: "Rita Reviewer", email: "journey.reviewer@example.com" };
    await seedUser(db, reviewer);
    // No staff role here: the server creates its admin from ADMIN_EMAIL only while there is none.
    const borrower = { id: "journey-borrower", name: "Dana Whitfield", email: "dana.journey@example.com", isStaff: false };
    await seedApplicant(db, { id: borrower.id, name: borrower.name, email: borrower.email, profile: true });
    const signedAt = new Date(Date.now() - 70 * DAY);
    // As requested (25,000 at 9.5 % for 36 months): an offer, not a counteroffer, approved the day before signing.
    const seeded = await seedLoan(db, {
      owner: borrower,
      admin: reviewer,
      application: { firstName: "Dana", lastName: "Whitfield", email: borrower.email, submittedAt: new Date(Date.now() - 72 * DAY) },
      at: new Date(signedAt.getTime() - DAY),
      signedAt,
      storage: createLocalStorage(path.join(dataDir, "storage")),
    });
    loanId = seeded.loanId;
    const [loan] = await db.select().from(approvedLoans).where(eq(approvedLoans.id, loanId));
    // Interest from the day the proceeds settled (the expected funding day here), as the ledger charges it.
    terms = { amountCents: loan!.amountCents, noteRateMilli: loan!.noteRateMilli, termMonths: loan!.termMonths, startDate: loan!.startDate, interestFrom: loan!.fundedOn };
    paymentCents = loan!.paymentCents;
    // The first installment is unpaid past the grace period: the servicing job (the same run every
    // instance schedules hourly) assesses its one late fee; the second is not past its grace yet.
    const policy = getConfig().lateFeePolicy;
    const due1 = loan!.nextDueDate!;
    const run = await runServicingJobs(db, new Date());
    expect(run).toMatchObject({ ran: true, feesAssessed: 1 });
    const fees = await db.select().from(loanFees).where(eq(loanFees.loanId, loanId));
    expect(fees.map((f) => [f.kind, f.installmentNumber, f.amountCents])).toEqual([["late_fee", 1, lateFeeCents(paymentCents, policy)]]);
    fee = { amountCents: fees[0]!.amountCents, assessedOn: fees[0]!.assessedOn, installmentNumber: 1 };
    expect(daysBetween(due1, fee.assessedOn)).toBeGreaterThan(policy.graceDays);
    expect(fee.assessedOn <= dayBefore(20)).toBe(true);
    // A second run (another instance, the next hour) assesses nothing more.
    expect(await runServicingJobs(db, new Date())).toMatchObject({ feesAssessed: 0 });
    // The borrower authorised a one-time debit of $100.00 that is not in an ACH file yet.
    const [bank] = await db
      .insert(bankAccounts)
      .values({
        userId: borrower.id,
        applicationId: seeded.application.id,
        accountHolderName: borrower.name,
        bankName: "Test Bank",
        accountType: "checking",
        accountNumber: encryptField("000123456789", ENCRYPTION_PURPOSES.accountNumber),
        routingNumber: encryptField("021000021", ENCRYPTION_PURPOSES.routingNumber),
        accountNumberLast4: "6789",
        routingNumberLast2: "21",
      })
      .returning({ id: bankAccounts.id });
    // Validated before its first debit (staff recorded the borrower's bank letter).
    await db.insert(bankAccountValidations).values({ bankAccountId: bank!.id, method: "bank_letter", status: "validated", reference: "Journey bank letter", validatedAt: new Date() });
    await db.insert(loanPayments).values({
      loanId,
      userId: borrower.id,
      amountCents: 10_000,
      status: "pending",
      method: "ach",
      source: "borrower",
      choice: "amount",
      reference: "WEB-JOURNEY1",
      bankAccountId: bank!.id,
      authorizationVersion: "test-1",
      authorizedAt: new Date(),
    });
  } finally {
    await database.close();
  }
  ({ sink, server } = await startServerWithMail({ ...secrets, TRUST_PROXY: "true", ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password }, { dataDir }));
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await stopStack({ sink, server, browser });
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("servicing a loan, staff side", () => {
  it("signed agreement → two payments (the late fee first) → a reversal → the payoff quote → the final payment: Paid in Full; axe-clean", async () => {
    const { cookie } = await signInAdminWithMfa(server.url, ADMIN.email, ADMIN.password, "198.51.100.210");
    const { context, page, errors } = await openWatchedPage(browser, { cookies: toBrowserCookies(cookie, server.url), width: 1280, expectedConsoleErrors: /status of 4\d\d/ });
    try {
      await page.setViewportSize({ width: 1280, height: 800 });
      // The list: the loan is Late (its first installment is past due), under Late and found by name.
      await gotoHydrated(page, `${server.url}/admin/loans?status=late`);
      const row = page.locator(`[data-testid="loan-row"][data-loan-id="${loanId}"]`);
      await row.waitFor();
      expect(await row.getAttribute("data-status")).toBe("late");
      expect(await page.getByRole("link", { name: "Loans", exact: true }).getAttribute("aria-current")).toBe("page");
      expect(await axeViolations(page)).toEqual([]);
      await gotoHydrated(page, `${server.url}/admin/loans?q=whitfield`);
      await row.getByRole("link", { name: "Dana Whitfield" }).click();
      await page.waitForURL(`**/admin/loans/${loanId}`);
      await page.getByTestId("schedule-note").waitFor();
      expect(await page.getByTestId("loan-status").first().textContent()).toBe("Late");
      expect(await page.getByTestId("fee").count()).toBe(1);
      expect(await page.getByTestId("installment").count()).toBe(36);
      expect(await axeViolations(page)).toEqual([]);

      const record = async (amountCents: number, receivedOn: string, method: "ACH" | "Wire" | "Check", reference: string, toast = "Payment recorded", confirmPendingDebit = false) => {
        await page.getByRole("button", { name: "Record Payment" }).click();
        const dialog = page.getByRole("dialog", { name: "Record Payment" });
        await dialog.waitFor();
        await dialog.getByLabel("Amount").fill((amountCents / 100).toFixed(2));
        await dialog.getByLabel("Received Date").fill(receivedOn);
        await dialog.getByLabel("Method").selectOption({ label: method });
        await dialog.getByLabel("Reference").fill(reference);
        if (confirmPendingDebit) {
          // The borrower's debit is pending: posting is refused until staff tick the confirmation.
          expect(await dialog.getByTestId("pending-debit-warning").textContent()).toContain("A borrower debit of $100.00 is pending on this loan");
          await dialog.getByRole("button", { name: "Post Payment" }).click();
          await dialog.getByText(LOAN_PAYMENT_MESSAGES.confirmPendingDebit).waitFor();
          expect(await axeViolations(page)).toEqual([]);
          await dialog.getByLabel("Record it anyway: I checked the pending debit").check();
        }
        await expectToast(page, toast, () => dialog.getByRole("button", { name: "Post Payment" }).click());
        await dialog.waitFor({ state: "detached" });
        await page.locator(`[data-testid="ledger-payment"][data-reference="${reference}"]`).waitFor();
      };

      // Bad input stays in the dialog with the message beside the field.
      await page.getByRole("button", { name: "Record Payment" }).click();
      const dialog = page.getByRole("dialog", { name: "Record Payment" });
      await dialog.waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await dialog.getByLabel("Amount").fill("12.345");
      await dialog.getByRole("button", { name: "Post Payment" }).click();
      await dialog.getByText(/Enter the amount received/).waitFor();
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "detached" });

      // Payment 1 (after the fee was assessed): the fee first, then interest, then principal.
      const p1 = { amountCents: paymentCents + fee.amountCents, receivedOn: dayBefore(20) };
      await record(p1.amountCents, p1.receivedOn, "Check", "CHK-1001", "Payment recorded", true);
      const first = page.locator('[data-testid="ledger-payment"][data-reference="CHK-1001"]');
      expect(await first.getAttribute("data-status")).toBe("posted");
      expect(await first.textContent()).toContain(formatMoney(fee.amountCents));
      // Staff cancel the borrower's pending debit on the ACH page, with the reason the borrower is told.
      await gotoHydrated(page, `${server.url}/admin/ach`);
      const pendingRow = page.getByTestId("ach-pending-debit").filter({ hasText: "$100.00" });
      await pendingRow.waitFor();
      expect(await pendingRow.getByTestId("ach-skip-reason").textContent()).toBe("Included");
      expect(await axeViolations(page)).toEqual([]);
      await pendingRow.getByLabel("Reason (the borrower is told)").fill("Paid by check instead");
      await expectToast(page, "Debit Cancelled", () => pendingRow.getByRole("button", { name: /Cancel Debit/ }).click());
      await page.getByText("No borrower debits are waiting for a batch.").waitFor();
      await expect.poll(() => sink.messages.some((m) => m.to.includes("dana.journey@example.com") && /payment was cancelled/.test(m.subject) && m.text.includes("Paid by check instead")), { timeout: 20_000 }).toBe(true);
      await gotoHydrated(page, `${server.url}/admin/loans/${loanId}`);
      expect(await page.locator('[data-testid="ledger-payment"][data-reference="WEB-JOURNEY1"]').getAttribute("data-status")).toBe("cancelled");

      // Payment 2, then reversed (Returned / NSF): the reason is required.
      const p2 = { amountCents: paymentCents, receivedOn: dayBefore(10) };
      await record(p2.amountCents, p2.receivedOn, "Wire", "WIRE-2002");
      const second = page.locator('[data-testid="ledger-payment"][data-reference="WIRE-2002"]');
      await confirmWithReason(page, second.getByRole("button", { name: "Reverse Payment WIRE-2002" }), REASON_DIALOGS.reversePayment, "Returned / NSF");
      await expect.poll(() => second.getAttribute("data-status")).toBe("reversed");
      expect(await second.getByTestId("payment-status").textContent()).toBe("Reversed");
      expect(await second.getByRole("button", { name: /Reverse Payment/ }).count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);

      // The payoff quote for today: principal + interest accrued to today + unpaid fees, as the page shows it.
      const quote = payoffQuote(terms, [{ id: "p1", receivedOn: p1.receivedOn, amountCents: p1.amountCents }], [{ id: "f1", ...fee }], today);
      expect(quote.totalCents).toBe(quote.principalCents + quote.interestCents + quote.feesCents);
      // Independently: simple interest at 9.5 %, actual/365, on the principal since payment 1 (within the sub-cent carried from it).
      const independent = Number((BigInt(quote.principalCents) * 9500n * BigInt(daysBetween(p1.receivedOn, today)) * 2n + 36_500_000n) / 73_000_000n);
      expect(Math.abs(quote.interestCents - independent)).toBeLessThanOrEqual(1);
      await expect.poll(() => page.getByTestId("payoff-today").textContent()).toBe(formatMoney(quote.totalCents));
      expect(await page.getByTestId("principal-balance").textContent()).toBe(formatMoney(quote.principalCents));

      // The final payment of the payoff closes the loan.
      await record(quote.totalCents, today, "ACH", "PAYOFF-3003", "Payment recorded: Paid in Full");
      await expect.poll(() => page.getByTestId("loan-status").first().textContent()).toBe("Paid in Full");
      expect(await page.getByTestId("principal-balance").textContent()).toBe("$0.00");
      expect(await page.getByRole("button", { name: "Record Payment" }).count()).toBe(0);
      expect(await page.locator('[data-testid="installment"][data-paid="false"]').count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);

      await gotoHydrated(page, `${server.url}/admin/loans?status=paid_in_full`);
      await page.locator(`[data-testid="loan-row"][data-loan-id="${loanId}"]`).waitFor();
      expect(await axeViolations(page)).toEqual([]);

      // The loan tape says so too (CSV attachment, not cached).
      const tape = await fetch(`${server.url}/admin/loans/tape`, { headers: { cookie } });
      expect(tape.status).toBe(200);
      expect(tape.headers.get("content-type")).toMatch(/^text\/csv/);
      expect(tape.headers.get("content-disposition")).toMatch(/^attachment; filename="loan-tape-\d{4}-\d{2}-\d{2}\.csv"$/);
      expect(tape.headers.get("cache-control")).toContain("no-store");
      const line = (await tape.text()).split("\r\n").find((l) => l.includes(loanId))!;
      expect(line).toContain('"Paid in Full"');
      expect(line).toContain('"0.00"');

      // The borrower's paid-in-full e-mail goes out through the outbox.
      await expect.poll(() => sink.messages.some((m) => m.to.includes("dana.journey@example.com") && /paid in full/i.test(m.subject)), { timeout: 20_000 }).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
