import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { signInAdminWithMfa } from "../helpers/admins";
import { signUpOverHttp, toBrowserCookies } from "../helpers/applicants";
import { submitApplication } from "../helpers/applications";
import { makeExe, makePdf } from "../helpers/files";
import { axeViolations } from "./harness";
import { e2eStackForFile } from "./helpers/stack";
import { expectToast } from "./helpers/toasts";

/**
 * What We Need (issue 19) in a real browser on both sides, each page open and updated live by the
 * other's acts: staff Request Documents (a pay stub and a question) → the applicant's page shows them and
 * the e-mail greets them by first name, each item in plain words → a fake PDF is refused in the browser →
 * Upload two stubs into one answer → staff Reject with a reason (e-mailed too) → the applicant reads the
 * reason and uploads five files, after which the control is gone and a sixth sent anyway is refused →
 * staff Accept and see all seven files → the application is approved. The applicant also replies to the
 * question. Both pages stay axe-clean.
 */

const ADMIN = { email: "wwn.admin@example.com", password: "Adm1n!Secret" };

describe("What We Need, both sides in the browser", () => {
  const stack = e2eStackForFile({ admin: ADMIN });

  const files = fs.mkdtempSync(path.join(os.tmpdir(), "wwn-files-"));
  const file = (name: string, bytes: Buffer) => {
    const p = path.join(files, name);
    fs.writeFileSync(p, bytes);
    return p;
  };

  async function openLive(page: Page, url: string, heading: RegExp) {
    // The live stream connects after hydration: wait for it before the other side acts.
    const stream = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/events" && r.status() === 200);
    await page.goto(url);
    await page.getByRole("heading", { name: heading }).first().waitFor();
    await stream;
  }

  const itemOf = (page: Page, kind: string): Locator => page.locator(`[data-testid="request-item"][data-kind="${kind}"]`);
  let adminSecret: string | undefined;
  const expectStatus = async (item: Locator, status: string) => {
    await expect.poll(() => item.getAttribute("data-status"), { timeout: 10_000 }).toBe(status);
  };

  it("request → upload → reject with reason → upload again → accept → approve, live on both pages", async () => {
    const { server, browser, sink } = stack;
    const applicant = await signUpOverHttp(server.url, sink, "wwn.applicant@example.com", "198.18.20.1");
    const applicationId = await submitApplication(server.url, applicant);
    const signedIn = await signInAdminWithMfa(server.url, ADMIN.email, ADMIN.password, "198.18.20.2");
    adminSecret = signedIn.secret;
    const admin = signedIn.cookie;

    const applicantContext = await browser.newContext();
    await applicantContext.addCookies(toBrowserCookies(applicant, server.url));
    const mine = await applicantContext.newPage();
    const adminContext = await browser.newContext();
    await adminContext.addCookies(toBrowserCookies(admin, server.url));
    const staff = await adminContext.newPage();

    await openLive(mine, `${server.url}/dashboard/applications/${applicationId}`, /What We Need/);
    await openLive(staff, `${server.url}/admin/applications/${applicationId}`, /What We Need/);
    await mine.getByText("Nothing has been requested.").waitFor();

    // Staff: Request Documents — a pay stub with a note, and a question.
    await staff.getByRole("button", { name: "Request Documents" }).click();
    const dialog = staff.getByTestId("request-documents-dialog");
    await dialog.getByLabel("What is needed").selectOption("pay_stub");
    await dialog.getByLabel(/Note to the applicant/).fill("Your two most recent pay stubs, please.");
    await dialog.getByRole("button", { name: "Add item" }).click();
    await dialog.getByLabel("What is needed").nth(1).selectOption("question");
    await dialog.getByLabel(/Your question/).fill("How long have you lived at your current address?");
    expect(await axeViolations(staff)).toEqual([]);
    await expectToast(staff, "Documents requested", () => dialog.getByRole("button", { name: "Send Request" }).click());
    await dialog.waitFor({ state: "hidden" });

    // The applicant's open page shows both items without a reload; the e-mail names the pay stub, not the note.
    const payStub = itemOf(mine, "pay_stub");
    await payStub.waitFor({ timeout: 10_000 });
    await expectStatus(payStub, "requested");
    expect(await payStub.textContent()).toContain("Your two most recent pay stubs, please.");
    await expect.poll(() => sink.messages.some((m) => /more information/.test(m.subject)), { timeout: 15_000 }).toBe(true);
    const notice = sink.messages.find((m) => /more information/.test(m.subject));
    // By first name, each item in plain words: the question is one to answer, never a bare "Question" label.
    expect(notice?.text).toContain("Hello Jane,");
    expect(notice?.text).toContain("Pay Stub: upload a copy");
    expect(notice?.text).toContain("Answer a question from your loan specialist");
    expect(notice?.text).not.toMatch(/\bQuestion\b/);
    expect(notice?.text).not.toContain("Hello there");
    expect(notice?.text).not.toContain("most recent pay stubs");
    expect(notice?.text).not.toContain("current address");
    expect(await axeViolations(mine)).toEqual([]);

    // A fake PDF is refused in the browser before anything is sent.
    const upload = payStub.getByLabel(/Upload Pay Stub/);
    await expectToast(mine, "Upload failed", () => upload.setInputFiles(file("paystub.pdf", makeExe())), /not a complete PDF, JPG or PNG/);
    await expectStatus(payStub, "requested");

    // Upload a real one: Received (In Review) on both pages; a second stub joins the same answer.
    await expectToast(mine, "Document uploaded", () => upload.setInputFiles(file("paystub-march.pdf", makePdf(40_000))));
    await expectStatus(payStub, "received");
    const staffPayStub = itemOf(staff, "pay_stub");
    await expectStatus(staffPayStub, "received");
    await expect.poll(() => payStub.getByTestId("request-upload-hint").textContent()).toContain("(1 of 5 sent)");
    await expectToast(mine, "Document uploaded", () => payStub.getByLabel(/Add another file to Pay Stub/).setInputFiles(file("paystub-february.pdf", makePdf(41_000))));
    await expect.poll(() => staffPayStub.getByRole("button", { name: /^Download/ }).count(), { timeout: 10_000 }).toBe(2);

    // The question is answered in words.
    const question = itemOf(mine, "question");
    await question.getByLabel("Your answer").fill("Six years.");
    await expectToast(mine, "Answer sent", () => question.getByRole("button", { name: "Reply" }).click());
    await expectStatus(itemOf(staff, "question"), "received");
    expect(await itemOf(staff, "question").getByTestId("reply-text").textContent()).toBe("Six years.");

    // Staff reject the pay stub with a reason; the applicant reads it and can upload again.
    await staffPayStub.getByRole("button", { name: /^Reject/ }).click();
    await staffPayStub.getByLabel(/Reason for rejecting/).fill("The March stub is cut off at the bottom.");
    await expectToast(staff, "Item rejected", () => staffPayStub.getByRole("button", { name: /^Reject/ }).click());
    await expectStatus(payStub, "rejected");
    expect(await payStub.getByTestId("rejection-reason").textContent()).toContain("The March stub is cut off at the bottom.");
    await mine.getByText("Document Rejected").first().waitFor();
    // The rejection is e-mailed too: which document, the staff's reason, what to do; no file name.
    await expect.poll(() => sink.messages.some((m) => /could not accept your Pay Stub/.test(m.subject)), { timeout: 15_000 }).toBe(true);
    const rejection = sink.messages.find((m) => /could not accept your Pay Stub/.test(m.subject))!;
    expect(rejection.text).toContain("Hello Jane,");
    expect(rejection.text).toContain("The March stub is cut off at the bottom.");
    expect(rejection.text).toContain("Please upload a new Pay Stub on your application's page");
    expect(rejection.text).not.toContain("paystub-march");

    // The new answer takes up to 5 files: after the 5th the control is gone, and a 6th sent anyway is refused.
    await expectToast(mine, "Document uploaded", () => payStub.getByLabel(/Upload Pay Stub/).setInputFiles(file("paystub-march-full.pdf", makePdf(50_000))));
    await expectStatus(payStub, "received");
    for (let n = 2; n <= 5; n++) {
      await expect.poll(() => payStub.getByTestId("request-upload-hint").textContent()).toContain(`(${n - 1} of 5 sent)`);
      await expectToast(mine, "Document uploaded", () => payStub.getByLabel(/Add another file to Pay Stub/).setInputFiles(file(`stub-${n}.pdf`, makePdf(30_000 + n))));
    }
    await expect.poll(() => payStub.locator('[data-testid="request-upload-input"]').count()).toBe(0);
    const itemId = (await payStub.getByRole("heading").getAttribute("id"))!.replace("request-item-", "");
    const sixth = new FormData();
    sixth.set("intent", "upload");
    sixth.set("itemId", itemId);
    sixth.set("file", new Blob([new Uint8Array(makePdf(3000))], { type: "application/pdf" }), "sixth.pdf");
    const refused = await fetch(`${server.url}/dashboard/applications/${applicationId}/requests`, { method: "POST", headers: { cookie: applicant, origin: server.url }, body: sixth });
    expect(refused.status).toBe(409);
    expect(JSON.stringify(await refused.json())).toContain("This item already has 5 files, the most one answer can hold.");

    // Staff accept both answers.
    await expectStatus(staffPayStub, "received");
    await expectToast(staff, "Item accepted", () => staffPayStub.getByRole("button", { name: /^Accept/ }).click());
    await expectToast(staff, "Item accepted", () => itemOf(staff, "question").getByRole("button", { name: /^Accept/ }).click());
    await expectStatus(payStub, "accepted");
    await expectStatus(itemOf(mine, "question"), "accepted");
    // Staff see every file: the two of the rejected answer and the five of the accepted one.
    expect(await staffPayStub.getByRole("listitem").count()).toBe(7);
    expect(await staffPayStub.getByText("earlier answer").count()).toBe(2);

    // Both sides open the uploaded file through a signed link (the admin's audited, the applicant's own).
    for (const [page, item] of [
      [staff, staffPayStub],
      [mine, payStub],
    ] as const) {
      const download = page.waitForEvent("download");
      await expectToast(page, "Download Started", () => item.getByRole("button", { name: /^Download/ }).first().click());
      const file = await download;
      // The latest file of the latest answer first, under the name the applicant gave it.
      expect(file.suggestedFilename()).toBe("stub-5.pdf");
    }
    expect(await axeViolations(staff)).toEqual([]);

    // Approve through the existing admin action: the applicant's page shows the decision live.
    const approve = await fetch(`${server.url}/admin`, {
      method: "POST",
      headers: { cookie: admin, origin: server.url },
      body: new URLSearchParams({ intent: "approve", applicationId, approvedAmount: "20000", interestRate: "9.5", termMonths: "36", originationFeePercent: "1", counterofferReasons: "Insufficient income" }),
    });
    expect(approve.status).toBe(200);
    await mine.getByText("Approved").first().waitFor({ timeout: 10_000 });
    // A decided application takes no more answers: no upload control is left.
    await expect.poll(() => mine.locator('[data-testid="request-upload-input"]').count()).toBe(0);
    expect(await axeViolations(mine)).toEqual([]);

    await Promise.all([applicantContext.close(), adminContext.close()]);
  });
  it("parallel uploads over HTTP to one item: five are kept, the rest are refused (409) with the reason", async () => {
    const { server, sink } = stack;
    const applicant = await signUpOverHttp(server.url, sink, "wwn.parallel@example.com", "198.18.20.3");
    const applicationId = await submitApplication(server.url, applicant);
    // The admin enrolled a second factor in the test before: this sign-in passes it with the same secret.
    const admin = (await signInAdminWithMfa(server.url, ADMIN.email, ADMIN.password, "198.18.20.4", adminSecret)).cookie;
    const requested = await fetch(`${server.url}/admin/applications/${applicationId}/requests`, {
      method: "POST",
      headers: { cookie: admin, origin: server.url },
      body: new URLSearchParams({ intent: "request", kind: "bank_statement", note: "", dueDate: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10) }),
    });
    expect(requested.status).toBe(200);
    // The item's id, from the applicant's page.
    const html = await (await fetch(`${server.url}/dashboard/applications/${applicationId}`, { headers: { cookie: applicant } })).text();
    const itemId = /id="request-item-([0-9a-f-]{36})"/.exec(html)?.[1];
    expect(itemId).toBeTruthy();
    const upload = (n: number) => {
      const form = new FormData();
      form.set("intent", "upload");
      form.set("itemId", itemId!);
      form.set("file", new Blob([new Uint8Array(makePdf(2000 + n))], { type: "application/pdf" }), `statement-${n}.pdf`);
      return fetch(`${server.url}/dashboard/applications/${applicationId}/requests`, { method: "POST", headers: { cookie: applicant, origin: server.url }, body: form });
    };
    const answers = await Promise.all(Array.from({ length: 8 }, (_, n) => upload(n)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 409, 409, 409]);
    for (const refused of answers.filter((r) => r.status === 409)) {
      expect(JSON.stringify(await refused.json())).toContain("This item already has 5 files, the most one answer can hold.");
    }
    const after = await (await fetch(`${server.url}/dashboard/applications/${applicationId}`, { headers: { cookie: applicant } })).text();
    // The page lists the five kept files under the names the applicant gave them.
    expect(new Set(after.match(/statement-\d\.pdf/g))).toHaveProperty("size", 5);
  });
});
