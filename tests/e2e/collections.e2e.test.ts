import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays, todayUtc } from "~/domain/dates";
import { formatDay } from "~/domain/formats";
import { addMonths } from "~/domain/loan-schedule";
import { recordPayment } from "~/server/loans/payments.server";
import { runServicingJobs } from "~/server/loans/servicing-jobs.server";
import { approvedLoans, loanFlags, paymentPromises, profiles, user as userTable } from "~/server/platform/db/schema.server";
import { axeViolations, testSecrets, waitForHydration } from "./harness";
import { loadConfig, setConfig } from "~/server/platform/config.server";
import { markFundedAsSettled, signedLoanOverHttp } from "./helpers/signed-loan";
import { e2eStackForFile } from "./helpers/stack";
import { expectToast } from "./helpers/toasts";

/**
 * The collections queue in a real browser: a funded loan 20 days past due is on /admin/collections,
 * unassigned; the admin assigns it to themself (Assign to Me), opens it, logs a contact (Log Contact)
 * and records two promises (Promise to Pay). A payment posts that adds up to the first: it is Kept; the
 * second is still open on its day and Broken the day after (the servicing job run at that time), the
 * loan flagged and marked on the queue. Axe-clean at desktop width and at 390 px.
 */

// Fixed for the file: this process runs the servicing job on the server's data while it is stopped.
const secrets = testSecrets();
const stack = e2eStackForFile({ firstIp: 200, env: secrets, admin: { email: "collections.admin@example.com", password: "C0llect!Admin-Pw" } });

let jane = "";
let adminCookie = "";
let adminId = "";

beforeAll(async () => {
  jane = await stack.signUp("jane.collections@example.com", "Jane Doe-Smith");
  adminCookie = await stack.adminSession();
});

describe("collections queue", () => {
  it("Assign to Me → Log Contact → Promise to Pay → a promise kept by a payment and one broken the day after (axe-clean, 390 px too)", { timeout: 240_000 }, async () => {
    const today = todayUtc();
    const { loanId } = await signedLoanOverHttp(stack.server.url, jane, adminCookie, { ip: stack.nextIp() });
    // Signed 50 days ago: installment 1 fell due 20 days ago and is unpaid. The borrower lives in New York.
    const start = addDays(today, -50);
    const due = addMonths(start, 1);
    await stack.restart(async (db) => {
      await markFundedAsSettled(db, loanId);
      const [loan] = await db.select({ termMonths: approvedLoans.termMonths, userId: approvedLoans.userId }).from(approvedLoans).where(eq(approvedLoans.id, loanId));
      await db
        .update(approvedLoans)
        .set({ startDate: start, expectedFundingDate: start, fundedOn: start, firstPaymentDue: due, nextDueDate: due, maturityDate: addMonths(start, loan!.termMonths), servicedOn: null })
        .where(eq(approvedLoans.id, loanId));
      await db.update(profiles).set({ state: "NY" }).where(eq(profiles.id, loan!.userId));
      const [admin] = await db.select({ id: userTable.id }).from(userTable).where(eq(userTable.email, "collections.admin@example.com"));
      adminId = admin!.id;
    });
    const daysPastDue = Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${due}T00:00:00Z`)) / 86_400_000);

    const { page } = await stack.open(adminCookie);
    await page.goto(`${stack.url}/admin/collections`);
    await waitForHydration(page);
    await page.getByRole("link", { name: "Collections", exact: true }).first().waitFor();
    const row = page.locator(`[data-testid="collections-row"][data-loan-id="${loanId}"]`);
    expect(await row.getByTestId("days-past-due").textContent()).toContain(String(daysPastDue));
    expect(await row.getByTestId("assigned-to").textContent()).toContain("Unassigned");
    expect(await row.getByTestId("last-contact").textContent()).toBe("None yet");
    expect(await axeViolations(page)).toEqual([]);

    await expectToast(page, "Assigned to you", () => row.getByRole("button", { name: "Assign to Me" }).click());
    await row.getByTestId("assigned-to").filter({ hasText: "(you)" }).waitFor();
    await page.getByTestId("collections-filter-mine").click();
    await page.waitForURL(/show=mine/);
    await row.waitFor();

    // The loan: Log Contact (an e-mail: contact hours are for calls and texts) and two promises.
    await page.goto(`${stack.url}/admin/loans/${loanId}`);
    await waitForHydration(page);
    const panel = page.getByTestId("collections-panel");
    expect(await panel.getByTestId("collections-days").textContent()).toBe(String(daysPastDue));
    expect(await panel.getByTestId("borrower-local-time").textContent()).toMatch(/[AP]M E[SD]T/);
    await panel.getByLabel("Channel").selectOption("email");
    await panel.getByLabel("Outcome").selectOption("left_message");
    await panel.getByLabel("Note").fill("Sent a reminder; asked her to call us.");
    await panel.getByLabel("Next Action", { exact: true }).fill("Call back");
    await panel.getByLabel("Next Action Date").fill(addDays(today, 2));
    await expectToast(page, "Contact logged", () => panel.getByRole("button", { name: "Log Contact" }).click());
    await panel.getByTestId("contact-row").filter({ hasText: "Left a message" }).waitFor();

    const promise = async (amount: string, on: string) => {
      await panel.getByLabel("Amount").fill(amount);
      await panel.getByLabel("Pay By").fill(on);
      await expectToast(page, "Promise recorded", () => panel.getByRole("button", { name: "Promise to Pay" }).click());
    };
    await promise("150.00", addDays(today, 3));
    await panel.getByTestId("promise-row").first().waitFor();
    await promise("5000.00", today);
    await expect.poll(() => panel.getByTestId("promise-row").count()).toBe(2);
    expect(await axeViolations(page)).toEqual([]);

    // A $150 check posts: the $150 promise is kept. The next day the job finds the $5,000 one unpaid: broken, flagged.
    await stack.restart(async (db) => {
      setConfig(loadConfig({ DATA_DIR: stack.server.dataDir, PUBLIC_URL: "http://127.0.0.1", PWNED_PASSWORDS_URL: "off", ...secrets }));
      await recordPayment(loanId, { amountCents: 15_000, receivedOn: today, method: "check", reference: "CHK-COLL-1" }, { actor: { id: adminId, name: "Admin", email: "collections.admin@example.com" }, request: {} }, db, today);
      await runServicingJobs(db, new Date(`${today}T20:00:00Z`));
      const open = await db.select({ status: paymentPromises.status }).from(paymentPromises).where(and(eq(paymentPromises.loanId, loanId), eq(paymentPromises.amountCents, 500_000)));
      expect(open.map((p) => p.status)).toEqual(["open"]);
      await runServicingJobs(db, new Date(`${addDays(today, 1)}T15:00:00Z`));
      const flags = await db.select().from(loanFlags).where(and(eq(loanFlags.loanId, loanId), eq(loanFlags.kind, "broken_promise")));
      expect(flags).toHaveLength(1);
    });
    const { page: again } = await stack.open(adminCookie);
    await again.goto(`${stack.url}/admin/loans/${loanId}`);
    await waitForHydration(again);
    const statuses = await again.getByTestId("promise-row").evaluateAll((rows) => rows.map((r) => `${r.querySelector("td")?.textContent}:${r.getAttribute("data-status")}`));
    expect(statuses.sort()).toEqual(["$150.00:kept", "$5,000.00:broken"]);
    expect(await again.getByText(`Promise to pay $5,000.00 by ${formatDay(today)} was broken`).count()).toBeGreaterThan(0);

    // The queue marks the broken promise and shows the last contact; axe-clean on a phone too.
    const { page: phone } = await stack.open(adminCookie, { width: 390, height: 844 });
    await phone.goto(`${stack.url}/admin/collections`);
    await waitForHydration(phone);
    const phoneRow = phone.locator(`[data-testid="collections-row"][data-loan-id="${loanId}"]`);
    await phoneRow.getByTestId("marker-broken-promise").waitFor();
    expect(await phoneRow.getByTestId("last-contact").textContent()).toContain("E-mail: Left a message");
    expect(await axeViolations(phone)).toEqual([]);
    await phone.goto(`${stack.url}/admin/loans/${loanId}`);
    await waitForHydration(phone);
    expect(await axeViolations(phone)).toEqual([]);
  });
});
