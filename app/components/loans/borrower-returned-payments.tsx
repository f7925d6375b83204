import { ScrollingTable, TableHead } from "~/components/ui/table";
import { formatMoney } from "~/domain/money";
import type { ReturnedDebitView } from "~/domain/returned-debit-outcome";
import { formatAgreementDay } from "~/domain/views/agreement-preview";

/**
 * Returned Payments on the borrower's loan page: each debit the bank returned, with the day, the
 * amount, the bank's reason (code and label) and what happens next (a retry on its day, none, or
 * another account needed). Shown only when there is one.
 */
export function BorrowerReturnedPayments({ rows }: { rows: ReturnedDebitView[] }) {
  if (rows.length === 0) return null;
  const cell = "px-3 py-2 align-top";
  return (
    // The table's scrolling region is the landmark named by the heading; the section is not a second one of the same name.
    <section data-testid="returned-payments">
      <h2 id="returned-heading" className="mb-3 text-2xl font-bold tracking-tight text-primary">
        Returned Payments
      </h2>
      <ScrollingTable labelledBy="returned-heading" tableClassName="min-w-[40rem]" testId="returned-payments-table">
        <TableHead className="bg-muted/60" cellClassName={`${cell} whitespace-nowrap`} columns={["Returned On", { label: "Amount", className: "text-right" }, "Reference", "Bank's Reason", "What Happens Next"]} />
        <tbody>
          {rows.map((row) => (
            <tr key={row.paymentId} className="border-t" data-testid="returned-row">
              <td className={`${cell} whitespace-nowrap`}>{row.returnedOn ? formatAgreementDay(row.returnedOn) : "—"}</td>
              <td className={`${cell} text-right whitespace-nowrap`}>{formatMoney(row.amountCents)}</td>
              <td className={`${cell} whitespace-nowrap`}>
                {row.reference}
                {row.isRetry ? <span className="block text-xs text-muted-foreground">Retry</span> : null}
              </td>
              <td className={cell}>
                {row.returnCode}
                {row.returnLabel ? ` ${row.returnLabel}` : ""}
              </td>
              <td className={`${cell} font-medium`}>{row.nextStep}</td>
            </tr>
          ))}
        </tbody>
      </ScrollingTable>
    </section>
  );
}
