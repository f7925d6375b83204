import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import routes from "~/routes";
import { ACH_INTENTS } from "~/domain/validation/ach";
import { LOAN_PAYMENT_INTENTS } from "~/domain/validation/loan-payments";
import { MESSAGE_INTENTS } from "~/domain/validation/messages";
import { STAFF_REQUEST_INTENTS } from "~/domain/validation/requests";
import { APPLICATION_PAGE_INTENTS, REVIEW_INTENTS } from "~/domain/validation/review";
import { STAFF_INTENTS } from "~/domain/validation/staff";
import { APPROVAL_INTENTS } from "~/domain/validation/approval";
import { ASSIGNMENT_INTENTS } from "~/domain/validation/assignment";
import { SANCTIONS_DECISION_INTENTS } from "~/domain/validation/sanctions-decision";
import { signInAdminWithMfa } from "../helpers/admins";
import { signUpOverHttp, toBrowserCookies } from "../helpers/applicants";
import { submitApplication } from "../helpers/applications";
import { axeViolations, gotoHydrated } from "./harness";
import { openWatchedPage } from "./helpers/pages";
import { e2eStackForFile } from "./helpers/stack";

/**
 * The auditor (issue 22) reads and changes nothing: signed in through the browser with the second
 * factor, they open the lists, an application, the audit log and the loans, see no control that would
 * change anything or reveal a sensitive value, and every staff write the product has — each route with
 * an action under /admin and /api, each intent — is refused with 403 when posted from their browser.
 * The list of writes is read from app/routes.ts, so a staff action added later is covered here too
 * (an intent list missing below fails the test).
 */

const ADMIN = { email: "ro.admin@example.com", password: "R0-Admin!Passw0rd" };
const AUDITOR = { email: "ro.auditor@example.com", password: "R0-Audit!Passw0rd", name: "Reed Only", role: "auditor" as const };

/** The intents of each multi-intent staff action (single-purpose actions post no intent). */
const INTENTS: Record<string, readonly string[]> = {
  "/admin": REVIEW_INTENTS,
  "/admin/applications/:id": APPLICATION_PAGE_INTENTS,
  "/admin/applications/:id/requests": STAFF_REQUEST_INTENTS,
  "/admin/applications/:id/messages": MESSAGE_INTENTS,
  "/admin/applications/:id/offer": ["withdraw"],
  "/admin/loans/:id": LOAN_PAYMENT_INTENTS,
  "/admin/ach": ACH_INTENTS,
  "/admin/documents": ["link"],
  "/admin/staff": STAFF_INTENTS,
  "/admin/applications/:id/approval": APPROVAL_INTENTS,
  "/admin/applications/:id/assignment": ASSIGNMENT_INTENTS,
  "/admin/applications/:id/sanctions": SANCTIONS_DECISION_INTENTS,
};

/** The auditor's own second factor is theirs to manage; signing out is not a write on anyone's data. */
const OWN = new Set(["/admin/mfa"]);

function staffActions(): string[] {
  const found: string[] = [];
  const walk = (entries: { path?: string; file: string; children?: unknown[] }[]) => {
    for (const r of entries) {
      const p = `/${r.path ?? ""}`;
      const source = fs.readFileSync(path.resolve(import.meta.dirname, "../../app", r.file), "utf8");
      if ((p.startsWith("/admin") || p.startsWith("/api/admin")) && /export (async )?function action\b|export const action\b/.test(source) && !OWN.has(p)) found.push(p);
      if (r.children) walk(r.children as never);
    }
  };
  walk(routes as never);
  return found;
}

describe("the auditor is refused every write", () => {
  const stack = e2eStackForFile({ admin: ADMIN, staff: [AUDITOR] });
  let applicationId = "";
  let auditorCookie = "";

  beforeAll(async () => {
    const applicant = await signUpOverHttp(stack.server.url, stack.sink, "ro.applicant@example.com", "198.51.100.71");
    applicationId = await submitApplication(stack.server.url, applicant, { ip: "198.51.100.72" });
    auditorCookie = (await signInAdminWithMfa(stack.server.url, AUDITOR.email, AUDITOR.password, "198.51.100.73")).cookie;
  }, 180_000);

  it("reads the lists, the application and the audit log, with no control that changes or reveals anything", async () => {
    const { context, page, errors } = await openWatchedPage(stack.browser, { cookies: toBrowserCookies(auditorCookie, stack.server.url) });
    try {
      await gotoHydrated(page, `${stack.server.url}/admin`);
      await page.getByRole("heading", { level: 1 }).waitFor();
      const nav = page.getByRole("navigation", { name: "Admin" });
      expect(await nav.getByRole("link", { name: "Staff" }).count()).toBe(0);
      await nav.getByRole("link", { name: "Activity Monitoring" }).waitFor();

      await gotoHydrated(page, `${stack.server.url}/admin/applications/${applicationId}`);
      await page.getByTestId("admin-application").waitFor();
      for (const name of [/^Approve/, /^Deny/, /^Start Review/, /^Reveal/, /^Add Note/, /^Request/, /^Send/, /^Assign to Me/, /^Close as Incomplete/, /^Clear Match/, /^Confirm Match/]) {
        expect(await page.getByRole("button", { name }).count(), String(name)).toBe(0);
      }
      expect(await axeViolations(page)).toEqual([]);

      await gotoHydrated(page, `${stack.server.url}/admin/monitoring`);
      await page.getByRole("heading", { level: 1 }).waitFor();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("gets 403 for every staff action and intent posted from the browser, and nothing changes", async () => {
    const actions = staffActions();
    expect(actions.length).toBeGreaterThan(8);
    const multi = actions.filter((p) => INTENTS[p] === undefined);
    const { context, page } = await openWatchedPage(stack.browser, { cookies: toBrowserCookies(auditorCookie, stack.server.url), expectedConsoleErrors: /status of 403/ });
    try {
      await gotoHydrated(page, `${stack.server.url}/admin`);
      const posts = actions.flatMap((p) => (INTENTS[p] ?? [""]).map((intent) => ({ path: p.replace(":id", applicationId), intent })));
      const answers = await page.evaluate(async (list) => {
        const out: string[] = [];
        for (const { path: p, intent } of list) {
          const body = new URLSearchParams(intent ? { intent, applicationId: "00000000-0000-4000-8000-000000000000" } : {});
          const res = await fetch(p, { method: "POST", body, redirect: "manual" });
          out.push(`${p} ${intent} → ${res.status}`);
        }
        return out;
      }, posts);
      expect(answers.filter((a) => !a.endsWith("→ 403"))).toEqual([]);
      // Actions posting no intent must really be single-purpose (otherwise their intents belong above).
      for (const p of multi) {
        const file = (routes as { path?: string; file: string }[]).find((r) => `/${r.path}` === p)!.file;
        expect(fs.readFileSync(path.resolve(import.meta.dirname, "../../app", file), "utf8"), p).not.toMatch(/INTENTS/);
      }
    } finally {
      await context.close();
    }
    // The application is as the applicant left it: still Pending, no decision, no note.
    const admin = await signInAdminWithMfa(stack.server.url, ADMIN.email, ADMIN.password, "198.51.100.74");
    const html = await (await fetch(`${stack.server.url}/admin/applications/${applicationId}`, { headers: { cookie: admin.cookie } })).text();
    expect(html).toMatch(/data-status="pending"/);
  });
});
