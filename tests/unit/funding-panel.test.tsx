import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { FundingChecklistPanel } from "~/components/admin/loans/funding-checklist-panel";
import { FundingNotice } from "~/components/loans/funding-notice";
import { fundingChecklist, type FundingFacts } from "~/domain/funding-checklist";
import type { StaffLoanFunding } from "~/domain/views/staff-loans";

/**
 * The staff Funding Checklist panel and the borrower's funding notice as the server renders them: the
 * items with who and when, Fund Loan enabled only when every item is met, Release Funds enabled only
 * for another staff member, the notices' words; and the HTML accepted by the W3C checker (vnu).
 */

const inRouter = (element: React.ReactElement) => renderToStaticMarkup(<RouterProvider router={createMemoryRouter([{ path: "/", element }])} />);
const LOAN = "5ef9a48b-0000-4000-8000-000000000001";

const facts = (over: Partial<FundingFacts> = {}): FundingFacts => ({
  agreement: { signerName: "Dana Whitfield", signedAt: "2026-11-02T15:00:00.000Z" },
  fee: { handling: "deducted", amountCents: 2_500_000, feeCents: 25_000, collectedBy: null, collectedAt: null, reference: null },
  sanctions: { state: "clear", screenedAt: "2026-11-01T10:00:00.000Z", openMatches: 0 },
  idDocument: { accepted: { fileName: "license.png", acceptedBy: "Ben Banker", acceptedAt: "2026-11-03T09:00:00.000Z" }, waiting: 0 },
  bankAccount: { label: "Checking ••••6789", validation: { status: "validated", statusLabel: "Validated", method: "prenote", validatedAt: "2026-11-05T00:00:00.000Z", recordedBy: null, reference: null } },
  ...over,
});

function funding(over: Partial<StaffLoanFunding> = {}, f: FundingFacts = facts()): StaffLoanFunding {
  const checklist = fundingChecklist(f);
  return {
    loanStatus: "awaiting_funding",
    loanStatusLabel: "Awaiting Funding",
    checklist,
    fingerprint: "a".repeat(64),
    allMet: checklist.every((i) => i.met),
    feeCents: 25_000,
    feeHandling: "deducted",
    netProceedsCents: 2_475_000,
    fourEyes: false,
    credit: null,
    canFund: checklist.every((i) => i.met),
    canRelease: false,
    canCancelFunding: false,
    canMarkSettledOrReturned: false,
    cancellableFrom: "2026-12-02",
    canCancelLoan: false,
    canRecordFee: true,
    idDocuments: [{ id: "6ef9a48b-0000-4000-8000-000000000002", label: "ID (front)", fileName: "license.png", accepted: false }],
    fundedOn: null,
    cancelled: null,
    ...over,
  };
}

const credit = (status: "prepared" | "sent"): StaffLoanFunding["credit"] => ({
  id: "7ef9a48b-0000-4000-8000-000000000003",
  status,
  statusLabel: status === "prepared" ? "Awaiting Release" : "Sent",
  amountCents: 2_475_000,
  secCode: "PPD",
  account: "Checking ••••6789",
  preparedBy: "Ada Admin",
  preparedAt: "2026-11-06T10:00:00.000Z",
  releasedBy: status === "sent" ? "Ben Banker" : null,
  releasedAt: status === "sent" ? "2026-11-06T11:00:00.000Z" : null,
  effectiveDate: status === "sent" ? "2026-11-09" : null,
  settledOn: null,
  returnedOn: null,
  returnText: null,
});

const button = (html: string, name: string) => new RegExp(`<button[^>]*>(?:(?!</button>).)*${name}</button>`).exec(html)?.[0] ?? null;

describe("Funding Checklist panel", () => {
  it("lists each item met or not with who and when; Fund Loan is enabled only when every item is met", () => {
    const ready = inRouter(<FundingChecklistPanel loanId={LOAN} funding={funding()} />);
    expect(ready).toContain("Funding Checklist");
    expect(ready).toContain("Loan Origination Fee Compliance: <span");
    expect(ready).toContain("By Ben Banker");
    expect(ready).toContain("$250.00 deducted from the proceeds; net proceeds $24,750.00.");
    expect(button(ready, "Fund Loan")).not.toContain("disabled");
    expect(ready).toContain(`name="fingerprint" value="${"a".repeat(64)}"`);

    const unmet = funding({}, facts({ sanctions: { state: "potential_match", screenedAt: null, openMatches: 1 } }));
    const html = inRouter(<FundingChecklistPanel loanId={LOAN} funding={unmet} />);
    expect(html).toContain("Sanctions screening clear: <span class=\"text-slate-700\">Not met</span>");
    expect(html).toContain("Potential match: 1 open match to clear or confirm.");
    expect(button(html, "Fund Loan")).toContain("disabled");
    expect(html).toContain("Enabled when every checklist item is met.");
  });

  it("a prepared credit: Release Funds is disabled for its preparer, enabled for another staff member", () => {
    const mine = inRouter(<FundingChecklistPanel loanId={LOAN} funding={funding({ credit: credit("prepared"), canFund: false, canCancelFunding: true })} />);
    expect(button(mine, "Release Funds")).toContain("disabled");
    expect(mine).toContain("Another staff member than the preparer releases the funds.");
    expect(button(mine, "Cancel Funding")).not.toContain("disabled");
    const theirs = inRouter(<FundingChecklistPanel loanId={LOAN} funding={funding({ credit: credit("prepared"), canFund: false, canRelease: true })} />);
    expect(button(theirs, "Release Funds")).not.toContain("disabled");
    const sent = inRouter(<FundingChecklistPanel loanId={LOAN} funding={funding({ credit: credit("sent"), canFund: false, canMarkSettledOrReturned: true })} />);
    expect(sent).toContain("Mark Funds Settled");
    expect(sent).toContain("Mark Funds Returned");
  });

  it("the borrower's notices", () => {
    const day = (value: string) => value;
    expect(renderToStaticMarkup(<FundingNotice notice={{ kind: "awaiting" }} day={day} />)).toContain("Awaiting Funding: we send the funds once the last checks are complete.");
    expect(renderToStaticMarkup(<FundingNotice notice={{ kind: "sent", sentOn: "2026-11-09", last4: "6789" }} day={day} />)).toContain("Funds sent on 2026-11-09 to account ••••6789");
    const cancelled = renderToStaticMarkup(<FundingNotice notice={{ kind: "cancelled", cancelledOn: "2026-12-03", reason: "Not funded in time" }} day={day} />);
    expect(cancelled).toContain("void");
    expect(cancelled).toContain("Not funded in time");
  });

  it("the panel's HTML passes the W3C checker", () => {
    const states = [
      funding(),
      funding({ credit: credit("prepared"), canFund: false, canCancelFunding: true }),
      funding({ credit: credit("sent"), canFund: false, canMarkSettledOrReturned: true, canRecordFee: false }),
      funding({ loanStatus: "cancelled", loanStatusLabel: "Cancelled", cancelled: { at: "2026-12-03T10:00:00.000Z", by: "Ada Admin", reason: "Not funded" } }),
    ];
    const body = states.map((f) => inRouter(<FundingChecklistPanel loanId={LOAN} funding={f} />)).join("\n");
    const notices = renderToStaticMarkup(<FundingNotice notice={{ kind: "returned", returnCode: "R03", message: "Your bank returned the loan funds." }} day={(v) => v} />);
    // Each state rendered apart repeats ids (one page shows one): the checker reads each state's page.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vnu-funding-"));
    try {
      const files = [...body.split("\n"), notices].map((html, i) => {
        const file = path.join(dir, `state-${i}.html`);
        fs.writeFileSync(file, `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Funding</title></head><body><main>${html}</main></body></html>`);
        return file;
      });
      // A control page with a duplicate id: the checker must find it, so a checker that ran on nothing fails the test.
      const control = path.join(dir, "control.html");
      fs.writeFileSync(control, `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Control</title></head><body><p id="x"></p><p id="x"></p></body></html>`);
      files.push(control);
      const jar = String(createRequire(import.meta.url)("vnu-jar"));
      // vnu writes its JSON report to stderr.
      const result = spawnSync("java", ["-jar", jar, "--format", "json", "--exit-zero-always", ...files], { encoding: "utf8" });
      const report = JSON.parse(result.stderr) as { messages: { type: string; message: string; url?: string }[] };
      const errors = report.messages.filter((m) => m.type === "error");
      expect(errors.filter((m) => m.url?.endsWith("control.html")).length).toBeGreaterThan(0);
      expect(errors.filter((m) => !m.url?.endsWith("control.html"))).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
