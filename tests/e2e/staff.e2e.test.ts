import { beforeAll, describe, expect, it } from "vitest";
import { passAdminMfa, signInAdminWithMfa, signInOverHttp, totpFor } from "../helpers/admins";
import { submitApplication } from "../helpers/applications";
import { axeViolations, gotoHydrated, waitForHydration } from "./harness";
import { mark, waitForMail } from "./helpers/mailbox";
import { openWatchedPage } from "./helpers/pages";
import { e2eStackForFile } from "./helpers/stack";
import { acceptInvitationOverHttp, invitationPathIn, inviteStaffOverHttp } from "./helpers/staff";
import { expectToast } from "./helpers/toasts";

/**
 * The Staff page and the invitation link in a real browser (issue 22): the admin invites a loan officer
 * on /admin/staff, the officer opens the e-mailed link, sets a password, lands on /admin/mfa, enrols
 * with the manual key, opens /admin and an application and adds a note; /admin/staff is refused to
 * them (403) and their navigation has no Staff tab. An auditor invited the same way reads /admin and
 * /admin/monitoring but every post to /admin/staff is refused. A used link reads as expired; a
 * deactivated officer is signed out at once and cannot sign in again. Both pages are axe-clean.
 */

const ADMIN = { email: "staff.admin@example.com", password: "St4ff!Admin-Passw0rd" };
const OFFICER = { name: "Olive Officer", email: "olive.officer@example.com", password: "0live!Officer-Pass" };
const AUDITOR = { name: "Arthur Auditor", email: "arthur.auditor@example.com", password: "Arth#r!Audit0r-Pass" };

const stack = e2eStackForFile({ firstIp: 160, admin: ADMIN });
let adminCookie: string;
let applicationId: string;
let officerInvitePath: string;

beforeAll(async () => {
  const applicantCookie = await stack.signUp("staff.applicant@example.com");
  applicationId = await submitApplication(stack.server.url, applicantCookie, { ip: stack.nextIp() });
  adminCookie = (await signInAdminWithMfa(stack.server.url, ADMIN.email, ADMIN.password, stack.nextIp())).cookie;
});

const get = (path: string, cookie?: string) => fetch(`${stack.server.url}${path}`, { headers: cookie ? { cookie } : {}, redirect: "manual" });
const post = (path: string, cookie: string, fields: Record<string, string>) =>
  fetch(`${stack.server.url}${path}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { cookie, origin: stack.server.url },
    redirect: "manual",
  });

describe("staff invitations and roles", () => {
  it("the admin invites a loan officer, who sets a password, enrols the second factor and works an application, but not the Staff page", async () => {
    const admin = await stack.open(adminCookie);
    const after = mark(stack.sink);
    try {
      await gotoHydrated(admin.page, `${stack.server.url}/admin/staff`);
      await admin.page.getByRole("heading", { level: 1, name: "Staff" }).waitFor();
      expect(await axeViolations(admin.page)).toEqual([]);
      // The admin's own row offers no Deactivate or Reset Two-Factor.
      const own = admin.page.locator(`[data-testid="staff-row"][data-email="${ADMIN.email}"]`);
      expect(await own.getByRole("button", { name: /^Reset Two-Factor/ }).count()).toBe(0);
      expect(await own.getByRole("button", { name: /^Deactivate/ }).count()).toBe(0);

      const form = admin.page.getByRole("region", { name: "Invite Staff" });
      await form.getByLabel(/^Full Name/).fill(OFFICER.name);
      await form.getByLabel(/^E-mail/).fill(OFFICER.email);
      await form.getByLabel(/^Role/).selectOption({ label: "Loan Officer" });
      await expectToast(admin.page, "Invitation Sent", () => form.getByRole("button", { name: "Invite Staff" }).click());
      const invited = admin.page.locator(`[data-testid="invitation-row"][data-email="${OFFICER.email}"]`);
      await invited.waitFor();
      expect(await invited.textContent()).toContain("Invited (expires");
      expect(admin.errors).toEqual([]);
    } finally {
      await admin.context.close();
    }

    const mail = await waitForMail(stack.sink, { to: OFFICER.email, subject: /invited/i, after });
    officerInvitePath = invitationPathIn(mail.text).path;

    const officer = await openWatchedPage(stack.browser, { expectedConsoleErrors: /status of 4\d\d/ });
    try {
      const { page } = officer;
      await gotoHydrated(page, `${stack.server.url}${officerInvitePath}`);
      const details = (await page.locator("dl").first().textContent()) ?? "";
      expect(details).toContain(OFFICER.name);
      expect(details).toContain(OFFICER.email);
      expect(details).toContain("Loan Officer");
      expect(await axeViolations(page)).toEqual([]);
      await page.getByLabel(/^Password/).fill(OFFICER.password);
      await page.getByLabel(/^Confirm Password/).fill(OFFICER.password);
      await page.getByRole("button", { name: "Set Password" }).click();
      await page.waitForURL(`${stack.server.url}/admin/mfa`);
      await page.getByTestId("mfa-secret").waitFor();
      await waitForHydration(page);
      const secret = ((await page.getByTestId("mfa-secret").textContent()) ?? "").trim();
      await page.getByLabel("Authentication Code").fill(totpFor(secret).code);
      await page.getByRole("button", { name: "Turn On Two-Factor Authentication" }).click();
      await page.getByRole("link", { name: "Continue to the admin area" }).click();
      await page.waitForURL(`${stack.server.url}/admin`);
      // No Staff tab for a loan officer.
      const nav = page.getByRole("navigation", { name: "Admin" });
      await nav.getByRole("link", { name: "Applications" }).waitFor();
      expect(await nav.getByRole("link", { name: "Staff" }).count()).toBe(0);

      await gotoHydrated(page, `${stack.server.url}/admin/applications/${applicationId}`);
      const notes = page.getByTestId("internal-notes");
      await notes.getByLabel(/^Add a note/).fill("Called the employer: income confirmed.");
      await expectToast(page, "Note added", () => notes.getByRole("button", { name: /^Save Note/ }).click());
      await notes.getByText("Called the employer: income confirmed.").waitFor();

      const refused = await page.goto(`${stack.server.url}/admin/staff`);
      expect(refused?.status()).toBe(403);
      expect(officer.errors).toEqual([]);
    } finally {
      await officer.context.close();
    }
  });

  it("a link works once: the used link reads as expired, like an unknown one (410, nothing about the person)", async () => {
    for (const path of [officerInvitePath, `/auth/invite/${"A".repeat(43)}`, "/auth/invite/short"]) {
      const res = await get(path);
      expect(res.status, path).toBe(410);
      const html = await res.text();
      expect(html).toContain("This invitation link has expired or was already used.");
      expect(html).not.toContain(OFFICER.email);
    }
    const again = await post(officerInvitePath, "", { password: "An0ther!Password", confirmPassword: "An0ther!Password" });
    expect(again.status).toBe(410);
  });

  it("an auditor invited the same way reads the admin area, but every post to /admin/staff is refused", async () => {
    const invitation = await inviteStaffOverHttp(stack.server.url, stack.sink, adminCookie, { name: AUDITOR.name, email: AUDITOR.email, role: "auditor" });
    const fresh = await acceptInvitationOverHttp(stack.server.url, invitation, AUDITOR.password);
    // Before the second factor: no staff page, only the enrolment.
    expect((await get("/admin", fresh)).headers.get("location")).toBe("/admin/mfa?redirectTo=%2Fadmin");
    await passAdminMfa(stack.server.url, fresh);
    expect((await get("/admin", fresh)).status).toBe(200);
    expect((await get("/admin/monitoring", fresh)).status).toBe(200);
    expect((await get("/admin/staff", fresh)).status).toBe(403);
    for (const fields of <Record<string, string>[]>[
      { intent: "invite", name: "Sneaky", email: "sneaky@example.com", role: "admin" },
      { intent: "change-role", userId: "x", role: "admin" },
      { intent: "deactivate", userId: "x" },
      { intent: "reset-mfa", userId: "x" },
      { intent: "cancel-invitation", invitationId: "00000000-0000-4000-8000-000000000000" },
    ]) {
      expect((await post("/admin/staff", fresh, fields)).status, fields.intent).toBe(403);
    }
  });

  it("the admin deactivates the loan officer in the browser: signed out at once, and the right password no longer signs in", async () => {
    const officerCookie = await signInOverHttp(stack.server.url, OFFICER.email, OFFICER.password, stack.nextIp());
    const admin = await stack.open(adminCookie);
    try {
      await gotoHydrated(admin.page, `${stack.server.url}/admin/staff`);
      const row = admin.page.locator(`[data-testid="staff-row"][data-email="${OFFICER.email}"]`);
      expect(await row.textContent()).toContain("Enrolled");
      await expectToast(admin.page, "Staff Member Deactivated", () => row.getByRole("button", { name: /^Deactivate/ }).click());
      await expect.poll(() => row.textContent()).toContain("Deactivated");
      expect(admin.errors).toEqual([]);
    } finally {
      await admin.context.close();
    }
    expect((await get("/admin", officerCookie)).headers.get("location")).toMatch(/^\/auth\?redirectTo=/);
    await expect(signInOverHttp(stack.server.url, OFFICER.email, OFFICER.password, stack.nextIp())).rejects.toThrow(/sign-in failed/);
  });
});

