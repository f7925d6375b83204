import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpOverHttp } from "../helpers/applicants";
import { makePdf, makePng } from "../helpers/files";
import { axeViolations, gotoHydrated } from "./harness";
import { e2eStackForFile } from "./helpers/stack";
import {
  agreeAndSubmit,
  BANK_ACCOUNT,
  BIRTH_DATE,
  choose,
  continueButton,
  continueTo,
  drawSignature,
  fillStep,
  HOME_ADDRESS,
  LOAN_DETAILS,
  PERSONAL_INFORMATION,
  REQUIRED_DOCUMENTS,
  RETIRED,
  stepHeading,
  uploadDocuments,
  wizardField,
} from "./helpers/wizard";

/**
 * Issue 18, the wizard as a new applicant meets it: problem toasts that go away with their problem, each
 * loan type's advertised range, the ABA and SSA rules, no employer asked of a retired applicant, files
 * checked by content before any "uploaded successfully", and hints that cannot be taken for values.
 */

const stack = e2eStackForFile({ env: { TRUST_PROXY: "true" } });
let cookie: string;
let tmp: string;
const file = (name: string) => path.join(tmp, name);

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "first-hour-wizard-"));
  fs.writeFileSync(file("statement.pdf"), "Just some text pretending to be a PDF, which it is not.\n");
  fs.writeFileSync(file("empty.pdf"), "");
  fs.writeFileSync(file("real.pdf"), makePdf(2048));
  fs.writeFileSync(file("id.png"), makePng(24, 16));
  cookie = await signUpOverHttp(stack.server.url, stack.sink, "first.hour@example.com", "198.18.7.1", "Jane Applicant");
});

afterAll(async () => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/** A new tab in `context` on `path` (the wizard unless told), hydrated. */
async function openTab(context: BrowserContext, path = "/apply"): Promise<Page> {
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  await gotoHydrated(page, `${stack.server.url}${path}`);
  return page;
}

/** A browser of this size signed in with `sessionCookie` (the file's applicant unless told), on `path`. */
async function openWizard(
  viewport: { width: number; height: number },
  { sessionCookie = cookie, path = "/apply" }: { sessionCookie?: string; path?: string } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await stack.browser.newContext({ viewport });
  const [name, ...rest] = sessionCookie.split(";")[0]!.split("=");
  await context.addCookies([{ name: name!, value: rest.join("="), url: stack.server.url }]);
  return { context, page: await openTab(context, path) };
}

const toasts = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });

/** The texts a control's aria-describedby points at. */
async function describedText(page: Page, control: Locator): Promise<string> {
  const ids = ((await control.getAttribute("aria-describedby")) ?? "").split(/\s+/).filter(Boolean);
  const texts = await Promise.all(ids.map((id) => page.locator(`[id="${id}"]`).textContent()));
  return texts.join(" ");
}

/** Continue is refused: a toast says `message`, and so does the text the control points at. */
async function expectRefusal(page: Page, control: Locator, message: string) {
  await continueButton(page).click();
  await toasts(page, message).waitFor();
  expect(await describedText(page, control)).toContain(message);
}

describe("the wizard at 1280x800", () => {
  let context: BrowserContext;
  let page: Page;
  let field: (label: string) => Locator;
  beforeAll(async () => {
    ({ context, page } = await openWizard({ width: 1280, height: 800 }));
    field = wizardField(page);
  });
  afterAll(async () => context?.close());

  it("step 1: the under-18 toast goes once the date is corrected; an SSN the SSA never issues is refused", async () => {
    const tooYoung = String(new Date().getUTCFullYear() - 10);
    await fillStep(page, { ...PERSONAL_INFORMATION, Year: choose(tooYoung), "Social Security Number": "000-00-0000" });
    await continueButton(page).click();
    await toasts(page, "You must be at least 18 years old to apply").waitFor();
    // The SSN has its own message under it, not the date's.
    expect(await describedText(page, field("Social Security Number"))).toContain("This is not a Social Security Number the SSA issues");
    await field("Year").selectOption("1988");
    await toasts(page, "You must be at least 18 years old to apply").waitFor({ state: "detached" });
    expect(await field("Month").getAttribute("aria-invalid")).toBeNull();

    await field("Social Security Number").fill("123-45-6789");
    await continueTo(page, "Loan Details");
  });

  it("step 2: a $1,000 personal loan is refused naming the range; hard money offers terms up to 36 months; no toast outlives its step", async () => {
    await field("Loan Type").selectOption("personal");
    // A hint under the amount, no value-like placeholder in it.
    expect(await field("Loan Amount").getAttribute("placeholder")).toBeNull();
    expect(await describedText(page, field("Loan Amount"))).toContain("Personal Loan amounts are from $5,000 to $5,000,000.");
    await field("Loan Amount").fill("1000");
    await field("Desired Interest Rate").fill("50");
    await field("Loan Duration").selectOption("60");
    await field("Loan Purpose").fill("Replacing the roof before the winter");
    // Each field its own message.
    await expectRefusal(page, field("Desired Interest Rate"), "Interest rate must be between 5.99% and 35.99%");
    await field("Desired Interest Rate").fill("9.5");
    await expectRefusal(page, field("Loan Amount"), "Personal Loan amounts are from $5,000 to $5,000,000.");
    await toasts(page, "Interest rate must be").waitFor({ state: "detached" });

    await field("Loan Type").selectOption("hard-money");
    const terms = await field("Loan Duration").locator("option").evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value).filter(Boolean));
    expect(terms).toEqual(["6", "12", "18", "24", "36"]);
    await field("Loan Type").selectOption("personal");

    await field("Loan Amount").fill("5000");
    await continueTo(page, "Financial Information");
    // The step 2 toast is gone on step 3.
    await toasts(page, "Personal Loan amounts").waitFor({ state: "detached" });
  });

  it("step 3: Employer Name is optional for a retired applicant", async () => {
    await field("Employment Status").selectOption("retired");
    expect(await field("Employer Name").getAttribute("aria-required")).not.toBe("true");
    await field("Monthly Income").fill("4000");
    await continueTo(page, "Documents & Bank Information");
  });

  it("step 4: a text file named .pdf and an empty file are refused before anything says uploaded; the routing checksum is checked", async () => {
    const slot = page.locator('[data-field-group="bankStatement1"]');
    await field("Bank Statement (Month 1)").setInputFiles(file("statement.pdf"));
    await toasts(page, "Bank Statement (Month 1): the file's content is not a complete PDF, JPG or PNG.").waitFor();
    expect(await slot.innerText()).toContain("Not accepted");
    expect(await slot.innerText()).not.toContain("statement.pdf");
    expect(await slot.locator(".text-green-700").count()).toBe(0);
    expect(await toasts(page, "uploaded successfully").count()).toBe(0);

    await field("Bank Statement (Month 1)").setInputFiles(file("empty.pdf"));
    await toasts(page, "Bank Statement (Month 1): the file is empty.").waitFor();
    expect(await slot.innerText()).not.toContain("0.0 KB");

    await field("Bank Statement (Month 1)").setInputFiles(file("real.pdf"));
    await toasts(page, "Bank Statement (Month 1) uploaded successfully!").waitFor();
    await slot.getByText("real.pdf").waitFor();
    expect(await describedText(page, field("Bank Statement (Month 1)"))).not.toContain("File must be");

    const others = REQUIRED_DOCUMENTS.filter((label) => label !== "Bank Statement (Month 1)");
    await uploadDocuments(page, others, (label) => file(label.startsWith("ID") ? "id.png" : "real.pdf"));
    await fillStep(page, { ...BANK_ACCOUNT, "Routing Number": "123456789", "Account Type": choose("checking") });
    await expectRefusal(page, field("Routing Number"), "This is not a valid ABA routing number");
    // The check digit is right, but 50 is no Federal Reserve routing symbol.
    await field("Routing Number").fill("501200312");
    await expectRefusal(page, field("Routing Number"), "it must start with 01 to 12, 21 to 32, 61 to 72 or 80");
    await field("Routing Number").fill("021000021");
    // Both refusals' toasts (checksum, then routing symbol) go once the number is corrected.
    await expect.poll(() => toasts(page, "This is not a valid ABA routing number").count(), { timeout: 15_000 }).toBe(0);
    await continueTo(page, "Review & Submit");
    expect(await axeViolations(page)).toEqual([]);
  });
});

describe("the wizard at 390x844", () => {
  it("shows hints, not value-like placeholders, for the phone and the amount", async () => {
    const { context, page } = await openWizard({ width: 390, height: 844 });
    try {
      const field = wizardField(page);
      expect(await field("Phone").getAttribute("placeholder")).toBeNull();
      expect(await describedText(page, field("Phone"))).toContain("10 digits");
      await fillStep(page, PERSONAL_INFORMATION);
      await continueTo(page, "Loan Details");
      expect(await field("Loan Amount").getAttribute("placeholder")).toBeNull();
      expect(await describedText(page, field("Loan Amount"))).toContain("for example 50,000");
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

/**
 * The second pass of the first hour: the account's name filled in, step 1 kept from the first field
 * typed after leaving the tab, one label for the rate, empty document slots that are not "Not accepted"
 * before any file was chosen, and an application with a 6-digit credit-union account number, to the end.
 */
describe.each([
  ["1280x800", { width: 1280, height: 800 }, "198.18.7.2"],
  ["390x844", { width: 390, height: 844 }, "198.18.7.3"],
] as const)("a new applicant's wizard at %s", (name, viewport, ip) => {
  const email = `second.pass.${name}@example.com`;
  let context: BrowserContext;
  let page: Page;
  let field: (label: string) => Locator;

  beforeAll(async () => {
    const applicantCookie = await signUpOverHttp(stack.server.url, stack.sink, email, ip, "Avery Jo Stone-Lee");
    ({ context, page } = await openWizard(viewport, { sessionCookie: applicantCookie }));
    field = wizardField(page);
  });
  afterAll(async () => context?.close());

  it("fills the name and e-mail from the account, and keeps step 1 from the first field typed when the tab is closed", async () => {
    expect(await field("First Name").inputValue()).toBe("Avery Jo");
    expect(await field("Last Name").inputValue()).toBe("Stone-Lee");
    expect(await field("Email").inputValue()).toBe(email);
    await field("Phone").fill("3025550142");
    await page.goto(`${stack.server.url}/`);
    await page.close();

    // A new tab (a fresh sessionStorage): step 1 is still there, no loan type chosen yet.
    page = await openTab(context);
    field = wizardField(page);
    await stepHeading(page, "Personal Information");
    await expect.poll(() => field("Phone").inputValue()).toBe("(302) 555-0142");
    expect(await field("First Name").inputValue()).toBe("Avery Jo");
  });

  it("names the rate 'Desired Interest Rate' on step 2", async () => {
    await fillStep(page, { ...BIRTH_DATE, ...HOME_ADDRESS });
    await continueTo(page, "Loan Details");
    await fillStep(page, { ...LOAN_DETAILS, "Loan Purpose": "Consolidating two credit cards" });
    expect(await page.getByText(/APR/).count()).toBe(0);
    await continueTo(page, "Financial Information");
    await fillStep(page, RETIRED);
    await continueTo(page, "Documents & Bank Information");
  });

  it("step 4: untouched slots show no error; Continue with them empty gives the required message, not 'Not accepted'", async () => {
    const slot = page.locator('[data-field-group="idCardFront"]');
    expect(await slot.innerText()).toContain("No file chosen");
    expect(await field("ID Card (Front)").getAttribute("aria-invalid")).toBeNull();
    expect(await page.getByText("Not accepted").count()).toBe(0);
    // The account number's hint says the rule.
    expect(await describedText(page, field("Account Number"))).toContain("4-17 digits");

    await continueButton(page).click();
    await toasts(page, "Please upload all required documents").waitFor();
    expect(await field("ID Card (Front)").getAttribute("aria-invalid")).toBe("true");
    expect(await describedText(page, field("ID Card (Front)"))).toContain("Please upload all required documents");
    expect(await slot.innerText()).toContain("No file chosen");
    expect(await page.getByText("Not accepted").count()).toBe(0);
    // The optional slot says nothing.
    expect(await field("Collateral Documents").getAttribute("aria-invalid")).toBeNull();

    // A refused file does say "Not accepted".
    await field("ID Card (Front)").setInputFiles(file("statement.pdf"));
    await toasts(page, "ID Card (Front): the file's content is not a complete PDF, JPG or PNG.").waitFor();
    expect(await slot.innerText()).toContain("Not accepted. Choose another file.");
    expect(await axeViolations(page)).toEqual([]);
  });

  it("applies with a 6-digit account number, to the confirmation", async () => {
    await uploadDocuments(page, REQUIRED_DOCUMENTS, (label) => file(label.startsWith("ID") ? "id.png" : "real.pdf"));
    await fillStep(page, { ...BANK_ACCOUNT, "Account Holder Name": "Avery Jo Stone-Lee", "Bank Name": "Lakeshore Members Credit Union", "Account Number": "482913" });
    await continueTo(page, "Review & Submit");

    // One label for the rate: the review's fact and its payment line say "Desired Interest Rate", never "APR".
    const review = page.locator("main");
    expect(await review.innerText()).toContain("Desired Interest Rate");
    expect(await review.innerText()).not.toMatch(/\bAPR\b/);
    expect(await page.getByTestId("estimated-payment").innerText()).toMatch(/^\$\d/);

    await drawSignature(page);
    await agreeAndSubmit(page, { timeout: 30_000 });
    expect(await axeViolations(page)).toEqual([]);
    // The browser draft is gone with the submission.
    expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("pl.apply")))).toEqual([]);
  });
});

describe("a calculator hand-off with cents (1280x800)", () => {
  it("shows the amount as the link carries it and step 2 refuses the cents, never rounding them away", async () => {
    const estimate = "loanAmount=12345.67&interestRate=8.5&loanTerm=60&monthlyPayment=253.29";
    const { context, page } = await openWizard({ width: 1280, height: 800 }, { path: `/apply?${estimate}` });
    try {
      const panel = page.getByRole("region", { name: "Your Calculator Estimate" });
      expect(await panel.innerText()).toContain("$12,345.67");
      const field = wizardField(page);
      await fillStep(page, PERSONAL_INFORMATION);
      await continueTo(page, "Loan Details");
      expect(await field("Loan Amount").inputValue()).toBe("12,345.67");
      await field("Loan Type").selectOption("personal");
      await field("Loan Purpose").fill("Consolidating two credit cards");
      await expectRefusal(page, field("Loan Amount"), "Please enter the loan amount in whole dollars, without cents");
    } finally {
      await context.close();
    }
  });
});
