import pg from "pg";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAdminWithMfa } from "../helpers/admins";
import { toBrowserCookies } from "../helpers/applicants";
import { createScratchPostgresDatabase, TEST_DATABASE_URL } from "../helpers/test-db";
import { axeViolations, gotoHydrated, launchBrowser, startTestServer, type TestServer } from "./harness";
import { openWatchedPage } from "./helpers/pages";

/**
 * The keyset pager (decision 0050) in a browser, on the contact inbox: 45 messages, many sharing one
 * instant. First / Previous / Next / Last move by tokens, "Page n of m" follows, the links are
 * keyboard-reachable with rel="prev"/"next", and every message is shown exactly once in order.
 */

const ADMIN = { email: "pager.admin@example.com", password: "Pag3r!Admin-Passw0rd" };
const MESSAGES = 45;

describe.runIf(TEST_DATABASE_URL)("the keyset pager of the admin lists", () => {
  let server: TestServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let scratch: Awaited<ReturnType<typeof createScratchPostgresDatabase>>;
  let adminCookie: string;
  let expected: string[];

  beforeAll(async () => {
    scratch = await createScratchPostgresDatabase();
    server = await startTestServer({ DATABASE_URL: scratch.url, PWNED_PASSWORDS_URL: "off", TRUST_PROXY: "true", ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
    browser = await launchBrowser();
    const db = new pg.Client({ connectionString: scratch.url });
    await db.connect();
    try {
      await db.query(
        `insert into contact_messages (name, email, subject, message, status, created_at)
         select 'Visitor ' || i, 'visitor' || i || '@example.com', 'Pager question ' || i, 'Hello', 'new', date_trunc('hour', now()) - (i / 5) * interval '1 minute'
         from generate_series(1, ${MESSAGES}) i`,
      );
      expected = (await db.query<{ subject: string }>(`select subject from contact_messages order by created_at desc, id desc`)).rows.map((r) => r.subject);
    } finally {
      await db.end();
    }
    adminCookie = (await signInAdminWithMfa(server.url, ADMIN.email, ADMIN.password, "198.51.100.211")).cookie;
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await scratch?.drop();
  });

  const pager = (page: Page) => page.getByRole("navigation", { name: "Message pages" });
  const subjects = async (page: Page) => (await page.getByTestId("contact-message").getByRole("heading").allTextContents()).map((s) => s.trim());
  const status = (page: Page) => pager(page).locator("p").textContent();

  it("walks Next to the end and Previous back, First and Last, by keyboard too; every message once, in order (axe-clean)", async () => {
    const { context, page, errors } = await openWatchedPage(browser, { cookies: toBrowserCookies(adminCookie, server.url) });
    try {
      await gotoHydrated(page, `${server.url}/admin/messages`);
      expect(await status(page)).toBe("Page 1 of 3");
      // On the first page First and Previous are drawn, disabled, so the layout does not jump.
      expect(await pager(page).locator('[aria-disabled="true"]').allTextContents()).toEqual(["First page", "Previous page"]);
      const next = pager(page).getByRole("link", { name: "Next page" });
      expect(await next.getAttribute("rel")).toBe("next");
      expect(await next.getAttribute("href")).toMatch(/[?&]after=[A-Za-z0-9_-]+/);
      expect(await axeViolations(page)).toEqual([]);
      const seen = [...(await subjects(page))];

      // Next by keyboard: focus the link, Enter.
      await next.focus();
      await page.keyboard.press("Enter");
      await page.waitForURL((url) => url.searchParams.has("after"));
      await expect.poll(() => status(page)).toBe("Page 2 of 3");
      seen.push(...(await subjects(page)));
      await pager(page).getByRole("link", { name: "Next page" }).click();
      await expect.poll(() => status(page)).toBe("Page 3 of 3");
      seen.push(...(await subjects(page)));
      expect(seen).toEqual(expected);
      expect(await pager(page).getByRole("link", { name: "Next page" }).count()).toBe(0);
      expect(await pager(page).getByRole("link", { name: "Last page" }).count()).toBe(0);

      // Previous from the last page: the same second page.
      const prev = pager(page).getByRole("link", { name: "Previous page" });
      expect(await prev.getAttribute("rel")).toBe("prev");
      await prev.click();
      await page.waitForURL((url) => url.searchParams.has("before"));
      await expect.poll(() => status(page)).toBe("Page 2 of 3");
      expect(await subjects(page)).toEqual(seen.slice(20, 40));

      await pager(page).getByRole("link", { name: "First page" }).click();
      await expect.poll(() => status(page)).toBe("Page 1 of 3");
      expect(page.url()).not.toMatch(/after=|before=|page=/);
      await pager(page).getByRole("link", { name: "Last page" }).click();
      await page.waitForURL((url) => url.searchParams.get("last") === "1");
      await expect.poll(() => status(page)).toBe("Page 3 of 3");
      expect(await subjects(page)).toEqual(seen.slice(40));
      expect(await axeViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
