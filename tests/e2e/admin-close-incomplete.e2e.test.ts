import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAdminWithMfa } from "../helpers/admins";
import { signUpOverHttp, toBrowserCookies } from "../helpers/applicants";
import { submitApplication } from "../helpers/applications";
import { startSmtpSink, type SmtpSink } from "../helpers/smtp-sink";
import { createScratchPostgresDatabase, TEST_DATABASE_URL } from "../helpers/test-db";
import { axeViolations, gotoHydrated, launchBrowser, startTestServer, type TestServer } from "./harness";
import { openWatchedPage } from "./helpers/pages";
import { expectToast } from "./helpers/toasts";

/**
 * Close as Incomplete in a real browser (issue 19, Reg B 12 CFR 1002.9(c)): while the one request is
 * not yet due the page offers no such button (and the server refuses it with 409); once its due date
 * has passed the admin closes the application through the confirmation dialog, the status reads
 * "Closed as Incomplete", no decision is offered any more, and the applicant receives the notice of
 * action taken, which names no personal or financial detail. Needs a PostgreSQL server
 * (TEST_DATABASE_URL): the test writes the request item and moves its due date while the server runs.
 */

const ADMIN = { email: "close.admin@example.com", password: "Cl0se!Admin-Passw0rd" };
const APPLICANT_EMAIL = "applicant.close@example.com";

describe.runIf(TEST_DATABASE_URL)("Close as Incomplete on the staff application page", () => {
  let sink: SmtpSink;
  let server: TestServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let scratch: Awaited<ReturnType<typeof createScratchPostgresDatabase>>;
  let db: pg.Client;
  let adminCookie: string;
  let applicationId: string;

  beforeAll(async () => {
    scratch = await createScratchPostgresDatabase();
    sink = await startSmtpSink();
    server = await startTestServer({
      DATABASE_URL: scratch.url,
      SMTP_URL: sink.url,
      PWNED_PASSWORDS_URL: "off",
      TRUST_PROXY: "true",
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    });
    browser = await launchBrowser();
    db = new pg.Client({ connectionString: scratch.url });
    await db.connect();
    const applicantCookie = await signUpOverHttp(server.url, sink, APPLICANT_EMAIL, "198.51.100.201");
    applicationId = await submitApplication(server.url, applicantCookie, { ip: "198.51.100.202" });
    adminCookie = (await signInAdminWithMfa(server.url, ADMIN.email, ADMIN.password, "198.51.100.203")).cookie;
    // A request for a pay stub, due tomorrow (made here: requesting is another page's work).
    await db.query(
      `insert into request_items (request_id, application_id, user_id, kind, note, due_date)
       select gen_random_uuid(), id, user_id, 'pay_stub', 'Your latest pay stub, please.', current_date + 1 from loan_applications where id = $1`,
      [applicationId],
    );
  }, 180_000);

  afterAll(async () => {
    await db?.end();
    await browser?.close();
    await server?.stop();
    await sink?.close();
    await scratch?.drop();
  });

  it("is not offered before the due date, then closes the application and sends the notice of action taken", async () => {
    const { context, page, errors } = await openWatchedPage(browser, {
      cookies: toBrowserCookies(adminCookie, server.url),
      expectedConsoleErrors: /status of 4\d\d/,
    });
    try {
      await gotoHydrated(page, `${server.url}/admin/applications/${applicationId}`);
      await page.getByText("Close as Incomplete is available after the due date of an open request.").waitFor();
      expect(await page.getByRole("button", { name: "Close as Incomplete" }).count()).toBe(0);
      const early = await fetch(`${server.url}/admin/applications/${applicationId}`, {
        method: "POST",
        headers: { cookie: adminCookie, origin: server.url, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ intent: "close-incomplete" }),
      });
      expect(early.status).toBe(409);

      await db.query(`update request_items set due_date = current_date - 2 where application_id = $1`, [applicationId]);
      await gotoHydrated(page, `${server.url}/admin/applications/${applicationId}`);
      const close = page.getByRole("button", { name: "Close as Incomplete" });
      await close.click();
      const dialog = page.getByRole("dialog", { name: "Close as Incomplete" });
      await dialog.waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await expectToast(page, "Application closed as incomplete", () => dialog.getByRole("button", { name: "Confirm Close as Incomplete" }).click());
      await dialog.waitFor({ state: "detached" });
      await expect.poll(() => page.getByTestId("admin-application").getAttribute("data-status")).toBe("incomplete");
      await page.getByRole("region", { name: "Application Summary" }).getByText("Closed as Incomplete").waitFor();
      expect(await page.getByTestId("review-actions").count()).toBe(0);
      expect(await page.getByTestId("application-timeline").locator("li").first().getAttribute("data-kind")).toBe("closed_incomplete");
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }

    const status = await db.query<{ status: string; reviewed: boolean }>(`select status, reviewed_at is not null as reviewed from loan_applications where id = $1`, [applicationId]);
    expect(status.rows[0]).toEqual({ status: "incomplete", reviewed: true });
    await expect.poll(() => sink.messages.filter((m) => m.subject.includes("closed as incomplete")).length, { timeout: 20_000 }).toBe(1);
    const mail = sink.messages.find((m) => m.subject.includes("closed as incomplete"))!;
    expect(mail.text).toMatch(new RegExp(`View my application: https?://[^\\s]+/dashboard/applications/${applicationId}\\n`));
    expect(mail.text).toContain("apply again");
    for (const secret of ["Jane", "Doe-Smith", "Bench", "1988", "12 Market Street", "Acme", "50,000", "102,000", "123-45-6789", "pay stub"]) {
      expect(`${mail.subject}\n${mail.text}\n${mail.html ?? ""}`, secret).not.toContain(secret);
    }
  });
});
