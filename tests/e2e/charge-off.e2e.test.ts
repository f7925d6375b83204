import fs from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { todayUtc } from "~/domain/dates";
import { loadConfig, setConfig } from "~/server/platform/config.server";
import { openDatabase } from "~/server/platform/db/client.server";
import { runMigrations } from "~/server/platform/db/migrate.server";
import { createLocalStorage } from "~/server/platform/storage/storage.server";
import { signInAdminWithMfa } from "../helpers/admins";
import { toBrowserCookies } from "../helpers/applicants";
import { seedApplicant, seedLoan, seedUser } from "../helpers/seed";
import type { SmtpSink } from "../helpers/smtp-sink";
import { newDataDir } from "./data-template";
import { axeViolations, gotoHydrated, launchBrowser, testSecrets, type TestServer } from "./harness";
import { openWatchedPage } from "./helpers/pages";
import { startServerWithMail, stopStack } from "./helpers/stack";
import { expectToast } from "./helpers/toasts";

/**
 * Charge-off → recovery in a real browser against the built server: a loan signed 70 days ago and
 * never paid (late); on /admin/loans/:id staff use Charge Off with a reason (below the four-eyes
 * threshold: at once), the page says Charged Off and the ledger has its Charged Off line; then Record
 * Payment posts a payment that the ledger shows as a Recovery, after the charge-off. Axe-clean at each step.
 */

const ADMIN = { email: "chargeoff.admin@example.com", password: "Ch4rge!Off-Adm1n-Pass" };
const DAY = 86_400_000;

let dataDir: string;
let sink: SmtpSink;
let server: TestServer;
let browser: Browser;
let loanId = "";

beforeAll(async () => {
  dataDir = newDataDir("portal-charge-off-e2e-");
  const secrets = testSecrets();
  setConfig(loadConfig({ NODE_ENV: "production", DATA_DIR: dataDir, PUBLIC_URL: "http://127.0.0.1", ...secrets }));
  const database = await openDatabase({ dataDir });
  try {
    await runMigrations(database);
    const db = database.db;
    const reviewer = { id: "co-reviewer", name: "Rita Reviewer", email: "co.reviewer@example.com" };
    await seedUser(db, reviewer);
    const borrower = { id: "co-borrower", name: "Dana Whitfield", email: "dana.chargeoff@example.com", isStaff: false };
    await seedApplicant(db, { id: borrower.id, name: borrower.name, email: borrower.email, profile: true });
    const signedAt = new Date(Date.now() - 70 * DAY);
    const seeded = await seedLoan(db, {
      owner: borrower,
      admin: reviewer,
      application: { firstName: "Dana", lastName: "Whitfield", email: borrower.email, submittedAt: new Date(Date.now() - 72 * DAY) },
      at: new Date(signedAt.getTime() - DAY),
      signedAt,
      storage: createLocalStorage(path.join(dataDir, "storage")),
    });
    loanId = seeded.loanId;
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

describe("charge-off and recovery, staff side", () => {
  it("Charge Off with a reason → Charged Off in the ledger → Record Payment posts as a Recovery; axe-clean", async () => {
    const { cookie } = await signInAdminWithMfa(server.url, ADMIN.email, ADMIN.password, "198.51.100.231");
    const { context, page, errors } = await openWatchedPage(browser, { cookies: toBrowserCookies(cookie, server.url), width: 1280, expectedConsoleErrors: /status of 4\d\d/ });
    try {
      await page.setViewportSize({ width: 1280, height: 800 });
      await gotoHydrated(page, `${server.url}/admin/loans/${loanId}`);
      const panel = page.getByRole("region", { name: "Charge-off and Settlement" });
      await panel.waitFor();
      expect(await page.getByTestId("loan-status").first().textContent()).toBe("Late");
      expect(await axeViolations(page)).toEqual([]);

      // A reason is required: the dialog says so beside the field.
      await panel.getByRole("button", { name: "Charge Off" }).click();
      const dialog = page.getByRole("dialog", { name: "Charge Off" });
      await dialog.waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await dialog.getByRole("button", { name: "Confirm Charge Off" }).click();
      await dialog.getByText("Give the reason for the charge-off").waitFor();
      await dialog.getByLabel(/^Reason/).fill("No payment since the loan started; the borrower does not answer calls or letters.");
      await expectToast(page, "Loan charged off", () => dialog.getByRole("button", { name: "Confirm Charge Off" }).click());
      await dialog.waitFor({ state: "detached" });

      await page.locator('[data-testid="ledger-row"][data-kind="charge_off"]').waitFor();
      expect(await page.getByTestId("loan-status").first().textContent()).toBe("Charged Off");
      const chargedOff = await page.getByTestId("charged-off-amount").textContent();
      expect(await page.locator('[data-testid="ledger-row"][data-kind="charge_off"]').textContent()).toContain(chargedOff!);
      expect(await panel.getByRole("button", { name: "Charge Off" }).count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);

      // A later payment is a recovery, listed after the charge-off.
      await page.getByRole("button", { name: "Record Payment" }).click();
      const record = page.getByRole("dialog", { name: "Record Payment" });
      await record.waitFor();
      await record.getByLabel("Amount").fill("250.00");
      await record.getByLabel("Received Date").fill(todayUtc());
      await record.getByLabel("Method").selectOption({ label: "Check" });
      await record.getByLabel("Reference").fill("CHK-REC-1");
      await expectToast(page, "Payment recorded", () => record.getByRole("button", { name: "Post Payment" }).click());
      await record.waitFor({ state: "detached" });
      const recovery = page.locator('[data-testid="ledger-payment"][data-reference="CHK-REC-1"]');
      await recovery.getByTestId("payment-recovery").waitFor();
      expect(await recovery.getByTestId("payment-recovery").textContent()).toBe("Recovery");
      const order = await page.locator('[data-testid="ledger"] tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute("data-kind") + ":" + (r.getAttribute("data-reference") ?? "")));
      expect(order.indexOf("charge_off:")).toBeLessThan(order.indexOf("payment:CHK-REC-1"));
      expect(await page.getByTestId("recovered-amount").textContent()).toBe("$250.00");
      expect(await axeViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
