import { beforeAll, describe, expect, it } from "vitest";
import { signInAdminWithMfa } from "../helpers/admins";
import { signUpOverHttp, toBrowserCookies } from "../helpers/applicants";
import { submitApplication } from "../helpers/applications";
import { e2eStackForFile } from "./helpers/stack";

/**
 * One admin's working session end to end: TOTP, approve one application and deny another, reveal an
 * SSN and a bank number, preview and download a document, then find every act in the monitoring log,
 * while the applicant's open dashboard shows the approval live.
 */

const ADMIN = { email: "story.admin@example.com", password: "Adm1n!Secret" };
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

describe("an admin's day", () => {
  const stack = e2eStackForFile({ admin: ADMIN });
  let applicant: string;
  let admin: string;
  const apps: string[] = [];

  const submit = () => submitApplication(stack.server.url, applicant);

  const post = (path: string, fields: Record<string, string | string[]>) => {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) for (const item of [v].flat()) body.append(k, item);
    return fetch(`${stack.server.url}${path}`, { method: "POST", body, headers: { cookie: admin, origin: stack.server.url }, redirect: "manual" });
  };
  const reveal = (kind: string, id: string) =>
    fetch(`${stack.server.url}/api/admin/reveal`, {
      method: "POST",
      body: JSON.stringify({ kind, id }),
      headers: { cookie: admin, origin: stack.server.url, "content-type": "application/json" },
    });

  beforeAll(async () => {
    applicant = await signUpOverHttp(stack.server.url, stack.sink, "story.applicant@example.com", "198.18.8.1");
    apps.push(await submit(), await submit());
    admin = (await signInAdminWithMfa(stack.server.url, ADMIN.email, ADMIN.password, "198.18.8.2")).cookie; // enrols TOTP and verifies this session
  });
  it("approves, denies, reveals, previews and downloads; every act is in the monitoring log; the dashboard updates live", async () => {
    const applicantContext = await stack.browser.newContext();
    await applicantContext.addCookies(toBrowserCookies(applicant, stack.server.url));
    const dashboard = await applicantContext.newPage();
    // The live stream connects after hydration: wait for it before anything changes.
    const stream = dashboard.waitForResponse((r) => new URL(r.url()).pathname === "/api/events" && r.status() === 200);
    await dashboard.goto(`${stack.server.url}/dashboard`);
    await dashboard.getByRole("heading", { name: /Loan Applications/ }).waitFor();
    await dashboard.evaluate(() => ((window as unknown as { storyMarker: number }).storyMarker = 42));
    await stream;

    // Approve one, deny the other.
    // Less money than requested: a Counteroffer, with its reason (issue 20).
    const approval = { approvedAmount: "45000", interestRate: "8.5", termMonths: "60", originationFeePercent: "1", counterofferReasons: "Insufficient income" };
    expect((await post("/admin", { intent: "approve", applicationId: apps[0]!, ...approval })).status).toBe(200);
    expect((await post("/admin", { intent: "deny", applicationId: apps[1]!, reasons: ["Insufficient income"] })).status).toBe(200);
    // A counteroffer is announced as one, not as 'Loan Approved!'.
    await dashboard.getByTestId("approval-notice").getByText("Counteroffer", { exact: true }).waitFor({ timeout: 10_000 });
    expect(await dashboard.evaluate(() => (window as unknown as { storyMarker?: number }).storyMarker)).toBe(42);

    // Reveal the SSN and the bank account number of the client.
    const ssn = await reveal("ssn", apps[0]!);
    expect(ssn.status).toBe(200);
    expect(await ssn.json()).toMatchObject({ value: "123456789" });
    const clients = await (await fetch(`${stack.server.url}/admin/clients?q=story.applicant`, { headers: { cookie: admin } })).text();
    const clientId = /client=([A-Za-z0-9_-]{10,})/.exec(clients)?.[1];
    expect(clientId).toBeTruthy();
    const detail = await (await fetch(`${stack.server.url}/admin/clients?client=${clientId}`, { headers: { cookie: admin } })).text();
    let accountNumber: string | undefined;
    for (const id of new Set(detail.match(UUID))) {
      const res = await reveal("account_number", id);
      if (res.status === 200) {
        accountNumber = ((await res.json()) as { value: string }).value;
        break;
      }
    }
    expect(accountNumber).toBe("000123456789");

    // Preview (inline) and download (attachment) a document through 60-second signed links.
    const documents = await (await fetch(`${stack.server.url}/admin/documents`, { headers: { cookie: admin } })).text();
    const documentId = [...new Set(documents.match(UUID))].find((id) => !apps.includes(id))!;
    for (const disposition of ["inline", "attachment"]) {
      const linked = await post("/admin/documents", { intent: "link", documentId, disposition });
      const html = await linked.text();
      const link = /(\/api\/documents\/file\?[^"\\<\s]+)/.exec(html.replace(/\\u0026|&amp;/g, "&"))?.[1];
      expect(link, "the action answers with a signed link").toBeTruthy();
      const file = await fetch(`${stack.server.url}${link}`, { headers: { cookie: admin } });
      expect(file.status).toBe(200);
      expect(file.headers.get("content-disposition")).toMatch(new RegExp(`^${disposition};`));
      expect(file.headers.get("cache-control")).toMatch(/^no-store/);
      await file.arrayBuffer();
    }

    // Every act is in the monitoring log, seen in the browser.
    const adminContext = await stack.browser.newContext();
    await adminContext.addCookies(toBrowserCookies(admin, stack.server.url));
    const monitoring = await adminContext.newPage();
    await monitoring.goto(`${stack.server.url}/admin/monitoring?hours=6`);
    for (const action of ["admin.mfa", "application.approve", "application.deny", "ssn.reveal", "bank.reveal", "document.link", "document.download"]) {
      expect(await monitoring.locator(`tr[data-action="${action}"]`).count(), action).toBeGreaterThan(0);
    }
    await Promise.all([applicantContext.close(), adminContext.close()]);
  });
});
