import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { BorrowerAutopay } from "~/components/loans/borrower-autopay";
import { BorrowerMakePayment } from "~/components/loans/borrower-make-payment";
import type { BorrowerAutopay as AutopayView, UpcomingDebit } from "~/domain/views/borrower-autopay";
import type { BorrowerLoanPage } from "~/domain/views/borrower-loan";

/**
 * The loan page's Autopay section as the server renders it: Autopay Off with Set Up Autopay (only with
 * a usable account), Autopay On with the next debit, Change and Cancel, the sentence for a debit past
 * its cutoff, and the Upcoming debits with their kinds.
 */

const inRouter = (element: React.ReactElement) => renderToStaticMarkup(<RouterProvider router={createMemoryRouter([{ path: "/", element }])} />);
const ACCOUNT = "0b0e4b1c-1111-4222-8333-444455556666";

function page(autopay: AutopayView, upcomingDebits: UpcomingDebit[] = []): BorrowerLoanPage {
  return {
    autopay,
    upcomingDebits,
    loanId: "5ef9a48b-0000-4000-8000-000000000001",
    today: "2026-12-16",
    paymentCents: 88_849,
    lenderName: "Private Loans",
    bankAccounts: [{ id: ACCOUNT, label: "Checking ••••6789", last4: "6789", validationState: "Validated" }],
  } as BorrowerLoanPage;
}

const off: AutopayView = { available: true, on: false, terms: null, next: null, usableAccountIds: [ACCOUNT] };
const on: AutopayView = {
  available: true,
  on: true,
  terms: { bankAccountId: ACCOUNT, account: "Checking ••••6789", amountKind: "installment", fixedAmountCents: null, fixedAmountText: null, daysBeforeDue: 0, textVersion: "2026-12-06.1", authorizedAt: "2026-12-01T10:00:00.000Z" },
  next: { on: "2026-12-18", amountCents: 88_849, account: "Checking ••••6789", queued: true, stillGoes: true },
  usableAccountIds: [ACCOUNT],
};

describe("the borrower's Autopay section", () => {
  it("off: says so, that it is optional, and offers Set Up Autopay only with a usable account", () => {
    const html = inRouter(<BorrowerAutopay data={page(off)} />);
    expect(html).toContain("Autopay Off");
    expect(html).toContain("Autopay is optional");
    expect(html).toContain("Set Up Autopay");
    expect(html).toContain("No debits are pending.");
    const none = inRouter(<BorrowerAutopay data={page({ ...off, usableAccountIds: [] })} />);
    expect(none).not.toContain("Set Up Autopay");
    expect(none).toContain("needs a validated bank account");
  });
  it("on: the next debit, Change and Cancel, the debit that will still be made, the upcoming debits by kind", () => {
    const html = inRouter(
      <BorrowerAutopay
        data={page(on, [
          { id: "a", on: "2026-12-18", amountCents: 88_849, account: "Checking ••••6789", kind: "autopay", reference: "AUTO-ABCDEFGH" },
          { id: "b", on: null, amountCents: 5_000, account: "Checking ••••6789", kind: "one_time", reference: "WEB-ABCDEFGH" },
        ])}
      />,
    );
    expect(html).toContain("Autopay On");
    expect(html).toContain("$888.49");
    expect(html).toContain("Dec 18, 2026");
    expect(html).toContain("Change Autopay");
    expect(html).toContain("Cancel Autopay");
    expect(html).toContain("The debit of $888.49 on Dec 18, 2026 from Checking ••••6789 will still be made.");
    expect(html).toContain("Next ACH file");
    expect(html).toContain("One-time");
    expect(html).not.toMatch(/000123456789/);
  });
  it("Make a Payment says that paying now cancels the queued autopay debit", () => {
    const data = { ...page(on, [{ id: "a", on: "2026-12-18", amountCents: 88_849, account: "Checking ••••6789", kind: "autopay", reference: "AUTO-ABCDEFGH" }]), status: "current", pendingPayment: false, payoffTodayCents: 1_000_000, nextPayment: null } as BorrowerLoanPage;
    expect(inRouter(<BorrowerMakePayment data={data} />)).toContain("Paying now cancels the scheduled autopay debit of $888.49 on Dec 18, 2026.");
  });
});
