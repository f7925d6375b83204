import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { signInOverHttp } from "../helpers/admins";
import { APPLICANT_PASSWORD, sessionCookie, signUpOverHttp, solveCaptcha, toBrowserCookies } from "../helpers/applicants";
import { axeViolations, gotoHydrated } from "./harness";
import { extractCode, mark, waitForMail } from "./helpers/mailbox";
import { openWatchedPage } from "./helpers/pages";
import { e2eStackForFile, startServerWithMail, stopStack } from "./helpers/stack";
import { expectToast } from "./helpers/toasts";

/**
 * Account settings on /account in a real browser against the built server (issue 23): name and phone,
 * Change Email with the code from the mail sink (and the notice to the old address), Notification
 * Preferences, Sign Out Other Sessions (only after the current password) ending the other session,
 * Change Password (the old password then fails, other sessions end); and the changed privacy notice
 * shown once at the next sign-in (a second server on the same data folder publishes a newer version),
 * then not again. Axe-clean.
 */

const stack = e2eStackForFile({ firstIp: 170, env: { TRUST_PROXY: "true" } });
const NEW_PASSWORD = "N3w!Passphrase9";

const browserCookies = (raw: string, url: string) => toBrowserCookies(raw.split(";")[0]!, url);

/** Signs in over HTTP; the raw answer (its Location says where sign-in lands). */
async function signInResponse(base: string, email: string, password: string, ip: string): Promise<Response> {
  return fetch(`${base}/auth`, {
    method: "POST",
    body: new URLSearchParams({ intent: "sign-in", email, password, captcha: await solveCaptcha(base) }),
    headers: { origin: base, "x-forwarded-for": ip },
    redirect: "manual",
  });
}

describe("Account Settings on /account", () => {
  it("saves name and phone, changes the e-mail with the mailed code (the old address told), saves notification choices; axe-clean", async () => {
    const { server, sink, browser } = stack;
    const email = "robin.settings@example.com";
    const newEmail = "robin.moved@example.com";
    const raw = await signUpOverHttp(server.url, sink, email, stack.nextIp(), "Robin Settings");
    const { context, page, errors } = await openWatchedPage(browser, { cookies: browserCookies(raw, server.url) });

    // The header's plain link leads here.
    await gotoHydrated(page, `${server.url}/dashboard`);
    await page.getByRole("banner").getByRole("link", { name: "Account", exact: true }).first().click();
    await page.waitForURL(/\/account$/);
    await page.getByRole("heading", { level: 1, name: "Account Settings" }).waitFor();
    const headings = await page.getByRole("heading", { level: 2 }).allTextContents();
    expect(headings.slice(0, 5)).toEqual(["Profile", "Change Email", "Change Password", "Active Sessions", "Sign-In Security"]);
    for (const name of ["Two-Factor Authentication", "Passkeys"]) await page.getByRole("heading", { level: 3, name }).waitFor();
    expect(headings.indexOf("Notification Preferences")).toBeLessThan(headings.indexOf("Your Data"));
    expect(await axeViolations(page)).toEqual([]);

    const profile = page.getByTestId("account-profile");
    await profile.getByLabel("Full Name").fill("Robin Q. Settings");
    await profile.getByLabel("Phone Number").fill("302 555 0199");
    await expectToast(page, "Profile Updated", () => profile.getByRole("button", { name: "Save Profile" }).click());
    // A wrong phone is refused on its field, what was typed stays.
    await profile.getByLabel("Phone Number").fill("555-01");
    await profile.getByRole("button", { name: "Save Profile" }).click();
    await profile.getByText("Please enter a valid 10-digit phone number").waitFor();
    expect(await profile.getByLabel("Phone Number").inputValue()).toBe("555-01");
    await gotoHydrated(page, `${server.url}/account`);
    expect(await profile.getByLabel("Full Name").inputValue()).toBe("Robin Q. Settings");
    expect(await profile.getByLabel("Phone Number").inputValue()).toBe("(302) 555-0199");

    // Change Email: the code goes to the new address; confirming it moves the account; the old address is told.
    const change = page.getByTestId("change-email");
    const before = mark(sink);
    await change.getByLabel("New Email").fill(newEmail);
    await change.getByLabel("Current Password").fill(APPLICANT_PASSWORD);
    await expectToast(page, "Verification Code Sent", () => change.getByRole("button", { name: "Send Code" }).click());
    const code = extractCode(await waitForMail(sink, { to: newEmail, after: before }));
    await change.getByLabel(`Code sent to ${newEmail}`).fill(code);
    expect(await axeViolations(page)).toEqual([]);
    await expectToast(page, "Email Changed", () => change.getByRole("button", { name: "Confirm New Email" }).click());
    const notice = await waitForMail(sink, { to: email, subject: /e-mail address was changed/, after: before });
    // The old inbox is told, and how to get help, but never where the account went.
    expect(notice.text).not.toContain(newEmail);
    expect(notice.text).toMatch(/call us at once/);
    expect(notice.text).not.toContain(code);
    await change.getByText(`Your email address is ${newEmail}`).waitFor();
    // Signing in now works with the new address only.
    await expect(signInOverHttp(server.url, email, APPLICANT_PASSWORD, stack.nextIp())).rejects.toThrow(/sign-in failed/);
    expect(await signInOverHttp(server.url, newEmail, APPLICANT_PASSWORD, stack.nextIp())).toContain("session_token");

    // Notification Preferences: reminders off, news on; kept after a reload.
    const prefs = page.getByTestId("notification-preferences");
    await expect(prefs.getByText(/always go to you/).count()).resolves.toBe(1);
    await prefs.getByLabel("Payment reminders").uncheck();
    await prefs.getByLabel("News and offers").check();
    await expectToast(page, "Preferences Saved", () => prefs.getByRole("button", { name: "Save Preferences" }).click());
    await gotoHydrated(page, `${server.url}/account`);
    expect(await prefs.getByLabel("Payment reminders").isChecked()).toBe(false);
    expect(await prefs.getByLabel("News and offers").isChecked()).toBe(true);
    expect(errors.filter((e) => !/status of 400/.test(e))).toEqual([]);
    await context.close();
  });

  it("Sign Out Other Sessions ends the other device; Change Password ends other sessions and the old password no longer signs in", async () => {
    const { server, sink, browser } = stack;
    const email = "sam.sessions@example.com";
    const raw = await signUpOverHttp(server.url, sink, email, stack.nextIp(), "Sam Sessions");
    const elsewhereIp = stack.nextIp();
    const elsewhere = await signInOverHttp(server.url, email, APPLICANT_PASSWORD, elsewhereIp);
    // The other device keeps its address: Active Sessions shows where each session was last used from.
    const stillIn = async (cookie: string) =>
      (await fetch(`${server.url}/account`, { headers: { cookie: cookie.split(";")[0]!, "x-forwarded-for": elsewhereIp }, redirect: "manual" })).status === 200;
    expect(await stillIn(elsewhere)).toBe(true);

    const { context, page, errors } = await openWatchedPage(browser, { cookies: browserCookies(raw, server.url) });
    await gotoHydrated(page, `${server.url}/account`);
    const sessions = page.getByTestId("active-sessions");
    expect(await sessions.getByTestId("session-row").count()).toBe(2);
    expect(await sessions.getByText("This device").count()).toBe(1);
    expect(await sessions.textContent()).toContain(elsewhereIp);
    // The current password first: missing, then wrong, each refused on its field; the other device stays.
    const signOutOthers = sessions.getByRole("button", { name: "Sign Out Other Sessions" });
    await signOutOthers.click();
    await sessions.getByText("Enter your current password.").waitFor();
    expect(await sessions.getByLabel(/^Current Password/).evaluate((el) => el === document.activeElement)).toBe(true);
    await sessions.getByLabel(/^Current Password/).fill("Wrong!Pass1");
    // The wrong password's refusal is found by its own description: the empty field's refusal above may
    // have been answered by the server too (before hydration), its toast arriving late with the same title.
    await signOutOthers.click();
    await page.locator("[data-sonner-toast]").filter({ has: page.locator("[data-title]", { hasText: /^Could not sign out other sessions$/ }) }).filter({ has: page.locator("[data-description]", { hasText: /^The password is not correct\.$/ }) }).first().waitFor();
    await sessions.getByText("The password is not correct.").waitFor();
    expect(await sessions.getByLabel(/^Current Password/).getAttribute("aria-invalid")).toBe("true");
    expect(await stillIn(elsewhere)).toBe(true);
    await sessions.getByLabel(/^Current Password/).fill(APPLICANT_PASSWORD);
    await expectToast(page, "Signed Out Other Sessions", () => signOutOthers.click());
    expect(await stillIn(elsewhere)).toBe(false);
    // Cleared once the page has reloaded its data (the form resets after the revalidation).
    await expect.poll(() => sessions.getByLabel(/^Current Password/).inputValue()).toBe("");
    await sessions.getByText("You are not signed in anywhere else.").waitFor();
    expect(await stillIn(raw)).toBe(true);

    // Change Password: a wrong current password is refused on its field; then the change.
    const another = await signInOverHttp(server.url, email, APPLICANT_PASSWORD, stack.nextIp());
    const form = page.getByTestId("change-password");
    await form.getByLabel(/^Current Password/).fill("Wrong!Pass1");
    await form.getByLabel(/^New Password/).fill(NEW_PASSWORD);
    await form.getByLabel(/^Confirm New Password/).fill(NEW_PASSWORD);
    await form.getByRole("button", { name: "Change Password" }).click();
    await form.getByText("The password is not correct.").waitFor();
    const before = mark(sink);
    await form.getByLabel(/^Current Password/).fill(APPLICANT_PASSWORD);
    await expectToast(page, "Password Changed", () => form.getByRole("button", { name: "Change Password" }).click());
    await waitForMail(sink, { to: email, subject: /password was changed/, after: before });
    // The form clears once the answer has rendered, which may be a moment after the toast appears.
    await expect.poll(() => form.getByLabel(/^Current Password/).inputValue()).toBe("");
    expect(await stillIn(another)).toBe(false);
    expect(await stillIn(raw)).toBe(true);
    await expect(signInOverHttp(server.url, email, APPLICANT_PASSWORD, stack.nextIp())).rejects.toThrow(/sign-in failed/);
    expect(await signInOverHttp(server.url, email, NEW_PASSWORD, stack.nextIp())).toContain("session_token");
    expect(await axeViolations(page)).toEqual([]);
    expect(errors.filter((e) => !/status of 400/.test(e))).toEqual([]);
    await context.close();
  });

  it("a changed privacy notice is shown once at the next sign-in, then the sign-in goes where it went; new accounts accept the current one", async () => {
    const { browser } = stack;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-e2e-privacy-"));
    const email = "paula.privacy@example.com";
    // Before the change: an account made under the current notice.
    const before = await startServerWithMail({ TRUST_PROXY: "true" }, { dataDir });
    try {
      await signUpOverHttp(before.server.url, before.sink, email, stack.nextIp(), "Paula Privacy");
      const plain = await signInResponse(before.server.url, email, APPLICANT_PASSWORD, stack.nextIp());
      expect(plain.headers.get("location")).toBe("/dashboard");
    } finally {
      await stopStack(before);
    }

    // A newer notice published.
    const after = await startServerWithMail({ TRUST_PROXY: "true", PRIVACY_NOTICE_VERSION: "2099-01-01" }, { dataDir });
    try {
      const base = after.server.url;
      const landing = await signInResponse(base, email, APPLICANT_PASSWORD, stack.nextIp());
      expect(landing.status).toBe(302);
      expect(landing.headers.get("location")).toBe("/account/privacy?redirectTo=%2Fdashboard");
      const { context, page, errors } = await openWatchedPage(browser, { cookies: browserCookies(sessionCookie(landing), base) });
      await gotoHydrated(page, `${base}${landing.headers.get("location")}`);
      await page.getByRole("heading", { level: 1, name: "Our Privacy Notice Has Changed" }).waitFor();
      expect(await page.getByText("The updated notice is effective Jan 1, 2099.").count()).toBe(1);
      expect(await page.getByRole("link", { name: "Read the full Privacy Policy" }).getAttribute("href")).toBe("/privacy");
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole("button", { name: "I Have Read This" }).click();
      await page.waitForURL(/\/dashboard$/);
      expect(errors).toEqual([]);
      await context.close();

      // Not again.
      const again = await signInResponse(base, email, APPLICANT_PASSWORD, stack.nextIp());
      expect(again.headers.get("location")).toBe("/dashboard");
      // An account made now accepted this version when it was created.
      await signUpOverHttp(base, after.sink, "nina.new@example.com", stack.nextIp(), "Nina New");
      const fresh = await signInResponse(base, "nina.new@example.com", APPLICANT_PASSWORD, stack.nextIp());
      expect(fresh.headers.get("location")).toBe("/dashboard");
      // A redirect target is kept, and only a same-site one.
      const target = await fetch(`${base}/auth`, {
        method: "POST",
        body: new URLSearchParams({ intent: "sign-in", email, password: APPLICANT_PASSWORD, captcha: await solveCaptcha(base), redirectTo: "/account" }),
        headers: { origin: base, "x-forwarded-for": stack.nextIp() },
        redirect: "manual",
      });
      expect(target.headers.get("location")).toBe("/account");
    } finally {
      await stopStack(after);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
