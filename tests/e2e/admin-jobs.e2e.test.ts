import net from "node:net";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { axeViolations, waitForHydration } from "./harness";
import type { WatchedPage } from "./helpers/pages";
import { e2eStackForFile } from "./helpers/stack";
import { expectToast } from "./helpers/toasts";

/**
 * The Jobs section of /admin/monitoring (decision 0081) against the built server, whose document
 * storage is an S3 endpoint nobody listens on: the orphan sweep's start-up run fails for real, the
 * section shows it with its error, and Retry runs the sweep again at once (failing again, later).
 */

const ADMIN = { email: "jo.jobs@example.com", password: "J0bs!Secret" };

/** A port that was free a moment ago: connections to it are refused. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const stack = e2eStackForFile({
  admin: ADMIN,
  env: {
    S3_ENDPOINT: `http://127.0.0.1:${await closedPort()}`,
    S3_BUCKET: "documents",
    S3_REGION: "us-east-1",
    S3_ACCESS_KEY_ID: "jobs-test",
    S3_SECRET_ACCESS_KEY: "jobs-test-secret",
    S3_FORCE_PATH_STYLE: "true",
  },
});
let adminCookie: string;

beforeAll(async () => {
  adminCookie = await stack.adminSession();
});

/** Runs `run` on a page signed in as the admin (at 1280×800 unless told), closed afterwards. */
const withAdminPage = <T>(run: (watched: WatchedPage) => Promise<T>, { width = 1280, height = 800 } = {}) =>
  stack.withPage(adminCookie, { width, height }, run);

const sweepRow = (page: Page) => page.locator('[data-testid="jobs-table"] tr[data-job="orphan-sweep"]');

/** Opens the page until the sweep's failed start-up run shows (it runs in the background after start). */
async function openWithFailedSweep(page: Page) {
  await expect
    .poll(
      async () => {
        await page.goto(`${stack.server.url}/admin/monitoring`);
        await waitForHydration(page);
        return (await sweepRow(page).getByTestId("job-error").textContent())?.trim();
      },
      { timeout: 60_000, interval: 1000 },
    )
    .not.toBe("—");
}

describe("/admin/monitoring Jobs", () => {
  it("lists every job; a failed run shows its error and Retry runs it again now", () =>
    withAdminPage(async ({ page, errors }) => {
      await openWithFailedSweep(page);
      await page.getByRole("heading", { name: "Jobs" }).waitFor();
      const rows = page.locator('[data-testid="jobs-table"] tbody tr');
      expect(await rows.count()).toBe(5);
      expect(await sweepRow(page).getByRole("rowheader").textContent()).toBe("Storage orphan sweep");
      expect(await sweepRow(page).textContent()).toContain("Failed");
      expect(await sweepRow(page).getByTestId("job-queued").textContent()).toBe("0");
      // The error is the failure's description (classes and codes), never a message quoting data.
      expect(await sweepRow(page).getByTestId("job-error").textContent()).toMatch(/\w+/);
      // Jobs that did not fail have no Retry.
      expect(await page.getByRole("button", { name: /^Retry / }).count()).toBe(1);
      expect(await axeViolations(page)).toEqual([]);

      const before = await sweepRow(page).locator("time").getAttribute("datetime");
      await expectToast(page, "Retry Started", () => page.getByRole("button", { name: "Retry Storage orphan sweep" }).click(), "Storage orphan sweep is running again now.");
      // The retried run fails again (storage is still down): a later failed run, nothing left queued.
      await expect
        .poll(
          async () => {
            await page.goto(`${stack.server.url}/admin/monitoring`);
            await waitForHydration(page);
            return sweepRow(page).locator("time").getAttribute("datetime");
          },
          { timeout: 60_000, interval: 1000 },
        )
        .not.toBe(before);
      expect(await sweepRow(page).getByTestId("job-queued").textContent()).toBe("0");
      const log = page.locator('[data-testid="audit-log"] tr[data-action="job.retry"]');
      expect(await log.count()).toBe(1);
      expect(errors).toEqual([]);
    }));

  it("is axe-clean at 390×844, the jobs table scrolling inside its card", () =>
    withAdminPage(async ({ page, errors }) => {
      await openWithFailedSweep(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      expect(await axeViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    }, { width: 390, height: 844 }));
});
