import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ESIGN_CONSENT_STATEMENT, ESIGN_CONSENT_TITLE } from "~/domain/esign-consent";
import { AGREE_TO_SIGN_LABEL } from "~/domain/validation/offer-signing";
import { verifyPdfSignature } from "~/server/platform/crypto/pdf-signature.server";
import { selfSignedIdentityPem, signingIdentity } from "~/server/platform/crypto/signing-identity.server";
import { toBrowserCookies } from "../helpers/applicants";
import { submitApplication } from "../helpers/applications";
import { axeViolations, waitForHydration } from "./harness";
import { openWatchedPage } from "./helpers/pages";
import { e2eStackForFile } from "./helpers/stack";
import { expectToast } from "./helpers/toasts";

/**
 * Review and Sign (issue 20) in a real browser: staff approve over HTTP (an offer), the applicant
 * opens /dashboard/applications/:id/offer, gives the E-SIGN consent, sees the Truth in Lending box and
 * the payment schedule, signs (typed, and drawn on the pad), lands on the application page with the
 * toast, the dashboard's Approved Loans shows the active loan, and the signed PDF downloads, digitally
 * signed by the configured lender certificate (pdfsig and the verify module accept it, and refuse it
 * with one byte changed). Another
 * applicant and staff get 404; the page is axe-clean.
 */

// The lender's signing certificate, configured as an operator would (SIGNING_CERT_FILE, SIGNING_KEY_FILE).
const signingDir = mkdtempSync(path.join(tmpdir(), "offer-signing-e2e-cert-"));
const signingPem = selfSignedIdentityPem("Harbor Street Lending, LLC");
const lender = signingIdentity(signingPem, signingPem);
writeFileSync(path.join(signingDir, "cert.pem"), lender.certPem);
writeFileSync(path.join(signingDir, "key.pem"), lender.keyPem);
afterAll(() => rmSync(signingDir, { recursive: true, force: true }));

const stack = e2eStackForFile({
  firstIp: 120,
  admin: { email: "sign.reviewer@example.com", password: "Rev1ewer!Passw0rd" },
  env: { SIGNING_CERT_FILE: path.join(signingDir, "cert.pem"), SIGNING_KEY_FILE: path.join(signingDir, "key.pem") },
});

let jane = "";
let john = "";
let adminCookie = "";

async function approve(applicationId: string) {
  const res = await fetch(`${stack.server.url}/admin`, {
    method: "POST",
    // As requested (50,000 at 8.5 % for 60 months): an offer, not a counteroffer.
    body: new URLSearchParams({ intent: "approve", applicationId, approvedAmount: "50000", interestRate: "8.5", termMonths: "60", originationFeePercent: "1.00" }),
    headers: { cookie: adminCookie, origin: stack.server.url },
    redirect: "manual",
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

beforeAll(async () => {
  jane = await stack.signUp("jane.sign@example.com", "Jane Doe-Smith");
  john = await stack.signUp("john.sign@example.com", "John Sign");
  adminCookie = await stack.adminSession();
});

const open = (cookie: string, width = 1280) => openWatchedPage(stack.browser, { cookies: cookie ? toBrowserCookies(cookie, stack.server.url) : [], width });
const offerUrl = (id: string) => `${stack.server.url}/dashboard/applications/${id}/offer`;

async function consent(page: Page) {
  await page.getByRole("heading", { level: 2, name: ESIGN_CONSENT_TITLE }).waitFor();
  // The disclosure is not shown before the consent.
  expect(await page.getByTestId("tila-box").count()).toBe(0);
  // "I Agree" without the box: refused in the page.
  await page.getByRole("button", { name: "I Agree" }).click();
  await page.locator("#esign-agree-error", { hasText: "Check the box" }).waitFor();
  await page.getByLabel(ESIGN_CONSENT_STATEMENT).check();
  await expectToast(page, "E-SIGN consent recorded", () => page.getByRole("button", { name: "I Agree" }).click());
  await page.getByTestId("tila-box").waitFor();
}

/**
 * An application of `cookie`'s applicant, approved as requested, open on its Review and Sign page with
 * the E-SIGN consent given (as `consent` gives it).
 */
async function consentedOffer(cookie: string, fields?: Record<string, string>) {
  const app = await submitApplication(stack.server.url, cookie, { ip: stack.nextIp(), ...(fields ? { fields } : {}) });
  await approve(app);
  const opened = await open(cookie);
  await opened.page.goto(offerUrl(app));
  await waitForHydration(opened.page);
  await consent(opened.page);
  return { app, ...opened };
}

describe("Review and Sign", () => {
  it("consent, the disclosure and schedule, a typed signature: the loan is active and the agreement downloads (axe-clean)", async () => {
    const app = await submitApplication(stack.server.url, jane, { ip: stack.nextIp() });
    await approve(app);
    const { context, page, errors } = await open(jane);
    await page.goto(offerUrl(app));
    await waitForHydration(page);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Review and Sign");
    expect(await axeViolations(page)).toEqual([]);
    await consent(page);

    const box = (await page.getByTestId("tila-box").textContent()) ?? "";
    for (const heading of ["ANNUAL PERCENTAGE RATE", "FINANCE CHARGE", "Amount Financed", "Total of Payments"]) expect(box).toContain(heading);
    expect(box).toContain("$49,500.00"); // amount financed: 50,000 less the 1 % fee
    // Under the figures, the late charge of the default settings, prepayment and the contract reference.
    const lines = (await page.getByTestId("tila-lines").textContent()) ?? "";
    expect(lines).toContain("Late Charge: If a payment is more than 15 days late, you will be charged the greater of $25.00 or 5% of the payment, up to $50.00.");
    expect(lines).toContain("Prepayment: If you pay off early, you will not have to pay a penalty, and you will not be entitled to a refund of part of the finance charge: the $500.00 origination fee is not refunded.");
    expect(lines).toContain("See your contract documents for any additional information about nonpayment, default");
    const note = (await page.getByRole("region", { name: "Note terms" }).textContent()) ?? "";
    expect(note).toContain("4. LATE CHARGE. If any payment is not received in full within 15 days after its due date");
    expect(note).not.toContain("one twelfth");
    expect(await page.getByTestId("payment-schedule").locator("tbody tr").count()).toBe(60);
    expect(await page.getByRole("button", { name: "Withdraw E-SIGN Consent" }).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);

    // A name that is not the applicant's is refused with the reason.
    await page.getByLabel("Full Name").fill("Someone Else");
    await page.getByLabel(AGREE_TO_SIGN_LABEL).check();
    await expectToast(page, "Agreement not signed", () => page.getByRole("button", { name: "Sign Agreement" }).click());

    await page.getByLabel("Full Name").fill("Jane Doe-Smith");
    await expectToast(page, "Loan agreement signed", async () => {
      await page.getByRole("button", { name: "Sign Agreement" }).click();
      await page.waitForURL(`${stack.server.url}/dashboard/applications/${app}`);
    });
    // The one console line is the refused wrong name's 400 above.
    expect(errors).toEqual(["Failed to load resource: the server responded with a status of 400 (Bad Request)"]);

    // The dashboard's Approved Loans shows the active loan.
    await page.goto(`${stack.server.url}/dashboard`);
    await waitForHydration(page);
    const loans = (await page.locator("#approved-loans").textContent()) ?? "";
    expect(loans).toContain("$50,000");
    expect(loans).not.toContain("No Approved Loans Yet");

    // The offer page now says it is signed, and the PDF downloads.
    await page.goto(offerUrl(app));
    await page.getByTestId("offer-closed").getByText("Agreement signed").waitFor();
    const download = await page.request.get(`${stack.server.url}/dashboard/applications/${app}/agreement`);
    expect(download.status()).toBe(200);
    expect(download.headers()["content-disposition"]).toMatch(/^attachment;/);
    expect(download.headers()["cache-control"]).toContain("no-store");
    const bytes = await download.body();
    expect(bytes.subarray(0, 4).toString("latin1")).toBe("%PDF");
    // Digitally signed by the configured lender certificate: pdfsig and our verify module accept it…
    const file = path.join(signingDir, `${app}.pdf`);
    writeFileSync(file, bytes);
    const pdfsig = execFileSync("pdfsig", [file], { encoding: "utf8" });
    expect(pdfsig).toContain("Signature Validation: Signature is Valid.");
    expect(pdfsig).toContain("Signer Certificate Common Name: Harbor Street Lending, LLC");
    expect(verifyPdfSignature(bytes, lender.certificateSha256)).toMatchObject({ valid: true, signer: "Harbor Street Lending, LLC", expectedSigner: true });
    expect(execFileSync("pdftotext", [file, "-"], { encoding: "utf8" })).toContain(`Certificate SHA-256: ${lender.certificateSha256}`);
    // …and both refuse it once one byte inside the signed range has changed.
    const changed = Buffer.from(bytes);
    const at = changed.indexOf("stream") + 20;
    changed[at] = changed[at]! ^ 0x01;
    writeFileSync(file, changed);
    expect(execFileSync("pdfsig", [file], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] })).toContain("Signature Validation: Digest Mismatch.");
    expect(verifyPdfSignature(changed, lender.certificateSha256)).toMatchObject({ valid: false, message: "the document was changed after signing" });

    // Signing again is refused with a clear message (the page no longer offers the form).
    expect(await page.getByRole("button", { name: "Sign Agreement" }).count()).toBe(0);
    await context.close();

    // Staff download it too (audited); another applicant and staff on the applicant route get 404.
    const staff = await fetch(`${stack.server.url}/admin/applications/${app}/agreement`, { headers: { cookie: adminCookie } });
    expect(staff.status).toBe(200);
    expect(Buffer.from(await staff.arrayBuffer()).subarray(0, 4).toString("latin1")).toBe("%PDF");
    for (const cookie of [john, adminCookie]) {
      expect((await fetch(offerUrl(app), { headers: { cookie }, redirect: "manual" })).status).toBe(404);
      expect((await fetch(`${stack.server.url}/dashboard/applications/${app}/agreement`, { headers: { cookie }, redirect: "manual" })).status).toBe(404);
    }
  });

  it("a drawn signature on the pad signs too", async () => {
    const { app, context, page, errors } = await consentedOffer(jane);
    await page.getByLabel("Draw my signature").check();
    const pad = page.locator("canvas");
    await pad.scrollIntoViewIfNeeded();
    const area = (await pad.boundingBox())!;
    await page.mouse.move(area.x + 20, area.y + 80);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++) await page.mouse.move(area.x + 20 + i * 25, area.y + 80 + (i % 2 ? -30 : 30));
    await page.mouse.up();
    await page.getByText("Signature captured.").waitFor();
    await page.getByLabel(AGREE_TO_SIGN_LABEL).check();
    await expectToast(page, "Loan agreement signed", async () => {
      await page.getByRole("button", { name: "Sign Agreement" }).click();
      await page.waitForURL(`${stack.server.url}/dashboard/applications/${app}`);
    });
    expect(errors).toEqual([]);
    await context.close();
  });

  it("withdrawing the consent brings the consent form back", async () => {
    const { context, page, errors } = await consentedOffer(jane);
    await expectToast(page, "E-SIGN consent withdrawn", () => page.getByRole("button", { name: "Withdraw E-SIGN Consent" }).click());
    await page.getByRole("heading", { level: 2, name: ESIGN_CONSENT_TITLE }).waitFor();
    expect(await page.getByTestId("tila-box").count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("the full name given at sign-up signs, typed in lower case, and the agreement prints it as typed", async () => {
    const maria = await stack.signUp("maria.sign@example.com", "Maria Elena Gonzalez");
    const { app, context, page, errors } = await consentedOffer(maria, { firstName: "Maria", middleInitial: "E", lastName: "Gonzalez", accountHolderName: "Maria Gonzalez" });
    // The page asks for the name she gave at sign-up.
    await page.getByText("Type your full name as you gave it: Maria Elena Gonzalez.").waitFor();
    await page.getByLabel("Full Name").fill("maria elena gonzalez");
    await page.getByLabel(AGREE_TO_SIGN_LABEL).check();
    await expectToast(page, "Loan agreement signed", async () => {
      await page.getByRole("button", { name: "Sign Agreement" }).click();
      await page.waitForURL(`${stack.server.url}/dashboard/applications/${app}`);
    });
    expect(errors).toEqual([]);
    const download = await page.request.get(`${stack.server.url}/dashboard/applications/${app}/agreement`);
    expect(download.status()).toBe(200);
    const dir = mkdtempSync(path.join(tmpdir(), "offer-signing-e2e-"));
    try {
      const file = path.join(dir, "agreement.pdf");
      writeFileSync(file, await download.body());
      const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
      expect(text).toContain("Borrower: maria elena gonzalez");
      expect(text).toMatch(/Signer:\s+maria elena gonzalez/);
      expect(text).not.toContain("Borrower: Maria E. Gonzalez");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    await context.close();
  });
});
