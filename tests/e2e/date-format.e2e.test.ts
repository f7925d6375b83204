import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withoutUuids } from "../helpers/without-uuids";
import { waitForHydration } from "./harness";
import { type WatchedPage } from "./helpers/pages";
import { markFundedAsSettled, signedLoanOverHttp } from "./helpers/signed-loan";
import { e2eStackForFile } from "./helpers/stack";

/**
 * One date format for people: the pages with the most dates (the dashboard, the borrower's loan page,
 * the admin application and loan pages) show "Jan 5, 2027", never the machine's 2027-01-05, which stays
 * only in attributes such as <time dateTime>.
 */

const stack = e2eStackForFile({ firstIp: 150, admin: { email: "dates.reviewer@example.com", password: "Rev1ewer!Passw0rd" } });

// Not a version label such as the E-SIGN consent's "2026-11-24.1" (an identifier that starts with a day).
const ISO_DAY = /\b\d{4}-\d{2}-\d{2}\b(?!\.\d)/g;
const HUMAN_DAY = /\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,2}, \d{4}\b/;

let applicant: WatchedPage;
let staff: WatchedPage;
let ids = { applicationId: "", loanId: "" };

beforeAll(async () => {
  const jane = await stack.signUp("jane.dates@example.com", "Jane Dates");
  const adminCookie = await stack.adminSession();
  ids = await signedLoanOverHttp(stack.server.url, jane, adminCookie, { ip: stack.nextIp() });
  await stack.restart((db) => markFundedAsSettled(db, ids.loanId));
  applicant = await stack.open(jane);
  staff = await stack.open(adminCookie);
});

afterAll(async () => {
  await applicant?.context.close();
  await staff?.context.close();
});

/** The text a person sees on the page (attributes are not part of it), its UUIDs masked. */
async function visibleText(watched: WatchedPage, path: string): Promise<string> {
  const response = await watched.page.goto(`${stack.server.url}${path}`);
  expect(response?.status(), path).toBe(200);
  await waitForHydration(watched.page);
  return withoutUuids(await watched.page.locator("body").innerText());
}

describe("dates as people read them", () => {
  const pages: [string, "applicant" | "staff", () => string][] = [
    ["the dashboard", "applicant", () => "/dashboard"],
    ["the borrower's loan page", "applicant", () => `/dashboard/loans/${ids.loanId}`],
    ["the admin application page", "staff", () => `/admin/applications/${ids.applicationId}`],
    ["the admin loan page", "staff", () => `/admin/loans/${ids.loanId}`],
  ];
  it.each(pages)("%s shows 'Jan 5, 2027', never 2027-01-05", async (_name, who, path) => {
    const text: string = await visibleText(who === "applicant" ? applicant : staff, path());
    expect(text).toMatch(HUMAN_DAY);
    expect(text.match(ISO_DAY) ?? []).toEqual([]);
  });

  it("keeps the machine format in <time dateTime> for machines", async () => {
    await visibleText(staff, `/admin/loans/${ids.loanId}`);
    const attributes = await staff.page.locator("time[datetime]").evaluateAll((nodes) => nodes.map((n) => n.getAttribute("datetime") ?? ""));
    expect(attributes.length).toBeGreaterThan(0);
    expect(attributes.some((value) => /^\d{4}-\d{2}-\d{2}/.test(value))).toBe(true);
  });
});
