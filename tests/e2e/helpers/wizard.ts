import type { Locator, Page } from "playwright-core";
import { escapeRegExp } from "./toasts";

/**
 * The application wizard (/apply) as the browser suites fill it: its controls by label, the values a
 * story types into each step (one applicant, a Delaware resident born 12 April 1988, asking for a
 * personal loan), the document slots, the step change and the drawn signature. A story that needs
 * other values spreads these and overrides the labels it changes.
 */

/** A control by its label, which may end with a required mark or '(optional)'. */
export const wizardField =
  (page: Page) =>
  (label: string): Locator =>
    page.getByLabel(new RegExp(`^\\s*${escapeRegExp(label)}\\s*(\\*|\\(optional\\))?\\s*$`));

/** An option to choose in a select (anything else is typed into the control). */
export type Choice = { select: string };
export const choose = (value: string): Choice => ({ select: value });

/** Values by control label, filled in this order. */
export type StepValues = Record<string, string | Choice>;

export async function fillStep(page: Page, values: StepValues): Promise<void> {
  const field = wizardField(page);
  for (const [label, value] of Object.entries(values)) {
    if (typeof value === "string") await field(label).fill(value);
    else await field(label).selectOption(value.select);
  }
}

export const BIRTH_DATE = { Month: choose("04"), Day: choose("12"), Year: choose("1988") } satisfies StepValues;
export const STREET_ADDRESS = { "Address Line 1": "12 Market Street", City: "Wilmington", State: choose("DE") } satisfies StepValues;
export const HOME_ADDRESS = { ...STREET_ADDRESS, "ZIP Code": "19801" } satisfies StepValues;

/** Step 1, Personal Information. */
export const PERSONAL_INFORMATION = {
  "First Name": "Jane",
  "Last Name": "Doe",
  ...BIRTH_DATE,
  "Social Security Number": "123-45-6789",
  Phone: "3025550199",
  ...HOME_ADDRESS,
} satisfies StepValues;

/** Step 2, Loan Details: $25,000 at 9.5 % for 36 months. */
export const LOAN_DETAILS = {
  "Loan Type": choose("personal"),
  "Loan Amount": "25000",
  "Desired Interest Rate": "9.5",
  "Loan Duration": choose("36"),
  "Loan Purpose": "Consolidating two credit cards into one payment",
} satisfies StepValues;

/** Step 3, Financial Information, for a retired applicant (no employer asked). */
export const RETIRED = { "Employment Status": choose("retired"), "Monthly Income": "4000" } satisfies StepValues;

/** Step 4's bank fields (the account type left at its default, checking). */
export const BANK_ACCOUNT = {
  "Account Holder Name": "Jane Doe",
  "Bank Name": "First Bank",
  "Account Number": "000123456789",
  "Routing Number": "021000021",
} satisfies StepValues;

/** Step 4's required document slots, in the order the page shows them. */
export const REQUIRED_DOCUMENTS = [
  "ID Card (Front)",
  "ID Card (Back)",
  "Bank Statement (Month 1)",
  "Bank Statement (Month 2)",
  "Bank Statement (Month 3)",
  "Utility Bill",
] as const;

/** Chooses `fileFor(label)` in each slot, and waits for each slot's "uploaded successfully" toast. */
export async function uploadDocuments(page: Page, labels: readonly string[], fileFor: (label: string) => string): Promise<void> {
  const field = wizardField(page);
  for (const label of labels) {
    await field(label).setInputFiles(fileFor(label));
    await page.locator("[data-sonner-toast]").filter({ hasText: `${label} uploaded successfully!` }).waitFor();
  }
}

export const continueButton = (page: Page) => page.getByRole("button", { name: "Continue", exact: true });
export const stepHeading = (page: Page, name: string) => page.getByRole("heading", { level: 2, name }).waitFor();

/** Continue, then wait for the next step's heading. */
export async function continueTo(page: Page, heading: string): Promise<void> {
  await continueButton(page).click();
  await stepHeading(page, heading);
}

/** Signs on step 5 by drawing a wave across the signature pad. */
export async function drawSignature(page: Page): Promise<void> {
  const canvas = page.getByRole("img", { name: "Signature" });
  await canvas.scrollIntoViewIfNeeded();
  const box = (await canvas.boundingBox())!;
  const at = (i: number) => [box.x + box.width * (0.1 + (0.8 * i) / 12), box.y + box.height * (0.7 - 0.4 * Math.abs(Math.sin(i / 2)))] as const;
  await page.mouse.move(...at(0));
  await page.mouse.down();
  for (let i = 1; i <= 12; i++) await page.mouse.move(...at(i));
  await page.mouse.up();
  await page.getByText("Signature captured.").waitFor();
}

/** Agrees to the terms, submits, and waits for the confirmation. */
export async function agreeAndSubmit(page: Page, confirmation: { timeout?: number } = {}): Promise<void> {
  await page.getByRole("checkbox", { name: /I agree to the Terms of Service/ }).check();
  await page.getByRole("button", { name: "Submit Application" }).click();
  await page.getByRole("heading", { level: 2, name: "Application Submitted Successfully!" }).waitFor(confirmation);
}
