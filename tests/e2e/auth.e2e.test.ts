import type { BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, gotoHydrated } from "./harness";
import { extractCode, extractResetPath, mark, waitForMail } from "./helpers/mailbox";
import { e2eStackForFile } from "./helpers/stack";
import { expectToast } from "./helpers/toasts";

/**
 * /auth in a real browser against the built server (docs/requirements.md §3, §5, §6, §9): sign-up with the e-mailed
 * code and the real ALTCHA proof of work solved in the page, sign-out, sign-in (wrong then right
 * password), the signed-in redirect, forgot/reset password (and the link's single use), and axe.
 *
 * Mail goes to an in-test SMTP sink through the real outbox worker. The breached-password check is off
 * (no network). The flow tests share one browser page and one account, in order.
 */

const PASSWORD = "Str0ng!Passw0rd";
const NEW_PASSWORD = "N3w!Secret#2026";

const stack = e2eStackForFile();

async function newPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await stack.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return { context, page };
}

/** The ALTCHA widget inside `scope`: starts it if it has not started, waits until it is verified. */
async function solveCaptcha(scope: Locator) {
  const box = scope.locator("altcha-widget .altcha");
  await box.waitFor();
  // Its label, as a person would (the checkbox itself sits under the tick mark's svg).
  if ((await box.getAttribute("data-state")) === "unverified") await scope.locator("altcha-widget label").click();
  await scope.locator('altcha-widget .altcha[data-state="verified"]').waitFor({ timeout: 20_000 });
}

function panel(page: Page, name: "Sign In" | "Create Account") {
  return page.getByRole("tabpanel", { name });
}

/** The reset screen for a link that is used, expired or unknown: the message and the request form, no new-password form. */
async function expectSpentLink(page: Page) {
  await page.getByRole("alert").filter({ hasText: "This reset link has already been used or has expired." }).waitFor();
  await page.getByRole("button", { name: "Send Reset Link" }).waitFor();
  expect(await page.getByLabel("New Password").count()).toBe(0);
  expect(await page.getByRole("button", { name: "Update Password" }).count()).toBe(0);
}

async function expectSignedInHeader(page: Page) {
  const header = page.getByRole("banner");
  await header.getByRole("link", { name: "Dashboard" }).waitFor();
  await header.getByRole("button", { name: "Sign Out" }).waitFor();
}

async function signOut(page: Page) {
  await expectToast(
    page,
    "Signed Out",
    () => page.getByRole("banner").getByRole("button", { name: "Sign Out" }).click(),
    "You have been successfully signed out",
  );
  await page.waitForURL(`${stack.server.url}/`);
}

async function signIn(page: Page, email: string, password: string) {
  await gotoHydrated(page, `${stack.server.url}/auth`);
  const signInPanel = panel(page, "Sign In");
  await signInPanel.getByLabel("Email", { exact: true }).fill(email);
  await signInPanel.getByLabel("Password", { exact: true }).fill(password);
  await solveCaptcha(signInPanel);
  await expectToast(page, "Welcome Back!", () => signInPanel.getByRole("button", { name: "Sign In", exact: true }).click());
  await page.waitForURL(`${stack.server.url}/dashboard`);
}

describe("/auth: accessibility and keyboard", () => {
  it("has no axe violations on either tab (and the reset screen), and the tabs follow the arrow keys", async () => {
    const { context, page } = await newPage();
    try {
      await gotoHydrated(page, `${stack.server.url}/auth`);
      // Hydrated and the widget upgraded.
      await panel(page, "Sign In").locator("altcha-widget .altcha").waitFor();
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Welcome to Private Loans");
      expect(await axeViolations(page)).toEqual([]);

      const signInTab = page.getByRole("tab", { name: "Sign In" });
      expect(await signInTab.getAttribute("aria-selected")).toBe("true");
      await signInTab.focus();
      await page.keyboard.press("ArrowRight");
      await page.getByRole("tab", { name: "Create Account", selected: true }).waitFor();
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Create Account");
      const signUpPanel = panel(page, "Create Account");
      await signUpPanel.getByLabel("Full Name").waitFor();
      // The code field appears only after a code was sent.
      expect(await signUpPanel.getByLabel("Verification Code").count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      await page.keyboard.press("ArrowLeft");
      await page.getByRole("tab", { name: "Sign In", selected: true }).waitFor();

      // Forgot Password replaces the sign-in form; Send Reset Link waits for an e-mail.
      await panel(page, "Sign In").getByRole("button", { name: "Forgot Password?" }).click();
      const sendLink = page.getByRole("button", { name: "Send Reset Link" });
      expect(await sendLink.isDisabled()).toBe(true);
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole("button", { name: "Back to Sign In" }).click();
      await panel(page, "Sign In").getByLabel("Password", { exact: true }).waitFor();

      // The show/hide toggle.
      const password = panel(page, "Sign In").getByLabel("Password", { exact: true });
      const toggle = panel(page, "Sign In").getByRole("button", { name: "Show password" });
      expect(await password.getAttribute("type")).toBe("password");
      expect(await toggle.getAttribute("aria-pressed")).toBe("false");
      await toggle.click();
      expect(await password.getAttribute("type")).toBe("text");
      expect(await panel(page, "Sign In").getByRole("button", { name: "Hide password" }).getAttribute("aria-pressed")).toBe("true");

      // A token that never existed: the page says at once that the link cannot be used, and offers a new one.
      await gotoHydrated(page, `${stack.server.url}/auth#type=recovery&token=not-a-real-token`);
      await page.getByRole("heading", { level: 1, name: "Reset Your Password" }).waitFor();
      await expectSpentLink(page);
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe("/auth: accounts end to end", () => {
  const email = `jane.${Date.now()}@example.com`;
  let context: BrowserContext;
  let page: Page;
  let resetPath = "";

  beforeAll(async () => {
    ({ context, page } = await newPage());
  });
  afterAll(async () => {
    await context?.close();
  });

  it("creates an account: browser checks, Send Code, Change email, a wrong code, then the right one", async () => {
    await gotoHydrated(page, `${stack.server.url}/auth`);
    await page.getByRole("tab", { name: "Create Account" }).click();
    const form = panel(page, "Create Account");
    const create = form.getByRole("button", { name: "Create Account" });

    // Browser-side checks with the spec's toasts.
    await expectToast(page, "Missing Information", () => create.click(), "Please fill in all fields");
    expect(await form.getByLabel("Full Name").getAttribute("aria-invalid")).toBe("true");
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name)).toBe("fullName");

    await form.getByLabel("Full Name").fill("Jane Tester");
    const emailInput = form.getByLabel("Email", { exact: true });
    await emailInput.fill("someone-else@example.com");
    await form.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await expectToast(page, "Verification Required", () => create.click(), "Please verify your email before signing up");

    // Send Code locks the field; Change email unlocks it and forgets the sent state.
    const before = mark(stack.sink);
    await expectToast(page, "Verification Code Sent", () => form.getByRole("button", { name: "Send Code" }).click());
    await form.getByRole("button", { name: "Code Sent" }).waitFor();
    expect(await form.getByRole("button", { name: "Code Sent" }).isDisabled()).toBe(true);
    expect(await emailInput.getAttribute("readonly")).not.toBeNull();
    await form.getByLabel("Verification Code").waitFor();
    await waitForMail(stack.sink, { to: "someone-else@example.com", subject: /verification code/i, after: before });

    await form.getByRole("button", { name: "Change email" }).click();
    expect(await emailInput.getAttribute("readonly")).toBeNull();
    expect(await form.getByLabel("Verification Code").count()).toBe(0);
    await emailInput.fill(email);

    const sent = mark(stack.sink);
    await expectToast(page, "Verification Code Sent", () => form.getByRole("button", { name: "Send Code" }).click());
    const codeInput = form.getByLabel("Verification Code");
    await codeInput.waitFor();
    expect(await codeInput.getAttribute("inputmode")).toBe("numeric");
    expect(await codeInput.getAttribute("autocomplete")).toBe("one-time-code");
    expect(await codeInput.getAttribute("maxlength")).toBe("6");
    const code = extractCode(await waitForMail(stack.sink, { to: email, subject: /verification code/i, after: sent }));

    // A weak password never leaves the browser.
    await codeInput.fill(code);
    await form.getByLabel("Password", { exact: true }).fill("weakpass");
    await expectToast(page, "Weak Password", () => create.click(), "Password must include uppercase, lowercase, number, and special character");
    await form.getByLabel("Password", { exact: true }).fill(PASSWORD);

    // A wrong code: 'Invalid Code', and the spent captcha is replaced by a new challenge.
    await codeInput.fill(code === "000000" ? "111111" : "000000");
    await solveCaptcha(form);
    await expectToast(page, "Invalid Code", () => create.click(), "The verification code is invalid or has expired");
    expect(await codeInput.getAttribute("aria-invalid")).toBe("true");
    // The spent challenge is replaced by a new one (the right code below would fail on a reused one).

    // The right code: account created, signed in, on the dashboard.
    await codeInput.fill(code);
    await solveCaptcha(form);
    await expectToast(page, "Account Created!", async () => {
      await create.click();
      await page.waitForURL(`${stack.server.url}/dashboard`);
    });
    await expectSignedInHeader(page);
  });

  it("sends a signed-in visitor of /auth to /dashboard", async () => {
    await gotoHydrated(page, `${stack.server.url}/auth`);
    expect(new URL(page.url()).pathname).toBe("/dashboard");
  });

  it("signs out with the 'Signed Out' toast and lands on the home page", async () => {
    await signOut(page);
    await page.getByRole("banner").getByRole("link", { name: "Apply Now" }).waitFor();
  });

  it("refuses a wrong password with 'Sign In Failed' and a new captcha, then signs in", async () => {
    await context.clearCookies(); // signed out whatever the previous test left
    await gotoHydrated(page, `${stack.server.url}/auth`);
    const form = panel(page, "Sign In");
    await form.getByLabel("Email", { exact: true }).fill(email);
    const password = form.getByLabel("Password", { exact: true });
    await password.fill("Wrong!Passw0rd");
    await solveCaptcha(form);
    const tokenBefore = await form.locator('input[name="captcha"]').inputValue();
    expect(tokenBefore).not.toBe("");
    await expectToast(page, "Sign In Failed", () => form.getByRole("button", { name: "Sign In", exact: true }).click(), "Invalid email or password");
    expect(new URL(page.url()).pathname).toBe("/auth");

    await password.fill(PASSWORD);
    await solveCaptcha(form);
    expect(await form.locator('input[name="captcha"]').inputValue()).not.toBe(tokenBefore);
    await expectToast(page, "Welcome Back!", async () => {
      await form.getByRole("button", { name: "Sign In", exact: true }).click();
      await page.waitForURL(`${stack.server.url}/dashboard`);
    });
    await expectSignedInHeader(page);
  });

  it("resets a forgotten password from the e-mailed link, then signs in with the new one", async () => {
    await context.clearCookies(); // signed out (the header's Sign Out has its own test)
    await gotoHydrated(page, `${stack.server.url}/auth`);
    await panel(page, "Sign In").getByRole("button", { name: "Forgot Password?" }).click();
    const form = panel(page, "Sign In");
    await form.getByRole("heading", { name: "Forgot Password" }).waitFor();
    await form.getByLabel("Email", { exact: true }).fill(email);
    await solveCaptcha(form);
    const before = mark(stack.sink);
    await expectToast(page, "Password Reset Email Sent", () => form.getByRole("button", { name: "Send Reset Link" }).click());
    resetPath = extractResetPath(await waitForMail(stack.sink, { to: email, subject: /reset/i, after: before }));

    await gotoHydrated(page, `${stack.server.url}${resetPath}`);
    await page.getByRole("heading", { level: 1, name: "Reset Your Password" }).waitFor();
    // The token left the address bar once the form was shown.
    await page.waitForFunction(() => window.location.hash === "");
    const newPassword = page.getByLabel("New Password");
    const confirm = page.getByLabel("Confirm Password");
    await newPassword.fill(NEW_PASSWORD);
    await confirm.fill(`${NEW_PASSWORD}x`);
    await expectToast(page, "Passwords Don't Match", () => page.getByRole("button", { name: "Update Password" }).click());
    expect(await confirm.getAttribute("aria-invalid")).toBe("true");
    await confirm.fill(NEW_PASSWORD);
    await expectToast(page, "Password Updated Successfully", () => page.getByRole("button", { name: "Update Password" }).click());
    await page.getByRole("tab", { name: "Sign In", selected: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/auth");

    await signIn(page, email, NEW_PASSWORD);
    await expectSignedInHeader(page);
  });

  it("says at once that a used reset link cannot be used again, with Send Reset Link in its place", async () => {
    expect(resetPath).not.toBe("");
    await context.clearCookies();
    await gotoHydrated(page, `${stack.server.url}${resetPath}`);
    await page.getByRole("heading", { level: 1, name: "Reset Your Password" }).waitFor();
    await expectSpentLink(page);
    // The new link can be asked for right there.
    const before = mark(stack.sink);
    await page.getByLabel("Email", { exact: true }).fill(email);
    await solveCaptcha(page.locator("form").filter({ has: page.getByRole("button", { name: "Send Reset Link" }) }));
    await expectToast(page, "Password Reset Email Sent", () => page.getByRole("button", { name: "Send Reset Link" }).click());
    const fresh = extractResetPath(await waitForMail(stack.sink, { to: email, subject: /reset/i, after: before }));
    expect(fresh).not.toBe(resetPath);
    // Back to Sign In leaves the reset screen.
    await page.getByRole("button", { name: "Back to Sign In" }).click();
    await page.getByRole("heading", { level: 1, name: "Welcome to Private Loans" }).waitFor();
  });
});
