import net from "node:net";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAdminWithMfa } from "../helpers/admins";
import { signUpOverHttp, toBrowserCookies } from "../helpers/applicants";
import { startSmtpSink, type SmtpSink } from "../helpers/smtp-sink";
import { axeViolations, gotoHydrated, launchBrowser, startTestServer, type TestServer } from "./harness";
import { openWatchedPage } from "./helpers/pages";
import { ipSequence, stopStack } from "./helpers/stack";
import type { Browser } from "playwright-core";

/**
 * Passkeys in Chromium with its virtual authenticator (DevTools protocol WebAuthn domain: CTAP2,
 * internal transport, resident keys, user verification): an applicant adds one on /account, signs
 * out and signs in with it (no e-mail, no password) to the dashboard; a staff member adds one and then
 * reaches /admin with it alone, since a passkey verified with user verification is the second factor.
 * Adding one needs the password again and e-mails the owner; Change Password then lists it.
 * WebAuthn needs a real host name as the relying party (an IP address is refused), so the server's
 * PUBLIC_URL and the browser use http://localhost on a port chosen here.
 */

const PASSWORD = "Str0ng!Passw0rd";
const ADMIN = { email: "pia.passkey-admin@example.com", password: "Adm1n!Secret" };
const newIp = ipSequence(170);
/** The browser logs the deliberate first try without the password (a 400) as a console error. */
const PROOF_REFUSED = /status of 400 \(Bad Request\)/;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** A virtual platform authenticator that verifies the user (as a fingerprint reader would). */
async function addAuthenticator(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { cdp, authenticatorId };
}

describe("passkeys", () => {
  let sink: SmtpSink;
  let server: TestServer;
  let browser: Browser;
  let site = "";

  beforeAll(async () => {
    const port = await freePort();
    site = `http://localhost:${port}`;
    sink = await startSmtpSink();
    server = await startTestServer({
      SMTP_URL: sink.url,
      PWNED_PASSWORDS_URL: "off",
      TRUST_PROXY: "true",
      PORT: String(port),
      PUBLIC_URL: site,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    });
    browser = await launchBrowser();
  });
  afterAll(() => stopStack({ sink, server, browser }));

  /**
   * Add Passkey asks for a fresh proof first: without the password the browser gets no creation
   * options (the field says why); with it, the passkey is added, the owner is e-mailed, and Change
   * Password lists it with the offer to remove it.
   */
  async function addPasskeyOnAccount(page: Page, name: string, email: string, password: string) {
    await gotoHydrated(page, `${site}/account`);
    await page.getByRole("heading", { name: "Passkeys" }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel("Passkey Name").fill(name);
    await page.getByRole("button", { name: "Add Passkey" }).click();
    await page.getByText("To add a passkey, enter your password").first().waitFor();
    expect(await page.getByRole("list", { name: "Your passkeys" }).count()).toBe(0);
    await page.getByLabel("Your Password").fill(password);
    await page.getByRole("button", { name: "Add Passkey" }).click();
    await page.getByRole("list", { name: "Your passkeys" }).getByText(name).waitFor();
    await page.getByRole("list", { name: "Passkeys on this account" }).getByText(name).waitFor();
    await page.getByLabel("Also remove my passkeys").waitFor();
    await expect.poll(() => sink.messages.some((m) => m.to.includes(email) && m.subject.includes("A passkey was added")), { timeout: 10_000 }).toBe(true);
  }

  async function signOut(page: Page) {
    const status = await page.evaluate(async () => (await fetch("/auth/sign-out", { method: "POST", redirect: "manual" })).status);
    expect([0, 302, 303]).toContain(status);
    await gotoHydrated(page, `${site}/dashboard`);
    expect(new URL(page.url()).pathname).toBe("/auth");
  }

  it("an applicant adds a passkey on /account, signs out, and signs in with it to the dashboard", async () => {
    const raw = await signUpOverHttp(server.url, sink, "paula.passkey@example.com", newIp(), "Paula Passkey", PASSWORD);
    const { context, page, errors } = await openWatchedPage(browser, { cookies: toBrowserCookies(raw, site), expectedConsoleErrors: PROOF_REFUSED });
    await addAuthenticator(context, page);
    await addPasskeyOnAccount(page, "My laptop", "paula.passkey@example.com", PASSWORD);
    await signOut(page);

    await gotoHydrated(page, `${site}/auth`);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Sign In with a Passkey" }).click();
    await page.waitForURL(`${site}/dashboard`);
    await page.getByText("Paula Passkey").first().waitFor();

    // Removing it: gone from the list (and the server's answer was audited: integration tests).
    await gotoHydrated(page, `${site}/account`);
    await page.getByRole("button", { name: "Remove passkey My laptop" }).click();
    await page.getByText("You have no passkeys yet.").waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("a staff member signs in with a passkey verified with user verification and reaches /admin without a code", async () => {
    const { cookie } = await signInAdminWithMfa(server.url, ADMIN.email, ADMIN.password, newIp());
    const { context, page, errors } = await openWatchedPage(browser, { cookies: toBrowserCookies(cookie, site), expectedConsoleErrors: PROOF_REFUSED });
    await addAuthenticator(context, page);
    await addPasskeyOnAccount(page, "Office key", ADMIN.email, ADMIN.password);
    await signOut(page);

    await gotoHydrated(page, `${site}/auth?redirectTo=%2Fadmin`);
    await page.getByRole("button", { name: "Sign In with a Passkey" }).click();
    await page.waitForURL(`${site}/admin`);
    await page.getByRole("heading", { level: 1 }).first().waitFor();
    expect(new URL(page.url()).pathname).toBe("/admin");
    expect(errors).toEqual([]);
    await context.close();
  });
});
