import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInOverHttp } from "../helpers/admins";
import { signUpOverHttp, toBrowserCookies } from "../helpers/applicants";
import { makePdf, makePng } from "../helpers/files";
import { axeViolations, gotoHydrated, testSecrets } from "./harness";
import { openWatchedPage } from "./helpers/pages";
import { e2eStackForFile } from "./helpers/stack";
import {
  agreeAndSubmit,
  BANK_ACCOUNT,
  choose,
  continueButton,
  continueTo,
  drawSignature,
  fillStep,
  LOAN_DETAILS,
  PERSONAL_INFORMATION,
  REQUIRED_DOCUMENTS,
  stepHeading,
  uploadDocuments,
  wizardField,
} from "./helpers/wizard";

/**
 * Save and Finish Later in real browsers against the built server (issue 23): the applicant fills
 * steps 1-3 and uploads one document in browser A, saves and lands on the dashboard; browser B (a new
 * context, signed in afresh, nothing in its storage) shows Continue Your Application with the step,
 * resumes on step 4 with the values, the document and the SSN and bank numbers masked, finishes and
 * submits; the draft is gone afterwards. The pages are axe-clean.
 */

const PASSWORD = "Str0ng!Passw0rd";
const stack = e2eStackForFile({ firstIp: 160, env: { ...testSecrets(), TRUST_PROXY: "true" } });
let tmp: string;
const file = (name: string) => path.join(tmp, name);

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "drafts-e2e-"));
  fs.writeFileSync(file("id.png"), makePng(24, 16));
  fs.writeFileSync(file("doc.pdf"), makePdf(2048));
  // Past the server's 1 MB ceiling for ordinary bodies: the draft route streams uploads under its own limits.
  fs.writeFileSync(file("id-scan.pdf"), makePdf(2 * 1024 * 1024));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const cookiePair = (raw: string, url: string) => {
  const [pair] = toBrowserCookies(raw, url);
  if (!pair?.value) throw new Error("no session cookie");
  return { name: pair.name, value: pair.value, url };
};
const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text }).first().waitFor();

/** Whether the server keeps a draft for this session's applicant (the dashboard's card, read over HTTP). */
async function hasDraft(cookie: string): Promise<boolean> {
  const html = await (await fetch(`${stack.server.url}/dashboard`, { headers: { cookie } })).text();
  return html.includes('data-testid="draft"');
}

describe("Save and Finish Later", () => {
  it("saves in one browser and resumes, finishes and submits in another", async () => {
    const { server, sink, browser } = stack;
    const email = "sam.saver@example.com";
    const raw = await signUpOverHttp(server.url, sink, email, stack.nextIp(), "Sam Saver", PASSWORD);

    // Browser A: steps 1-3, one document on step 4, Save and Finish Later.
    const a = await openWatchedPage(browser, { cookies: [cookiePair(raw, server.url)] });
    const pageA = a.page;
    const fieldA = wizardField(pageA);
    await gotoHydrated(pageA, `${server.url}/apply`);
    await stepHeading(pageA, "Personal Information");
    await fillStep(pageA, { ...PERSONAL_INFORMATION, "First Name": "Sam", "Last Name": "Saver" });
    await continueTo(pageA, "Loan Details");
    await fillStep(pageA, LOAN_DETAILS);
    await continueTo(pageA, "Financial Information");
    await fillStep(pageA, { "Employment Status": choose("full-time"), "Employer Name": "Acme Corp", "Monthly Income": "8500" });
    await continueTo(pageA, "Documents & Bank Information");
    await fieldA("ID Card (Front)").setInputFiles(file("id-scan.pdf"));
    await toast(pageA, "ID Card (Front) uploaded successfully!");
    expect(await axeViolations(pageA)).toEqual([]);
    await pageA.getByRole("button", { name: "Save and Finish Later" }).click();
    await pageA.waitForURL(`${server.url}/dashboard`);
    await toast(pageA, "Your application has been saved");
    await pageA.getByRole("link", { name: /Continue Your Application/ }).waitFor();
    expect(a.errors).toEqual([]);
    await a.context.close();
    expect(await hasDraft(raw.split(";")[0]!)).toBe(true);

    // Browser B: a new context, signed in afresh, nothing in its storage.
    const freshCookie = await signInOverHttp(server.url, email, PASSWORD, stack.nextIp());
    const b = await openWatchedPage(browser, { cookies: [cookiePair(freshCookie, server.url)] });
    const pageB = b.page;
    const fieldB = wizardField(pageB);
    await gotoHydrated(pageB, `${server.url}/dashboard`);
    const card = pageB.getByTestId("draft");
    await card.getByText("Step 4 of 5").waitFor();
    expect(await card.innerText()).toMatch(/Personal Loan[\s\S]*Documents[\s\S]*Kept until/);
    expect(await axeViolations(pageB)).toEqual([]);
    await card.getByRole("link", { name: /Continue Your Application/ }).click();
    await stepHeading(pageB, "Documents & Bank Information");
    // The document kept with the draft, the SSN kept but never shown in full.
    await pageB.locator('[data-field-group="idCardFront"]').getByText("id-scan.pdf").waitFor();
    expect(await pageB.content()).not.toContain("123-45-6789");
    expect(await axeViolations(pageB)).toEqual([]);
    await pageB.getByRole("button", { name: "Back", exact: true }).click();
    await stepHeading(pageB, "Financial Information");
    expect(await fieldB("Employer Name").inputValue()).toBe("Acme Corp");
    await pageB.getByRole("button", { name: "Back", exact: true }).click();
    await pageB.getByRole("button", { name: "Back", exact: true }).click();
    await stepHeading(pageB, "Personal Information");
    expect(await fieldB("First Name").inputValue()).toBe("Sam");
    expect(await fieldB("Social Security Number").inputValue()).toBe("");
    await pageB.getByText("Saved as •••••6789. Leave it blank to keep it").waitFor();
    for (let i = 0; i < 3; i++) await continueButton(pageB).click();
    await stepHeading(pageB, "Documents & Bank Information");

    await uploadDocuments(pageB, REQUIRED_DOCUMENTS.slice(1), (label) => file(label.startsWith("ID") ? "id.png" : "doc.pdf"));
    await fillStep(pageB, { ...BANK_ACCOUNT, "Account Holder Name": "Sam Saver" });
    await continueTo(pageB, "Review & Submit");
    expect(await pageB.locator("main").innerText()).toContain("***-**-6789");
    await drawSignature(pageB);
    await agreeAndSubmit(pageB);

    // The draft became the application: nothing left to discard, and no card on the dashboard.
    const cookieB = `${cookiePair(freshCookie, server.url).name}=${cookiePair(freshCookie, server.url).value}`;
    expect(await hasDraft(cookieB)).toBe(false);
    const discard = new FormData();
    discard.append("intent", "discard");
    discard.append("loanType", "personal");
    expect((await fetch(`${server.url}/api/drafts`, { method: "POST", body: discard, headers: { cookie: cookieB, origin: server.url } })).status).toBe(404);
    await gotoHydrated(pageB, `${server.url}/dashboard`);
    await pageB.getByTestId("application").first().waitFor();
    expect(await pageB.getByTestId("draft").count()).toBe(0);
    expect(b.errors).toEqual([]);
    await b.context.close();
  });

  it("discards a saved application from the dashboard after asking once more (Keep It keeps it)", async () => {
    const { server, sink, browser } = stack;
    const raw = await signUpOverHttp(server.url, sink, "dee.discard@example.com", stack.nextIp(), "Dee Discard", PASSWORD);
    const pair = cookiePair(raw, server.url);
    const cookie = `${pair.name}=${pair.value}`;
    const save = new FormData();
    for (const [k, v] of Object.entries({ intent: "save", step: "2", loanType: "business", firstName: "Dee" })) save.append(k, v);
    expect((await fetch(`${server.url}/api/drafts`, { method: "POST", body: save, headers: { cookie, origin: server.url } })).status).toBe(200);

    const { context, page, errors } = await openWatchedPage(browser, { cookies: [pair] });
    await gotoHydrated(page, `${server.url}/dashboard`);
    const card = page.getByTestId("draft");
    await card.waitFor();
    const discard = page.getByRole("button", { name: "Discard the saved Business Loan application" });
    await discard.click();
    await page.getByText("Discard this saved application and its documents?").waitFor();
    // The question takes the focus, and is axe-clean while open.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toContain("Yes, Discard");
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Keep It" }).click();
    await discard.waitFor();
    expect(await hasDraft(cookie)).toBe(true);

    await discard.click();
    await page.getByRole("button", { name: "Yes, Discard" }).click();
    await toast(page, "Your saved application was discarded.");
    await expect.poll(() => card.count()).toBe(0);
    expect(await hasDraft(cookie)).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });
});
