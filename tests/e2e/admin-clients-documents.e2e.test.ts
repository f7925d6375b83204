import { randomUUID } from "node:crypto";
import fs from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { signInAdminWithMfa } from "../helpers/admins";
import { submitApplication } from "../helpers/applications";
import { axeViolations, gotoHydrated } from "./harness";
import type { WatchedPage } from "./helpers/pages";
import { e2eStackForFile } from "./helpers/stack";

/**
 * /admin/clients and /admin/documents in a real browser against the built server (docs/requirements.md §3,
 * §6, §8, §9, §10): an applicant submits an application over HTTP; the admin (signed in, second factor
 * passed) finds them by part of the e-mail in another case, sees the masked account number, shows it,
 * reveals the SSN; previews an image and a PDF, downloads a file; tampered, foreign and expired-shape
 * links are refused; applicants and visitors get no admin link or value; axe on both pages.
 */

const ADMIN = { email: "dora.admin@example.com", password: "Adm1n!Docs#Pass" };
const APPLICANT = { email: "jane.applicant@example.com", name: "Jane Applicant", password: "Str0ng!Passw0rd" };

const stack = e2eStackForFile({ firstIp: 10, admin: ADMIN });
let adminCookie: string;
let applicantCookie: string;
let applicantId: string;
let applicationId: string;

/** A one-page PDF the browser's viewer can render (the shared fixture's PDF has no pages). */
const ONE_PAGE_PDF = Buffer.from(
  [
    "%PDF-1.4",
    "1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj",
    "2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj",
    "3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 300 200]/Contents 4 0 R/Resources<</Font<</F1 5 0 R>>>>>>endobj",
    "4 0 obj<</Length 44>>stream",
    "BT /F1 24 Tf 20 100 Td (HELLO PDF) Tj ET",
    "endstream endobj",
    "5 0 obj<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>endobj",
    "trailer<</Root 1 0 R>>",
    "%%EOF",
    "",
  ].join("\n"),
  "latin1",
);

/** The applicant's application, with a utility bill the browser's PDF viewer can show. */
function submitApplicationWithViewablePdf(cookie: string): Promise<string> {
  return submitApplication(stack.server.url, cookie, { files: { utilityBill: { bytes: ONE_PAGE_PDF, name: "bill.pdf", type: "application/pdf" } }, ip: stack.nextIp() });
}

/** Runs `run` on a page signed in as the admin (1280 wide unless told) that accepts downloads, closed afterwards. */
const withAdminPage = <T>(run: (watched: WatchedPage) => Promise<T>, { width = 1280 } = {}) =>
  stack.withPage(adminCookie, { width, acceptDownloads: true }, run);

beforeAll(async () => {
  applicantCookie = await stack.signUp(APPLICANT.email, APPLICANT.name, APPLICANT.password);
  applicationId = await submitApplicationWithViewablePdf(applicantCookie);
  adminCookie = (await signInAdminWithMfa(stack.server.url, ADMIN.email, ADMIN.password, stack.nextIp())).cookie;
});

const get = (path: string, cookie?: string) => fetch(`${stack.server.url}${path}`, { headers: cookie ? { cookie } : {}, redirect: "manual" });

describe("admin clients and documents", () => {
  it("finds the client by the start of the e-mail in another case, shows masked numbers, reveals one value at a time (axe-clean)", () =>
    withAdminPage(async ({ page, errors }) => {
      await gotoHydrated(page, `${stack.server.url}/admin/clients`);
      await page.getByRole("heading", { level: 1, name: "Client Information" }).waitFor();
      await page.getByLabel("Search by name or e-mail").fill("JANE.APPLICANT@EXAMPLE");
      await page.getByRole("button", { name: "Search clients" }).click();
      await page.waitForURL(/\?q=JANE\.APPLICANT%40EXAMPLE/);
      const links = page.getByTestId("client-link");
      await expect.poll(() => links.count()).toBe(1);
      expect(await links.first().textContent()).toContain(APPLICANT.email);
      await links.first().click();
      await page.waitForURL(/client=/);
      applicantId = new URL(page.url()).searchParams.get("client")!;
      const detail = page.getByTestId("client-detail");
      await detail.getByRole("heading", { level: 2, name: APPLICANT.name }).waitFor();

      // Masked from the stored last 4 / last 2; the full numbers are nowhere in the page.
      const accountNumber = detail.getByTestId("account-number");
      expect(await accountNumber.textContent()).toBe("••••••6789");
      expect(await detail.getByTestId("routing-number").textContent()).toBe("•••••••21");
      const html = await page.content();
      expect(html).not.toContain("000123456789");
      expect(html).not.toContain("123-45-6789");
      expect(html).not.toContain("enc:v");

      const revealCalls: string[] = [];
      page.on("request", (request) => {
        if (request.url().endsWith("/api/admin/reveal")) revealCalls.push(request.postData() ?? "");
      });
      await detail.getByRole("button", { name: /^Show account number/ }).click();
      await expect.poll(() => accountNumber.textContent()).toBe("000123456789");
      expect(await detail.getByTestId("routing-number").textContent()).toBe("•••••••21");
      expect(revealCalls).toHaveLength(1);
      expect(JSON.parse(revealCalls[0]!)).toMatchObject({ kind: "account_number" });
      expect(page.url()).not.toContain("000123456789");
      await detail.getByRole("button", { name: /^Hide account number/ }).click();
      expect(await accountNumber.textContent()).toBe("••••••6789");

      const ssn = detail.getByTestId("ssn-value");
      expect(await ssn.textContent()).toBe("•••-••-••••");
      await detail.getByRole("button", { name: /^Reveal SSN/ }).click();
      await page.getByText("SSN Revealed").waitFor();
      await page.getByText("This access has been recorded in the audit log.").waitFor();
      await expect.poll(() => ssn.textContent()).toBe("123-45-6789");

      // Documents of the client are listed with type, size and date, and a link to the viewer.
      expect(await detail.getByTestId("client-document").count()).toBe(7);
      expect(await detail.getByRole("link", { name: "View All Documents" }).getAttribute("href")).toBe(`/admin/documents?client=${applicantId}`);

      expect(await axeViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    }));

  it("finds the client by the last 4 digits of the SSN or account and by the start of an application id", () =>
    withAdminPage(async ({ page, errors }) => {
      await gotoHydrated(page, `${stack.server.url}/admin/clients`);
      await page.getByText("Also finds a phone number, the start of an application id, or the last 4 digits of an SSN or bank account.").waitFor();
      const search = async (q: string) => {
        await page.getByLabel("Search by name or e-mail").fill(q);
        await page.getByRole("button", { name: "Search clients" }).click();
        await page.waitForURL((url) => url.searchParams.get("q") === q);
      };
      const links = page.getByTestId("client-link");
      await search("6789");
      await expect.poll(() => links.count()).toBe(1);
      expect(await links.first().textContent()).toContain(APPLICANT.email);
      await page.getByText('1 client matching "6789"').waitFor();
      await search("0000");
      await page.getByText('No clients match "0000".').waitFor();
      await search(applicationId.slice(0, 13).toUpperCase());
      await expect.poll(() => links.count()).toBe(1);
      expect(await links.first().textContent()).toContain(APPLICANT.email);
      expect(await axeViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    }));

  it("previews an image and a PDF, downloads a file (axe-clean with the preview open); altered links get 403", () =>
    withAdminPage(async ({ page, errors }) => {
      await gotoHydrated(page, `${stack.server.url}/admin/clients?client=${applicantId}`);
      await page.getByRole("link", { name: "View All Documents" }).click();
      await page.waitForURL(/\/admin\/documents\?client=/);
      await page.getByRole("heading", { level: 1, name: "Document Viewer" }).waitFor();
      expect(await page.getByTestId("document-row").count()).toBe(7);

      // Image preview.
      const imageResponse = page.waitForResponse((r) => r.url().includes("/api/documents/file") && r.url().includes("disposition=inline"));
      await page.getByRole("button", { name: `Preview ID Card (Back) of ${APPLICANT.name}` }).click();
      const dialog = page.getByRole("dialog", { name: "Document Preview" });
      await dialog.waitFor();
      await page.getByText("Secure Access Generated").waitFor();
      await page.getByText("Preview expires in 60 seconds").waitFor();
      const imgRes = await imageResponse;
      expect(imgRes.status()).toBe(200);
      const imgHeaders = await imgRes.allHeaders();
      expect(imgHeaders["content-type"]).toBe("image/png");
      expect(imgHeaders["cache-control"]).toBe("no-store, private");
      expect(imgHeaders["x-frame-options"]).toBe("SAMEORIGIN");
      expect(imgHeaders["x-content-type-options"]).toBe("nosniff");
      expect(imgHeaders["content-security-policy"]).toContain("frame-ancestors 'self'");
      expect(imgHeaders["content-security-policy"]).not.toContain("frame-ancestors 'none'");
      const img = dialog.getByTestId("preview-image");
      await img.waitFor({ state: "visible" });
      await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
      for (const text of [APPLICANT.name, "ID Card (Back)", "Link Expires"]) expect(await dialog.textContent()).toContain(text);
      expect(await axeViolations(page)).toEqual([]);
      await dialog.getByRole("button", { name: "Close" }).first().click();
      await dialog.waitFor({ state: "hidden" });

      // PDF preview, in a frame the browser is allowed to show.
      const pdfResponse = page.waitForResponse((r) => r.url().includes("/api/documents/file") && r.url().includes("disposition=inline"));
      await page.getByRole("button", { name: `Preview Utility Bill of ${APPLICANT.name}` }).click();
      await dialog.waitFor();
      const frame = dialog.getByTestId("preview-frame");
      await frame.waitFor({ state: "visible" });
      const pdfRes = await pdfResponse;
      expect(pdfRes.status()).toBe(200);
      expect((await pdfRes.allHeaders())["content-type"]).toBe("application/pdf");
      expect((await pdfRes.allHeaders())["content-disposition"]).toMatch(/^inline; filename="bill\.pdf"/);
      const linkUrl = pdfRes.url();
      // Framing allowed (no chrome-error page) and the browser's PDF viewer took over the frame.
      await expect.poll(() => page.frames().some((f) => f.url().startsWith("chrome-extension://"))).toBe(true);
      expect(page.frames().some((f) => f.url().startsWith("chrome-error://"))).toBe(false);
      await dialog.getByRole("button", { name: "Close" }).first().click();
      await dialog.waitFor({ state: "hidden" });

      // Download: attachment, the name the borrower gave the file (a download fires no page response: read its URL).
      const download = page.waitForEvent("download");
      await page.getByRole("button", { name: `Download Bank Statement (Month 1) of ${APPLICANT.name}` }).click();
      const dl = await download;
      expect(dl.suggestedFilename()).toBe("jan.pdf");
      await page.getByText("Download Started").waitFor();
      const downloaded = await dl.path();
      expect(fs.readFileSync(downloaded).subarray(0, 5).toString("latin1")).toBe("%PDF-");

      // The same link, fetched by the admin: fine untouched, 403 when altered in any part.
      const attachmentUrl = new URL(dl.url());
      expect(attachmentUrl.searchParams.get("disposition")).toBe("attachment");
      const path = `${attachmentUrl.pathname}${attachmentUrl.search}`;
      const again = await get(path, adminCookie);
      expect(again.status).toBe(200);
      expect(again.headers.get("content-disposition")).toMatch(/^attachment; filename="jan\.pdf"/);
      expect(again.headers.get("cache-control")).toBe("no-store, private");
      await again.arrayBuffer();
      const tampered = [
        path.replace("disposition=attachment", "disposition=inline"),
        path.replace(/exp=(\d+)/, (_, exp: string) => `exp=${Number(exp) + 3600}`),
        path.replace(/sig=([^&])/, (_, c: string) => `sig=${c === "A" ? "B" : "A"}`),
        path.replace(/d=[^&]+/, `d=${new URL(linkUrl).searchParams.get("d")}`),
      ];
      for (const t of tampered) expect((await get(t, adminCookie)).status, t).toBe(403);

      // No admin link works for an applicant or a visitor.
      const asApplicant = await get(path, applicantCookie);
      expect(asApplicant.status).toBe(302);
      expect(asApplicant.headers.get("location")).toBe("/");
      expect((await get(path)).headers.get("location")).toMatch(/^\/auth\?redirectTo=/);

      expect(errors).toEqual([]);
    }));

  it("keeps reveals and links for admins: an applicant gets 403 JSON and no admin page", async () => {
    const reveal = await fetch(`${stack.server.url}/api/admin/reveal`, {
      method: "POST",
      body: JSON.stringify({ kind: "ssn", id: randomUUID() }),
      headers: { cookie: applicantCookie, origin: stack.server.url, "content-type": "application/json" },
      redirect: "manual",
    });
    expect(reveal.status).toBe(403);
    expect(reveal.headers.get("cache-control")).toBe("no-store");
    expect(await reveal.json()).toMatchObject({ title: "Access Denied" });

    const link = await fetch(`${stack.server.url}/admin/documents`, {
      method: "POST",
      body: new URLSearchParams({ intent: "link", documentId: randomUUID(), disposition: "inline" }),
      headers: { cookie: applicantCookie, origin: stack.server.url },
      redirect: "manual",
    });
    expect(link.status).toBe(302);
    expect(link.headers.get("location")).toBe("/");
    for (const path of ["/admin/clients", "/admin/documents"]) expect((await get(path, applicantCookie)).headers.get("location")).toBe("/");
  });

  it("refreshes the open client view live when that client submits another application", () =>
    withAdminPage(async ({ page, errors }) => {
      // The event stream connects once the page has hydrated: wait for it before the change happens.
      const stream = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/events" && r.status() === 200);
      await page.goto(`${stack.server.url}/admin/clients?client=${applicantId}`);
      const detail = page.getByTestId("client-detail");
      await detail.waitFor();
      expect(await detail.getByTestId("client-application").count()).toBe(1);
      await stream;
      applicationId = await submitApplicationWithViewablePdf(applicantCookie);
      await expect.poll(() => detail.getByTestId("client-application").count(), { timeout: 15_000 }).toBe(2);
      await expect.poll(() => detail.getByTestId("bank-account").count()).toBe(2);
      // Each application opens its staff page (whatever its status: no list tab shows every status).
      const view = detail.getByTestId("client-application").first().getByRole("link", { name: /^View Application/ });
      expect(await view.getAttribute("href")).toMatch(/^\/admin\/applications\/[0-9a-f-]{36}$/);
      await view.click();
      await page.waitForURL((url) => /^\/admin\/applications\/[0-9a-f-]{36}$/.test(url.pathname));
      await page.getByRole("heading", { name: "Application Timeline" }).waitFor();
      expect(errors).toEqual([]);
    }));

  it("the documents page is usable on a phone (no horizontal scroll)", () =>
    withAdminPage(async ({ page }) => {
      await gotoHydrated(page, `${stack.server.url}/admin/documents`);
      await page.getByRole("heading", { level: 1, name: "Document Viewer" }).waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await gotoHydrated(page, `${stack.server.url}/admin/clients?client=${applicantId}`);
      await page.getByTestId("client-detail").waitFor();
      const overflow2 = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow2).toBeLessThanOrEqual(0);
    }, { width: 375 }));
});
