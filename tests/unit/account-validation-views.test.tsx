import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { AccountValidationPanel } from "~/components/admin/loans/account-validation-panel";
import { AchPage } from "~/components/admin/ach/ach-page";
import type { AchPageData } from "~/domain/views/ach";
import type { AccountValidationPanelData } from "~/domain/views/account-validation";

/**
 * The pages' new parts rendered as the server renders them: the staff loan page's Account Validation
 * panel (its state, Record Validation with labelled fields) and the ACH page's prenotes and credits
 * (Mark Returned for a sent prenote, credits read-only with the loan's link), with no id twice.
 */

const inRouter = (element: React.ReactElement) => renderToStaticMarkup(<RouterProvider router={createMemoryRouter([{ path: "/", element }])} />);
const ids = (html: string) => [...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);

const panel: AccountValidationPanelData = { bankAccountId: "22222222-2222-4222-8222-222222222222", accountMasked: "••••6789", label: "Checking ••••6789", holder: "Dana Whitfield", validation: null };

describe("the Account Validation panel", () => {
  it("an account not validated: the state and Record Validation with a labelled method and reference", () => {
    const html = inRouter(<AccountValidationPanel panel={panel} />);
    expect(html).toContain("Account Validation");
    expect(html).toContain("Not validated: no prenote or other validation is on file.");
    expect(html).toMatch(/<label[^>]* for="validation-method"/);
    expect(html).toMatch(/<label[^>]* for="validation-reference"/);
    expect(html).toContain("Record Validation");
    expect(html).toContain('name="bankAccountId" value="22222222-2222-4222-8222-222222222222"');
    expect(html).not.toContain('value="prenote"');
    expect(new Set(ids(html)).size).toBe(ids(html).length);
  });

  it("a sent prenote shows the day it counts as validated; a validated account has no form", () => {
    const sent = inRouter(
      <AccountValidationPanel
        panel={{
          ...panel,
          validation: {
            validationId: "v",
            bankAccountId: panel.bankAccountId,
            status: "sent",
            method: "prenote",
            secCode: "WEB",
            direction: "debit",
            effectiveDate: "2026-11-25",
            readyOn: "2026-11-30",
            validatedAt: null,
            returnCode: null,
            returnedOn: null,
            reference: null,
            recordedBy: null,
          },
        }}
      />,
    );
    expect(sent).toContain("Nov 30, 2026 unless returned");
    expect(sent).toContain("Record Validation");
    const done = inRouter(
      <AccountValidationPanel
        panel={{
          ...panel,
          validation: {
            validationId: "v",
            bankAccountId: panel.bankAccountId,
            status: "validated",
            method: "bank_letter",
            secCode: null,
            direction: null,
            effectiveDate: null,
            readyOn: null,
            validatedAt: "2026-11-20T15:00:00.000Z",
            returnCode: null,
            returnedOn: null,
            reference: "Voided check 1042",
            recordedBy: "Sam Servicer",
          },
        }}
      />,
    );
    expect(done).toContain("Bank letter or voided check");
    expect(done).toContain("Voided check 1042");
    expect(done).toContain("Recorded by Sam Servicer");
    expect(done).not.toContain("Record Validation</button>");
  });

  it("no account on file", () => {
    expect(inRouter(<AccountValidationPanel panel={null} />)).toContain("There is no bank account on file for this loan.");
  });
});

describe("the ACH page's prenotes and credits", () => {
  const data: AchPageData = {
    today: "2026-11-26",
    nextEffectiveDate: "2026-11-27",
    pending: [],
    refundsDue: [],
    pendingPrenotes: [
      { validationId: "33333333-3333-4333-8333-333333333333", loanId: null, borrower: "Lee Park", accountMasked: "••••1111", secCode: "PPD", direction: "credit", queuedAt: "2026-11-26T10:00:00.000Z", skipReason: null },
    ],
    batches: [
      {
        id: "44444444-4444-4444-8444-444444444444",
        fileName: "ach-20261124-A-44444444",
        createdAt: "2026-11-24T15:00:00.000Z",
        createdBy: "Sam Servicer",
        entryCount: 2,
        totalCents: 0,
        creditTotalCents: 990_000,
        effectiveDate: "2026-11-25",
        entries: [],
        prenotes: [
          {
            validationId: "55555555-5555-4555-8555-555555555555",
            loanId: "66666666-6666-4666-8666-666666666666",
            borrower: "Dana Whitfield",
            accountMasked: "••••6789",
            secCode: "WEB",
            direction: "debit",
            status: "sent",
            method: "prenote",
            readyOn: "2026-11-30",
            validatedAt: null,
            returnCode: null,
            returnedOn: null,
          },
        ],
        credits: [
          {
            fundingId: "77777777-7777-4777-8777-777777777777",
            loanId: "88888888-8888-4888-8888-888888888888",
            borrower: "Ann Funded",
            amountCents: 990_000,
            accountMasked: "••••5926",
            secCode: "PPD",
            status: "sent",
            settledOn: null,
            returnedOn: null,
            returnCode: null,
          },
        ],
      },
    ],
  };

  it("lists the next file's prenotes, and each batch's prenotes (Mark Returned) and credits (read-only, linked)", () => {
    const html = inRouter(<AchPage data={data} actionData={undefined} />);
    expect(html).toContain("Prenotes for the Next File (1)");
    expect(html).toContain("Prenote (PPD credit prenote)");
    expect(html).toContain("Prenote (WEB debit prenote)");
    expect(html).toContain('name="intent" value="return-prenote"');
    expect(html).toContain('name="validationId" value="55555555-5555-4555-8555-555555555555"');
    expect(html).toContain("Mark Returned");
    expect(html).toContain("Credits (loan proceeds)");
    expect(html).toContain('href="/admin/loans/88888888-8888-4888-8888-888888888888"');
    expect(html).toContain("$9,900.00");
    expect(html).toContain("••••5926");
    expect(new Set(ids(html)).size).toBe(ids(html).length);
  });
});
