import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { signUpOverHttp } from "../helpers/applicants";
import { postApplication } from "../helpers/applications";
import { signInAdminWithMfa } from "../helpers/admins";
import type { ReceivedMail } from "../helpers/smtp-sink";
import { waitForHydration } from "./harness";
import { e2eStackForFile } from "./helpers/stack";

/**
 * Stored text with HTML and script in it (issue #9): a testimonial, a contact message, an account
 * name, an application's employer, purpose and bank, an admin's denial reason and note. Every page
 * that shows them is opened in Chromium: nothing runs (no `window.__pwned`, no dialog) and the text is
 * visible as typed. Every e-mail carrying them has it escaped in its HTML part and verbatim in its
 * text part.
 */

const ADMIN = { email: "hilda.hostile@example.com", password: "H0stile!Secret" };
const APPLICANT_EMAIL = "xss.applicant@example.com";
const LENDER = "lender.xss@example.com";

/** Each payload ends in a tag, so each field's text can be found on the page. */
const script = (tag: string) => `<script>window.__pwned=1</script>${tag}`;
const img = (tag: string) => `<img src=x onerror="window.__pwned=1;alert(1)">${tag}`;
const svg = (tag: string) => `"><svg onload="window.__pwned=1;alert(1)">${tag}`;

const P = {
  account: svg("Acct-name-q1"),
  employer: img("Employer-q2"),
  purpose: `${script("Purpose-q3")} and more words`,
  bank: svg("Bank-q4"),
  holder: script("Holder-q5"),
  jobTitle: img("Title-q6"),
  denial: img("Denial-q7"),
  note: script("Note-q8"),
  tFullName: img("TFull-q9"),
  tDisplay: svg("TShown-q10"),
  tRole: script("TRole-q11"),
  tLocation: img("TPlace-q12"),
  tContent: `${svg("TBody-q13")} ${script("TBody2-q13")}`,
  cName: img("CName-q14"),
  cSubject: svg("CSubj-q15"),
  cMessage: `${script("CMsg-q16")}\n${img("CMsg2-q16")}`,
};

const stack = e2eStackForFile({ admin: ADMIN, env: { LENDER_NOTIFY_EMAIL: LENDER, MAIL_RETRY_BASE_MS: "200" } });
let adminCookie: string;
let applicantCookie: string;
let applicantId: string;
let deniedId: string;

const submitApplication = (fields: Record<string, string>) => postApplication(stack.server.url, applicantCookie, { fields });

const post = (path: string, cookie: string, body: URLSearchParams) =>
  fetch(`${stack.server.url}${path}`, { method: "POST", headers: { cookie, origin: stack.server.url, "x-forwarded-for": "198.18.40.9" }, body, redirect: "manual" });

function cookiesOf(header: string) {
  return header.split("; ").map((pair) => {
    const at = pair.indexOf("=");
    return { name: pair.slice(0, at), value: pair.slice(at + 1), url: stack.server.url };
  });
}

/**
 * Opens `path` as the holder of `cookie`, runs `act` (opening dialogs, say), then checks that no
 * script ran and every expected text is on screen as text.
 */
async function visit(cookie: string, path: string, expected: string[], act?: (page: Page) => Promise<void>) {
  const context = await stack.browser.newContext({ viewport: { width: 1280, height: 900 } });
  if (cookie) await context.addCookies(cookiesOf(cookie));
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  try {
    const res = await page.goto(`${stack.server.url}${path}`);
    expect(res?.status(), path).toBe(200);
    await page.waitForLoadState("networkidle").catch(() => undefined);
    // Buttons work only once React has hydrated (scripts load after the first paint).
    if (act) await waitForHydration(page);
    await act?.(page);
    const shown = (await page.locator("body").innerText()).replace(/\s+/g, " ");
    for (const text of expected) expect(shown, `${path} shows ${JSON.stringify(text)}`).toContain(asShown(text));
    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), path).toBeUndefined();
    // No element a payload would have created.
    expect(await page.locator('img[src="x"], svg[onload], script:text("__pwned")').count(), path).toBe(0);
    expect(dialogs, path).toEqual([]);
  } finally {
    await context.close();
  }
}

/** Text as typed, white space collapsed (pages show a message's line breaks as breaks). */
const asShown = (value: string) => value.replace(/\s+/g, " ");

function mailsWith(marker: string): ReceivedMail[] {
  return stack.sink.messages.filter((m) => m.text.includes(marker));
}

beforeAll(async () => {
  adminCookie = (await signInAdminWithMfa(stack.server.url, ADMIN.email, ADMIN.password, "198.18.40.1")).cookie;
  applicantCookie = await signUpOverHttp(stack.server.url, stack.sink, APPLICANT_EMAIL, "198.18.40.2", P.account);
}, 180_000);

describe("stored HTML and script are shown as text", () => {
  it("refuses markup in the applicant's first and last name with the spec's message", async () => {
    for (const field of ["firstName", "lastName"]) {
      const res = await submitApplication({ [field]: "<script>window.__pwned=1</script>" });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ ok: false, step: 1, field, message: "Names can only contain letters, spaces, and hyphens" });
    }
  });

  it("stores the payloads through every form that takes free text", async () => {
    const app = await submitApplication({
      employerName: P.employer,
      jobTitle: P.jobTitle,
      loanPurpose: P.purpose,
      bankName: P.bank,
      accountHolderName: P.holder,
    });
    expect(app.status, JSON.stringify(app.body)).toBe(201);
    deniedId = String(app.body.applicationId);
    const other = await submitApplication({ employerName: P.employer, loanPurpose: P.purpose });
    expect(other.status).toBe(201);

    const testimonial = await post(
      "/testimonials",
      applicantCookie,
      new URLSearchParams({ rating: "5", fullName: P.tFullName, displayName: P.tDisplay, role: P.tRole, location: P.tLocation, content: P.tContent }),
    );
    expect(testimonial.status).toBe(200);

    const contact = await post(
      "/contact",
      "",
      new URLSearchParams({ name: P.cName, email: "hostile.contact@example.com", phone: "", subject: P.cSubject, message: P.cMessage }),
    );
    expect(contact.status).toBe(200);

    const denied = await post(
      "/admin",
      adminCookie,
      new URLSearchParams([["intent", "deny"], ["applicationId", deniedId], ["reasons", "Credit history"], ["otherReason", P.denial]]),
    );
    expect(denied.status).toBeLessThan(400);
    const noted = await post("/admin", adminCookie, new URLSearchParams({ intent: "note", applicationId: deniedId, note: P.note }));
    expect(noted.status).toBeLessThan(400);

    const html = await (await fetch(`${stack.server.url}/admin/clients`, { headers: { cookie: adminCookie } })).text();
    applicantId = /client=([A-Za-z0-9_-]+)/.exec(html)?.[1] ?? "";
    expect(applicantId).not.toBe("");
  }, 120_000);

  it("the admin's pending testimonial card, then the public /testimonials after approval", async () => {
    const testimonialText = [P.tFullName, P.tDisplay, P.tRole, P.tLocation, P.tContent].map(asShown);
    await visit(adminCookie, "/admin/testimonials", testimonialText);
    await visit(adminCookie, "/admin/testimonials", [], async (page) => {
      const card = page.getByTestId("pending-testimonial").filter({ hasText: "TShown-q10" });
      expect(await card.count()).toBe(1);
      await card.getByRole("button", { name: /^Approve/ }).click();
      await page.locator("[data-sonner-toast]").filter({ hasText: "Testimonial Approved" }).waitFor();
    });
    await visit("", "/testimonials", [P.tDisplay, P.tRole, P.tLocation, P.tContent].map(asShown));
  }, 120_000);

  it("the applicant's dashboard, with the details dialog open", async () => {
    await visit(applicantCookie, "/dashboard", [asShown(P.purpose)], async (page) => {
      const item = page.locator(`[data-testid="application"][data-application-id="${deniedId}"]`);
      await item.getByRole("button", { name: /^View Details/ }).click();
      const dialog = page.getByRole("dialog", { name: "Application Details" });
      await dialog.waitFor();
      expect((await dialog.innerText()).replace(/\s+/g, " ")).toContain(asShown(P.purpose));
    });
  }, 60_000);

  it("the admin review screen (pending and denied tabs, the deny dialog)", async () => {
    await visit(adminCookie, "/admin", [asShown(P.purpose), P.account], async (page) => {
      const pending = page.locator('[data-testid="application-card"]').first();
      await pending.getByRole("button", { name: /^Deny/ }).click();
      const dialog = page.getByRole("dialog", { name: "Deny Application" });
      await dialog.waitFor();
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
    });
    await visit(adminCookie, "/admin?status=denied", [asShown(P.purpose), P.account, P.note, P.denial]);
  }, 60_000);

  it("the staff application page (issue 19): every field, the note and the reasons, and its timeline", async () => {
    await visit(adminCookie, `/admin/applications/${deniedId}`, [asShown(P.purpose), P.account, P.employer, P.jobTitle, P.bank, P.holder, P.note, P.denial]);
  }, 60_000);

  it("the client list and detail, the document viewer, the inbox and monitoring", async () => {
    await visit(adminCookie, "/admin/clients", [P.account]);
    await visit(adminCookie, `/admin/clients?client=${applicantId}`, [P.account, P.bank, P.holder]);
    await visit(adminCookie, "/admin/documents", [P.account]);
    await visit(adminCookie, "/admin/messages", [P.cName, P.cSubject, asShown(P.cMessage)]);
    await visit(adminCookie, "/admin/monitoring", []);
  }, 120_000);

  it("e-mails carry the payloads escaped in HTML and verbatim in plain text", async () => {
    const expectations: [string, string[]][] = [
      ["Purpose-q3", [P.purpose]], // the lender's new-application notice
      ["CMsg-q16", [P.cName, P.cSubject, P.cMessage]], // the contact message to the lender
      ["Denial-q7", [P.denial]], // the applicant's notice of action taken
    ];
    for (const [marker, payloads] of expectations) {
      await expect.poll(() => mailsWith(marker).length, { timeout: 30_000 }).toBeGreaterThan(0);
      for (const mail of mailsWith(marker)) {
        expect(mail.html, mail.subject).toBeDefined();
        const htmlPart = mail.html!;
        // Line by line: the text part quotes a message's lines ('> ').
        for (const line of payloads.flatMap((p) => p.split("\n"))) expect(mail.text, mail.subject).toContain(line);
        expect(htmlPart).not.toMatch(/<script>window|<img src=x|<svg onload/i);
        expect(htmlPart).toMatch(/&lt;(script|img|svg)/);
        expect(mail.subject).not.toMatch(/[\r\n]/);
      }
    }
    // No e-mail anywhere carries a live tag from a payload.
    for (const mail of stack.sink.messages) expect(mail.html ?? "").not.toMatch(/<script>window|onerror="window|<svg onload/i);
  }, 60_000);
});
