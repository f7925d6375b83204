import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { BorrowerReturnedPayments } from "~/components/loans/borrower-returned-payments";
import { RETURNED_DEBIT_NEXT_STEPS, returnedDebitNextStep, returnOutcomeForStaff } from "~/domain/returned-debit-outcome";

/** The borrower's Returned Payments: the sentence for each reaction, and the table (absent when nothing was returned). */
describe("returned payments", () => {
  it("says what happens next for each reaction", () => {
    expect(returnedDebitNextStep({ kind: "retry", retry: { status: "pending", scheduledOn: "2026-12-14", receivedOn: null }, fromAutopay: false })).toBe("We will try again on Dec 14, 2026.");
    expect(returnedDebitNextStep({ kind: "retry", retry: null, fromAutopay: false })).toBe(RETURNED_DEBIT_NEXT_STEPS.noRetry);
    expect(returnedDebitNextStep({ kind: "retry", retry: { status: "cancelled", scheduledOn: "2026-12-14", receivedOn: null }, fromAutopay: true })).toBe(RETURNED_DEBIT_NEXT_STEPS.noRetry);
    expect(returnedDebitNextStep({ kind: "retry", retry: { status: "cancelled", scheduledOn: "2026-12-14", receivedOn: null, cancelReason: "Paid by hand" }, fromAutopay: true })).toBe("We did not try again: Paid by hand.");
    expect(returnedDebitNextStep({ kind: "retry", retry: { status: "posted", scheduledOn: "2026-12-14", receivedOn: "2026-12-14" }, fromAutopay: false })).toBe("We tried again and collected it on Dec 14, 2026.");
    expect(returnedDebitNextStep({ kind: "no_retry", retry: null, fromAutopay: true })).toBe("We will not try again: make a payment from this page.");
    expect(returnedDebitNextStep({ kind: "account_unusable", retry: null, fromAutopay: true })).toBe("Autopay is off: add another bank account.");
    expect(returnedDebitNextStep({ kind: "unauthorized", retry: null, fromAutopay: true })).toBe("Autopay is off and this account is blocked: contact us.");
  });

  it("renders nothing without returns, and a row per return with its code, label and next step", () => {
    expect(renderToStaticMarkup(<BorrowerReturnedPayments rows={[]} />)).toBe("");
    const html = renderToStaticMarkup(
      <BorrowerReturnedPayments
        rows={[
          { paymentId: "p1", reference: "WEB-ABCD2345", amountCents: 30_000, returnedOn: "2026-12-07", returnCode: "R01", returnLabel: "Insufficient Funds", isRetry: false, nextStep: "We will try again on Dec 14, 2026." },
          { paymentId: "p2", reference: "WEB-ABCD2345-R1", amountCents: 30_000, returnedOn: "2026-12-14", returnCode: "R02", returnLabel: "Account Closed", isRetry: true, nextStep: "This bank account cannot be used again: add another bank account." },
        ]}
      />,
    );
    expect(html).toContain("Returned Payments");
    expect(html).toContain("R01 Insufficient Funds");
    expect(html).toContain("$300.00");
    expect(html).toContain("We will try again on Dec 14, 2026.");
    expect(html).toContain("Retry");
    expect(html.match(/data-testid="returned-row"/g)).toHaveLength(2);
  });

  it("tells staff what the return did", () => {
    const base = { feeCents: null, autopayStopped: false, flagId: null, cancelledPaymentIds: [], reopened: false };
    expect(returnOutcomeForStaff({ ...base, kind: "retry", retry: { scheduledOn: "2026-12-14", retryNumber: 1 }, feeCents: 2_500 })).toBe("Retry 1 queued for Dec 14, 2026. A returned-payment fee was assessed.");
    expect(returnOutcomeForStaff({ ...base, kind: "unauthorized", retry: null, autopayStopped: true, flagId: "f", cancelledPaymentIds: ["a", "b"] })).toBe(
      "The account is blocked for debits. Autopay stopped. 2 unsent debits cancelled. Flagged for review.",
    );
    expect(returnOutcomeForStaff({ ...base, kind: "no_retry", retry: null, reopened: true })).toBe("The loan is no longer paid in full. Not retried.");
  });
});
