import type { ServicingStatus } from "~/domain/loan-servicing";

/**
 * The borrower's loan page, plainly, for a loan closed out by the lender: a charged-off loan is still
 * owed (payments are accepted and reduce it; autopay is off), a settled one is owed no more (nothing
 * is debited from it again).
 */
export function ClosedOutNotice({ status }: { status: ServicingStatus }) {
  if (status !== "charged_off" && status !== "settled") return null;
  return (
    <section aria-labelledby="closed-out-heading" className="mb-8 rounded-md border border-border bg-muted p-4 text-sm" data-testid="closed-out-notice">
      <h2 id="closed-out-heading" className="text-base font-semibold text-primary">
        {status === "settled" ? "This loan is settled" : "This loan was charged off"}
      </h2>
      <p className="mt-1">
        {status === "settled"
          ? "We accepted a settlement for this loan. You owe nothing more on it, and no payment will be taken from your account."
          : "We charged off this loan after it went unpaid. You still owe the balance shown, and no more interest or fees are added. Autopay is off; any payment you make reduces what you owe. Contact us to discuss a settlement."}
      </p>
    </section>
  );
}
