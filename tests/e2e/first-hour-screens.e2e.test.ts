import fs from "node:fs";
import type { Locator, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { currentStep, totpAt } from "~/server/accounts/totp.server";
import { signInOverHttp } from "../helpers/admins";
import { submitApplication } from "../helpers/applications";
import { axeViolations, gotoHydrated } from "./harness";
import { e2eStackForFile } from "./helpers/stack";

/**
 * Issue 18, staff and applicant screens, in Chromium at the viewports the issue used: backup codes
 * copied and downloaded (item 11), the MFA policy stated (11), clients without staff and with the
 * latest application's contact details (10), a toast that leaves the preview dialog's buttons free
 * (6), and an applicant downloading their own document from the dashboard (12).
 * The admin enrols in the browser in the first case; later cases use that (verified) session.
 */

const ADMIN = { email: "fiona.firsthour@example.com", password: "F1rst!Hour#Admin" };
const APPLICANT = { email: "harry.hour@example.com", name: "Harry Hour", password: "Str0ng!Passw0rd" };

const stack = e2eStackForFile({ firstIp: 60, admin: ADMIN });
let adminCookie: string;
let applicantCookie: string;

beforeAll(async () => {
  applicantCookie = await stack.signUp(APPLICANT.email, APPLICANT.name, APPLICANT.password);
  await submitApplication(stack.server.url, applicantCookie, { ip: stack.nextIp() });
  adminCookie = await signInOverHttp(stack.server.url, ADMIN.email, ADMIN.password, stack.nextIp());
});

async function openAs(cookie: string, width: number, height: number) {
  const watched = await stack.open(cookie, { width, acceptDownloads: true });
  await watched.page.setViewportSize({ width, height });
  return watched;
}

/** Whether two boxes overlap (touching edges do not count). */
async function overlaps(a: Locator, b: Locator): Promise<boolean> {
  const [x, y] = [await a.boundingBox(), await b.boundingBox()];
  if (!x || !y) throw new Error("a box is missing");
  return x.x < y.x + y.width && y.x < x.x + x.width && x.y < y.y + y.height && y.y < x.y + x.height;
}

const toastOf = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });

describe("issue 18: staff and applicant screens", () => {
  it("backup codes after enrolment can be copied and downloaded as a .txt (1280×800, axe-clean)", async () => {
    const { context, page, errors } = await openAs(adminCookie, 1280, 800);
    try {
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: stack.server.url });
      await gotoHydrated(page, `${stack.server.url}/admin/mfa`);
      const secret = (await page.getByTestId("mfa-secret").textContent())!.trim();
      await page.getByLabel("Authentication Code").fill(totpAt(secret, currentStep()));
      await page.getByRole("button", { name: "Turn On Two-Factor Authentication" }).click();
      const list = page.getByRole("list", { name: "Backup codes" });
      await list.waitFor();
      const codes = (await list.getByRole("listitem").allTextContents()).map((c) => c.trim());
      expect(codes).toHaveLength(10);

      await page.getByRole("button", { name: "Copy Codes" }).click();
      await page.getByTestId("backup-codes-status").getByText("Backup codes copied to the clipboard.").waitFor();
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      for (const code of codes) expect(copied).toContain(code);

      const download = page.waitForEvent("download");
      await page.getByRole("button", { name: "Download Codes (.txt)" }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe("backup-codes.txt");
      const text = fs.readFileSync((await file.path())!, "utf8");
      expect(text.trim().split("\n").slice(-10)).toEqual(codes);

      expect(await axeViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("Manage MFA Policy states the policy instead of 'managed by your administrator'", async () => {
    const { context, page } = await openAs(adminCookie, 1280, 800);
    try {
      await gotoHydrated(page, `${stack.server.url}/admin/security`);
      await page.getByRole("button", { name: "Manage MFA Policy" }).click();
      const toast = toastOf(page, "MFA is required for every admin");
      await toast.waitFor();
      expect(await toast.textContent()).not.toContain("managed by your administrator");
    } finally {
      await context.close();
    }
  });

  it("lists applicants only, and shows the latest application's phone and address, labelled (1280×800)", async () => {
    const { context, page, errors } = await openAs(adminCookie, 1280, 800);
    try {
      await gotoHydrated(page, `${stack.server.url}/admin/clients`);
      const links = page.getByTestId("client-link");
      await expect.poll(() => links.count()).toBe(1);
      expect(await links.first().textContent()).toContain(APPLICANT.email);
      expect(await page.locator("main").textContent()).not.toContain(ADMIN.email);

      await links.first().click();
      const detail = page.getByTestId("client-detail");
      await detail.getByRole("heading", { level: 2, name: APPLICANT.name }).waitFor();
      const profile = page.getByRole("region", { name: "Profile" });
      const text = (await profile.textContent()) ?? "";
      expect(text).toContain("(302) 555-0199");
      expect(text).not.toContain("Not provided");
      expect(await profile.getByTestId("contact-source").count()).toBe(2);
      expect(await profile.getByTestId("contact-source").first().textContent()).toContain("From latest application");
      expect(await axeViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    it(`a toast leaves the document preview's Download and Close buttons uncovered (${width}×${height})`, async () => {
      const { context, page } = await openAs(adminCookie, width, height);
      try {
        await gotoHydrated(page, `${stack.server.url}/admin/documents`);
        await page.getByRole("button", { name: `Preview Utility Bill of ${APPLICANT.name}` }).click();
        const dialog = page.getByRole("dialog", { name: "Document Preview" });
        await dialog.waitFor();
        const toast = toastOf(page, "Secure Access Generated");
        await toast.waitFor();
        // Let the toast finish sliding in before measuring.
        await page.waitForTimeout(600);
        const buttons = [
          dialog.getByRole("button", { name: "Download", exact: true }),
          dialog.getByRole("button", { name: "Close" }).last(),
          dialog.getByRole("button", { name: "Close" }).first(),
        ];
        for (const button of buttons) {
          await button.scrollIntoViewIfNeeded();
          expect(await overlaps(toast, button)).toBe(false);
        }
      } finally {
        await context.close();
      }
    });
  }

  it("an applicant downloads their own document from the details dialog (1280×800)", async () => {
    const { context, page, errors } = await openAs(applicantCookie, 1280, 800);
    try {
      await gotoHydrated(page, `${stack.server.url}/dashboard`);
      await page.getByRole("button", { name: /^View Details/ }).first().click();
      const dialog = page.getByRole("dialog", { name: "Application Details" });
      await dialog.waitFor();
      const download = page.waitForEvent("download");
      await dialog.getByRole("button", { name: "Download bill.pdf" }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe("bill.pdf");
      expect(new URL(file.url()).pathname).toBe("/dashboard/documents/file");
      expect(fs.readFileSync((await file.path())!).subarray(0, 5).toString("latin1")).toBe("%PDF-");
      expect(await axeViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
