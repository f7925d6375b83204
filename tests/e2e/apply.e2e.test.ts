import { solveChallenge, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { BrowserContext, FileChooser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeExe, makeJpeg, makePdf, makePng } from "../helpers/files";
import { axeViolations, waitForHydration as waitForPageHydration } from "./harness";
import { e2eStackForFile } from "./helpers/stack";
import { extractCode, mark, waitForMail } from "./helpers/mailbox";
import { escapeRegExp } from "./helpers/toasts";
import { BANK_ACCOUNT, BIRTH_DATE, choose, drawSignature, fillStep, STREET_ADDRESS, wizardField } from "./helpers/wizard";

/**
 * /apply in a real browser against the built server (docs/requirements.md §2 'Loan application', §3-§5, §7, §8):
 * the sign-in guard and the return with the calculator's query, the estimate hand-off, each step's
 * checks, uploads (real files, a refused type), the session draft across a reload (without the SSN),
 * a drawn signature, failed submissions that keep everything, the real submission through to the
 * confirmation and the e-mails it sends, axe on steps 1, 4 and 5 and the confirmation, and the layout at 320 px.
 *
 * The account is created over HTTP (mailed code + solved ALTCHA); the sign-in is done in the page.
 * The steps run in order on one page.
 */

const PASSWORD = "Str0ng!Passw0rd";
const LENDER = "lender@example.com";
const QUERY = "loanAmount=25000&interestRate=9.5&loanTerm=36&monthlyPayment=800.12";
const DRAFT_KEY = "pl.apply.draft.v1";

const stack = e2eStackForFile({ env: { LENDER_NOTIFY_EMAIL: LENDER } });
let context: BrowserContext;
let page: Page;
let tmp: string;
const email = `applicant.${Date.now()}@example.com`;
const file = (name: string) => path.join(tmp, name);
/** Script errors in the page (hydration mismatches, exceptions); resources refused with 4xx/5xx are expected. */
const consoleErrors: string[] = [];
const fileChoosers: FileChooser[] = [];

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "apply-e2e-"));
  fs.writeFileSync(file("id-front.png"), makePng(24, 16));
  fs.writeFileSync(file("id-back.jpg"), makeJpeg(3000));
  fs.writeFileSync(file("statement-1.pdf"), makePdf(4096));
  fs.writeFileSync(file("statement-2.pdf"), makePdf(2048));
  fs.writeFileSync(file("statement-3.pdf"), makePdf(2048));
  fs.writeFileSync(file("utility-bill.pdf"), makePdf(3072));
  fs.writeFileSync(file("setup.exe"), makeExe());
  await signUpOverHttp(email);
  context = await stack.browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(message.text());
  });
  page.on("pageerror", (error) => consoleErrors.push(error.message));
  // Listening from the start turns file-chooser interception on before any key press needs it.
  page.on("filechooser", (chooser) => fileChoosers.push(chooser));
});

afterAll(async () => {
  await context?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/** Creates the account the way the sign-up form does: a mailed code, then the form with a solved ALTCHA. */
async function signUpOverHttp(address: string) {
  const post = (fields: Record<string, string>) =>
    fetch(`${stack.server.url}/auth`, { method: "POST", redirect: "manual", body: new URLSearchParams(fields), headers: { origin: stack.server.url } });
  const before = mark(stack.sink);
  expect((await post({ intent: "send-code", email: address })).status).toBe(200);
  const code = extractCode(await waitForMail(stack.sink, { to: address, subject: /verification code/i, after: before }));
  const challenge = (await (await fetch(`${stack.server.url}/api/captcha/challenge`)).json()) as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey, timeout: 30_000 });
  const captcha = Buffer.from(JSON.stringify({ challenge: { parameters: challenge.parameters, signature: challenge.signature }, solution })).toString("base64");
  const res = await post({ intent: "sign-up", fullName: "Jane Applicant", email: address, code, password: PASSWORD, captcha });
  expect(res.status).toBe(302);
}

/** Runs `action`, then waits for a new toast whose text contains `text` (older toasts are marked first). */
async function expectToast(text: string, action: () => Promise<unknown>) {
  await page.evaluate(() => document.querySelectorAll("[data-sonner-toast]").forEach((t) => t.setAttribute("data-test-seen", "")));
  await action();
  const toast = page.locator("[data-sonner-toast]:not([data-test-seen])").filter({ hasText: new RegExp(escapeRegExp(text)) }).first();
  try {
    await toast.waitFor({ state: "attached" });
  } catch (error) {
    const seen = await page.locator("[data-sonner-toast]").allTextContents();
    throw new Error(`Expected a toast with '${text}'; toasts on the page: ${JSON.stringify(seen)}`, { cause: error });
  }
}

async function waitForHydration() {
  await waitForPageHydration(page);
}

const field = (label: string) => wizardField(page)(label);

/** The idempotencyKey part of a multipart body. */
function idempotencyKeyOf(body: Buffer | null): string {
  return /name="idempotencyKey"\r\n\r\n([^\r]*)\r\n/.exec(body?.toString("latin1") ?? "")?.[1] ?? "";
}
const sentKeys: string[] = [];
const continueButton = () => page.getByRole("button", { name: "Continue" });

async function expectStep(n: number, heading: string) {
  await page.getByRole("heading", { level: 2, name: heading }).waitFor();
  expect(await page.getByText(`Step ${n} of 5`, { exact: true }).isVisible()).toBe(true);
  expect(await page.getByRole("progressbar", { name: "Application progress" }).getAttribute("aria-valuenow")).toBe(String(n * 20));
  expect(await page.getByText(`${n * 20}% Complete`).isVisible()).toBe(true);
}

async function expectInvalid(control: Locator, message: string) {
  expect(await control.getAttribute("aria-invalid")).toBe("true");
  const ids = (await control.getAttribute("aria-describedby")) ?? "";
  const texts = await Promise.all(ids.split(/\s+/).filter(Boolean).map((id) => page.locator(`[id="${id}"]`).textContent()));
  expect(texts.join(" ")).toContain(message);
}

async function focusedName(): Promise<string | null> {
  return page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.getAttribute("data-field") ?? null);
}

/** Step 1 with a middle initial and the SSN as bare digits (both formatted as typed); each test types the ZIP code. */
async function fillStep1() {
  await fillStep(page, {
    "First Name": "Jane",
    "Middle Initial": "q",
    "Last Name": "Doe-Smith",
    ...BIRTH_DATE,
    "Social Security Number": "123456789",
    Phone: "3025550199",
    ...STREET_ADDRESS,
  });
}

describe("/apply", () => {
  it("sends a visitor to /auth with 'Please sign in to apply for a loan', and back to /apply with the estimate after sign-in", async () => {
    await page.goto(`${stack.server.url}/apply?${QUERY}`);
    await page.waitForURL((url) => url.pathname === "/auth");
    expect(new URL(page.url()).searchParams.get("redirectTo")).toBe(`/apply?${QUERY}`);
    await page.locator("[data-sonner-toast]").filter({ hasText: "Please sign in to apply for a loan" }).first().waitFor({ state: "attached" });

    const form = page.getByRole("tabpanel", { name: "Sign In" });
    await form.getByLabel("Email", { exact: true }).fill(email);
    await form.getByLabel("Password", { exact: true }).fill(PASSWORD);
    const box = form.locator("altcha-widget .altcha");
    await box.waitFor();
    if ((await box.getAttribute("data-state")) === "unverified") await form.locator("altcha-widget label").click();
    await form.locator('altcha-widget .altcha[data-state="verified"]').waitFor({ timeout: 20_000 });

    await expectToast("Calculator estimate loaded successfully!", async () => {
      await form.getByRole("button", { name: "Sign In", exact: true }).click();
      await page.waitForURL((url) => url.pathname === "/apply");
    });
    expect(page.url()).toBe(`${stack.server.url}/apply?${QUERY}`);
    await expectStep(1, "Personal Information");

    const panel = page.getByRole("region", { name: "Your Calculator Estimate" });
    const text = await panel.innerText();
    for (const part of ["$25,000", "9.5%", "36 months (3 years)", "$800.12"]) expect(text).toContain(part);
    // The account's e-mail is pre-filled.
    expect(await field("Email").inputValue()).toBe(email);
    // Back is not offered on step 1.
    expect(await page.getByRole("button", { name: "Back", exact: true }).count()).toBe(0);
  });

  it("step 1 has no axe violations", async () => {
    // Settle first: a navigation still finishing leaves axe looking at an empty document.
    await page.waitForLoadState("load");
    await page.locator("main h1").first().waitFor();
    await field("First Name").waitFor();
    expect(await axeViolations(page)).toEqual([]);
  });

  it("step 1: required fields, the ZIP code, input formats and the masked SSN", async () => {
    // The account's name comes filled in; emptied, it is required like any other field.
    expect(await field("First Name").inputValue()).toBe("Jane");
    expect(await field("Last Name").inputValue()).toBe("Applicant");
    await field("First Name").fill("");
    await expectToast("Please fill in all required fields", () => continueButton().click());
    await expectInvalid(field("First Name"), "Please fill in all required fields");
    await expect.poll(focusedName).toBe("firstName");

    await fillStep1();
    // Formatted as typed.
    expect(await field("Middle Initial").inputValue()).toBe("Q");
    expect(await field("Phone").inputValue()).toBe("(302) 555-0199");
    const ssn = field("Social Security Number");
    expect(await ssn.inputValue()).toBe("123-45-6789");
    expect(await ssn.getAttribute("type")).toBe("password");
    expect(await ssn.getAttribute("maxlength")).toBe("11");
    await page.getByRole("button", { name: "Show Social Security Number" }).click();
    expect(await ssn.getAttribute("type")).toBe("text");
    await page.getByRole("button", { name: "Hide Social Security Number" }).click();

    // The year select runs from this year down to 1900.
    const years = await field("Year").locator("option").allTextContents();
    expect(years[1]).toBe(String(new Date().getFullYear()));
    expect(years.at(-1)).toBe("1900");

    await field("ZIP Code").fill("123");
    await expectToast("Please enter a valid 5-digit ZIP code", () => continueButton().click());
    await expectInvalid(field("ZIP Code"), "Please enter a valid 5-digit ZIP code");
    await expect.poll(focusedName).toBe("zipCode");
    await field("ZIP Code").fill("19801");

    await continueButton().click();
    await expectStep(2, "Loan Details");
    // Focus moved to the new step's heading.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Loan Details");
  });

  it("step 2: pre-filled from the estimate; the purpose needs 10 characters (live counter)", async () => {
    expect(await field("Loan Amount").inputValue()).toBe("25,000");
    expect(await field("Desired Interest Rate").inputValue()).toBe("9.5");
    expect(await field("Loan Duration").inputValue()).toBe("36");

    await field("Loan Type").selectOption("hard-money");
    await field("Property Address").waitFor();
    await field("Loan Type").selectOption("personal");
    expect(await field("Property Address").count()).toBe(0);

    await field("Loan Amount").fill("");
    await field("Loan Amount").pressSequentially("1250000");
    expect(await field("Loan Amount").inputValue()).toBe("1,250,000");
    await field("Loan Amount").fill("25000");
    expect(await field("Loan Amount").inputValue()).toBe("25,000");

    await field("Loan Purpose").fill("Too short");
    await page.getByText("9/500 characters").waitFor();
    expect(await page.getByText("Minimum 10 characters").isVisible()).toBe(true);
    await expectToast("Loan purpose must be between 10 and 500 characters", () => continueButton().click());
    await expectInvalid(field("Loan Purpose"), "Loan purpose must be between 10 and 500 characters");

    await field("Loan Purpose").fill("Consolidating two credit cards into one payment");
    await continueButton().click();
    await expectStep(3, "Financial Information");
  });

  it("a reload on step 3 keeps steps 1-2 and the step, but not the SSN", async () => {
    await field("Employer Name").fill("Acme Corp");
    const draft = (await page.evaluate((key) => localStorage.getItem(key), DRAFT_KEY)) ?? "";
    expect(draft).toContain("Acme Corp");
    expect(draft).not.toContain("6789");
    expect(draft).not.toContain("ssn");

    await page.reload();
    await waitForHydration();
    await expectStep(3, "Financial Information");
    expect(await field("Employer Name").inputValue()).toBe("Acme Corp");
    // The estimate was applied once: no second toast on reload.
    await page.waitForTimeout(300);
    expect(await page.locator("[data-sonner-toast]").filter({ hasText: "Calculator estimate loaded" }).count()).toBe(0);

    await page.getByRole("button", { name: "Back", exact: true }).click();
    await expectStep(2, "Loan Details");
    expect(await field("Loan Purpose").inputValue()).toBe("Consolidating two credit cards into one payment");
    expect(await field("Loan Type").inputValue()).toBe("personal");
    await page.getByRole("button", { name: "Back", exact: true }).click();
    await expectStep(1, "Personal Information");
    expect(await field("First Name").inputValue()).toBe("Jane");
    expect(await field("Phone").inputValue()).toBe("(302) 555-0199");
    expect(await field("Year").inputValue()).toBe("1988");
    expect(await field("ZIP Code").inputValue()).toBe("19801");
    expect(await field("Social Security Number").inputValue()).toBe("");

    await field("Social Security Number").fill("123-45-6789");
    await continueButton().click();
    await expectStep(2, "Loan Details");
    await continueButton().click();
    await expectStep(3, "Financial Information");
  });

  it("step 3: required employment fields and the credit score range", async () => {
    await field("Employer Name").fill("");
    await expectToast("Please fill in all required employment and financial information", () => continueButton().click());
    await expectInvalid(field("Employment Status"), "Please fill in all required employment and financial information");

    await field("Employment Status").selectOption("full-time");
    await field("Employer Name").fill("Acme Corp");
    await field("Job Title").fill("Engineer");
    await field("Years Employed").fill("6");
    await field("Monthly Income").fill("8500");
    expect(await field("Monthly Income").inputValue()).toBe("8,500");
    await field("Credit Score").fill("900");
    await expectToast("Credit score must be between 300 and 850", () => continueButton().click());
    await expectInvalid(field("Credit Score"), "Credit score must be between 300 and 850");
    await field("Credit Score").fill("720");
    await page.getByLabel("Do you have outstanding loans?").check();
    await page.getByLabel("I authorize a credit report").check();
    await continueButton().click();
    await expectStep(4, "Documents & Bank Information");
  });

  it("step 4: documents required, a wrong file type refused, uploads with their size, then bank checks", async () => {
    await expectToast("Please upload all required documents", () => continueButton().click());
    await expectInvalid(field("ID Card (Front)"), "Please upload all required documents");

    await expectToast("File must be PDF, JPG, or PNG and under 5MB", () => field("ID Card (Front)").setInputFiles(file("setup.exe")));

    await expectToast("ID Card (Front) uploaded successfully!", () => field("ID Card (Front)").setInputFiles(file("id-front.png")));
    const front = page.locator('[data-field-group="idCardFront"]');
    await front.getByText("id-front.png").waitFor();
    expect(await front.innerText()).toMatch(/\d+\.\d KB/);
    expect(await front.innerText()).toContain("Replace file");

    const uploads: [string, string][] = [
      ["ID Card (Back)", "id-back.jpg"],
      ["Bank Statement (Month 1)", "statement-1.pdf"],
      ["Bank Statement (Month 2)", "statement-2.pdf"],
      ["Bank Statement (Month 3)", "statement-3.pdf"],
      ["Utility Bill", "utility-bill.pdf"],
    ];
    for (const [label, name] of uploads) {
      await expectToast(`${label} uploaded successfully!`, () => field(label).setInputFiles(file(name)));
    }
    expect(await page.getByText("Uploading...").count()).toBe(0);

    await expectToast("Please complete all bank information fields", () => continueButton().click());
    await field("Account Holder Name").fill("Jane Doe-Smith");
    await field("Bank Name").fill("First Bank");
    await field("Account Number").fill("000123456789");
    expect(await field("Account Number").getAttribute("type")).toBe("password");
    await field("Routing Number").fill("02100002");
    await field("SWIFT Code").fill("bofaus3n");
    expect(await field("SWIFT Code").inputValue()).toBe("BOFAUS3N");
    expect(await field("Account Type").inputValue()).toBe("checking");
    await expectToast("Routing number must be exactly 9 digits", () => continueButton().click());
    await expectInvalid(field("Routing Number"), "Routing number must be exactly 9 digits");
    expect(await axeViolations(page)).toEqual([]);
    await field("Routing Number").fill("021000021");
    await continueButton().click();
    await expectStep(5, "Review & Submit");
  });

  it("step 5: the review masks sensitive values and recomputes the payment; signature and terms are required", async () => {
    const main = await page.locator("main").innerText();
    for (const part of ["Jane Q. Doe-Smith", "April 12, 1988", "***-**-6789", "(302) 555-0199", "Personal Loan", "$25,000", "9.5%", "Acme Corp", "••••6789", "•••••••21", "id-front.png", "utility-bill.pdf"]) {
      expect(main).toContain(part);
    }
    expect(main).not.toContain("123-45-6789");
    expect(main).not.toContain("000123456789");
    // 25,000 at 9.5 % for 36 months (yearly rate / 12, amortised).
    expect(await page.getByTestId("estimated-payment").innerText()).toBe("$800.82");

    await expectToast("Please provide your signature", () => page.getByRole("button", { name: "Submit Application" }).click());
    await drawSignature(page);
    await expectToast("Please agree to the terms and conditions", () => page.getByRole("button", { name: "Submit Application" }).click());
    await expectInvalid(page.getByRole("checkbox", { name: /I agree to the Terms of Service/ }), "Please agree to the terms and conditions");
    const terms = page.getByRole("main").getByRole("link", { name: /Terms of Service/ });
    expect(await terms.getAttribute("target")).toBe("_blank");
    expect(await terms.getAttribute("href")).toBe("/terms");
    expect(await page.getByRole("main").getByRole("link", { name: /Privacy Policy/ }).getAttribute("href")).toBe("/privacy");
    await page.getByRole("checkbox", { name: /I agree to the Terms of Service/ }).check();
    expect(await axeViolations(page)).toEqual([]);
  });

  it("a failed submission keeps everything; a server problem on a field jumps back to its step", async () => {
    const url = `${stack.server.url}/api/applications`;
    page.on("request", (request) => {
      if (request.url() === url) sentKeys.push(idempotencyKeyOf(request.postDataBuffer()));
    });
    await page.route(url, (route) => route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ ok: false, message: "Failed to submit application" }) }));
    await expectToast("Failed to submit application", () => page.getByRole("button", { name: "Submit Application" }).click());
    await page.getByRole("button", { name: "Submit Application" }).waitFor();
    expect(await page.getByText("Signature captured.").isVisible()).toBe(true);
    await page.unroute(url);

    await page.route(url, (route) =>
      route.fulfill({
        status: 400,
        contentType: "application/json",
        body: JSON.stringify({ ok: false, step: 1, field: "phone", message: "Please enter a valid 10-digit phone number" }),
      }),
    );
    await expectToast("Please enter a valid 10-digit phone number", () => page.getByRole("button", { name: "Submit Application" }).click());
    await expectStep(1, "Personal Information");
    await expectInvalid(field("Phone"), "Please enter a valid 10-digit phone number");
    await expect.poll(focusedName).toBe("phone");
    await page.unroute(url);

    await page.route(url, (route) => route.fulfill({ status: 401, contentType: "application/json", body: JSON.stringify({ message: "Please sign in to submit your application" }) }));
    for (const [n, heading] of [
      [2, "Loan Details"],
      [3, "Financial Information"],
      [4, "Documents & Bank Information"],
      [5, "Review & Submit"],
    ] as const) {
      await continueButton().click();
      await expectStep(n, heading);
    }
    // Files, signature and the terms box survived the trip.
    expect(await page.locator("main").innerText()).toContain("statement-3.pdf");
    expect(await page.getByText("Signature captured.").isVisible()).toBe(true);
    await expectToast("Please sign in to submit your application", () => page.getByRole("button", { name: "Submit Application" }).click());
    await page.unroute(url);
  });

  it("submits for real: 'Processing...', the confirmation screen, the toast, and the e-mails", async () => {
    const before = mark(stack.sink);
    // Passed through untouched; routing it only makes its multipart body readable to the request listener.
    const url = `${stack.server.url}/api/applications`;
    await page.route(url, (route) => route.continue());
    await expectToast("Application and documents submitted successfully!", () => page.getByRole("button", { name: "Submit Application" }).click());
    await page.unroute(url);
    await page.getByRole("heading", { level: 2, name: "Application Submitted Successfully!" }).waitFor();
    const main = await page.locator("main").innerText();
    expect(main).toMatch(/confirmation e-mail/i);
    expect(main).toContain("24-48 hours");
    // A short reference, as the dashboard shows it: the first 8 characters, never the whole id.
    expect(main).toMatch(/Reference: [0-9a-f]{8}…/);
    expect(main).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
    expect(await page.getByRole("link", { name: "Go to Dashboard" }).getAttribute("href")).toBe("/dashboard");
    expect(await page.getByRole("link", { name: "Back to Home" }).getAttribute("href")).toBe("/");
    expect(await axeViolations(page)).toEqual([]);
    // The draft and the idempotency key are gone.
    expect(await page.evaluate(() => [...Object.keys(localStorage), ...Object.keys(sessionStorage)].filter((k) => k.startsWith("pl.apply")))).toEqual([]);

    const lender = await waitForMail(stack.sink, { to: LENDER, subject: /New loan application/, after: before });
    expect(lender.subject).toContain("Jane Doe-Smith");
    expect(lender.subject).toContain("$25,000");
    // Every attempt of this wizard (503, 400, 401, then the real one) carried the same idempotency key.
    expect(sentKeys.length).toBe(4);
    expect(new Set(sentKeys).size).toBe(1);
    expect(sentKeys[0]).toMatch(/^[0-9a-f-]{36}$/);
    await waitForMail(stack.sink, { to: email, subject: /received your/i, after: before });

    await page.getByRole("link", { name: "Go to Dashboard" }).click();
    await page.waitForURL((url) => url.pathname === "/dashboard");
  });

  it("shows 'Processing...' with upload progress while submitting", async () => {
    // A fresh wizard: seed the steps 1-3 draft, then hold the submission to look at the busy state.
    await page.goto(`${stack.server.url}/apply`);
    await waitForHydration();
    await expectStep(1, "Personal Information");
    // No estimate in the URL: no panel.
    expect(await page.getByRole("region", { name: "Your Calculator Estimate" }).count()).toBe(0);
    await fillStep1();
    await field("ZIP Code").fill("19801");
    await continueButton().click();
    await fillStep(page, {
      "Loan Type": choose("business"),
      "Business Name": "Acme Holdings",
      "Years in Business": "4",
      "Loan Amount": "150000",
      "Desired Interest Rate": "12",
      "Loan Duration": choose("60"),
      "Loan Purpose": "Working capital for a second location",
    });
    await continueButton().click();
    await fillStep(page, { "Employment Status": choose("self-employed"), "Employer Name": "Acme Holdings", "Monthly Income": "20000" });
    await continueButton().click();
    await expectStep(4, "Documents & Bank Information");
    // By keyboard: the document slot is a real file input; Enter opens the file chooser.
    await field("ID Card (Front)").focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => fileChoosers.length).toBe(1);
    await fileChoosers[0]!.setFiles(file("id-front.png"));
    await page.locator('[data-field-group="idCardFront"]').getByText("id-front.png").waitFor();
    for (const [label, name] of [
      ["ID Card (Back)", "id-back.jpg"],
      ["Bank Statement (Month 1)", "statement-1.pdf"],
      ["Bank Statement (Month 2)", "statement-2.pdf"],
      ["Bank Statement (Month 3)", "statement-3.pdf"],
      ["Utility Bill", "utility-bill.pdf"],
      ["Collateral Documents", "statement-1.pdf"],
    ] as const) {
      await field(label).setInputFiles(file(name));
    }
    await page.locator('[data-field-group="collateralDocs"]').getByText("statement-1.pdf").waitFor();
    await fillStep(page, { ...BANK_ACCOUNT, "Account Holder Name": "Acme Holdings LLC", "Account Number": "9876543210", "Account Type": choose("business") });
    await continueButton().click();
    await expectStep(5, "Review & Submit");
    expect(await page.locator("main").innerText()).toContain("Acme Holdings");
    // Sign by typing (the keyboard alternative to drawing).
    await page.getByLabel("Or type your full name to sign").fill("Jane Doe-Smith");
    await page.getByText("Signature captured.").waitFor();
    await page.getByRole("checkbox", { name: /I agree to the Terms of Service/ }).focus();
    await page.keyboard.press("Space");
    expect(await page.getByRole("checkbox", { name: /I agree to the Terms of Service/ }).isChecked()).toBe(true);

    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`${stack.server.url}/api/applications`, async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole("button", { name: "Submit Application" }).focus();
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: "Processing..." }).waitFor();
    await page.getByRole("progressbar", { name: "Upload progress" }).waitFor();
    expect(await page.locator("main").innerText()).toMatch(/Uploading… \d+%|Upload complete/);
    release();
    await page.getByRole("heading", { level: 2, name: "Application Submitted Successfully!" }).waitFor();
    await page.unrouteAll({ behavior: "ignoreErrors" });
  });

  it("logged no script errors (hydration, exceptions) along the way", () => {
    expect(consoleErrors.filter((text) => !/Failed to load resource/.test(text))).toEqual([]);
  });

  it("fits a 320 px screen on step 1 and step 4", async () => {
    const small = await stack.browser.newContext({ viewport: { width: 320, height: 640 }, storageState: await context.storageState() });
    try {
      const p = await small.newPage();
      p.setDefaultTimeout(15_000);
      await p.goto(`${stack.server.url}/apply`);
      await p.getByRole("heading", { level: 2, name: "Personal Information" }).waitFor();
      expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
      const userId = await p.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? "{}").userId as string, DRAFT_KEY);
      await p.evaluate(
        ([key, id]) =>
          localStorage.setItem(
            key!,
            JSON.stringify({
              v: 1,
              userId: id,
              step: 5,
              estimateKey: null,
              values: {
                firstName: "Jane", lastName: "Doe", dobMonth: "04", dobDay: "12", dobYear: "1988", email: "jane@example.com",
                phone: "(302) 555-0199", addressLine1: "12 Market St", city: "Wilmington", state: "DE", zipCode: "19801",
                loanType: "personal", loanAmount: "25,000", desiredInterestRate: "9.5", loanDuration: "36",
                loanPurpose: "Consolidating two credit cards", employmentStatus: "full-time", employerName: "Acme",
                monthlyIncome: "8,500", ssn: "123-45-6789",
              },
            }),
          ),
        [DRAFT_KEY, userId] as const,
      );
      await p.reload();
      // A draft saved on step 5 reopens on step 4 (documents and bank numbers are never stored), without the SSN.
      await p.getByRole("heading", { level: 2, name: "Documents & Bank Information" }).waitFor();
      expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
      await p.getByRole("button", { name: "Back", exact: true }).click();
      await p.getByRole("button", { name: "Back", exact: true }).click();
      await p.getByRole("button", { name: "Back", exact: true }).click();
      await p.getByRole("heading", { level: 2, name: "Personal Information" }).waitFor();
      expect(await wizardField(p)("Social Security Number").inputValue()).toBe("");
      expect(await wizardField(p)("First Name").inputValue()).toBe("Jane");
    } finally {
      await small.close();
    }
  });
});
