import { Download, FileText } from "lucide-react";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { formatMonth, type BorrowerLoanPage } from "~/domain/views/borrower-loan";

/**
 * Payoff Quote (a GET form: the good-through date → the PDF letter), the monthly Statements (one PDF a
 * month since the loan started) and, once paid in full, the paid-in-full letter: downloads from
 * /dashboard/loans/:id/documents (owner only, no-store). The signed Loan Agreement is the application's
 * own download (/dashboard/applications/:id/agreement, with its owner check and audit).
 */
export function BorrowerDocuments({ data }: { data: BorrowerLoanPage }) {
  const base = `/dashboard/loans/${data.loanId}/documents`;
  return (
    <section aria-labelledby="documents-heading" className="grid gap-4 lg:grid-cols-2">
      <h2 id="documents-heading" className="sr-only">
        Documents
      </h2>
      {data.status === "paid_in_full" ? (
        <Card className="flex flex-col gap-3 p-5" data-testid="paid-in-full">
          <h3 className="text-xl font-semibold text-primary">Paid in Full</h3>
          <p className="text-sm">Your loan is paid in full. Your paid-in-full letter confirms it.</p>
          <a href={`${base}?kind=paid-in-full`} download className="inline-flex w-fit items-center gap-2 rounded-md bg-primary px-4 py-2 text-sm font-medium text-primary-foreground hover:bg-primary/90">
            <Download aria-hidden="true" className="size-4" />
            Download Paid-in-Full Letter
          </a>
        </Card>
      ) : (
        <Card className="flex flex-col gap-3 p-5" data-testid="payoff-quote">
          <h3 className="text-xl font-semibold text-primary">Payoff Quote</h3>
          <p className="text-sm">A letter with the amount that pays your loan off on a day you choose (up to 60 days ahead): principal, interest to that day, fees and the per-diem amount.</p>
          <form method="get" action={base} className="flex flex-col gap-3 sm:flex-row sm:items-end">
            <input type="hidden" name="kind" value="payoff" />
            <div className="flex flex-col gap-1">
              <label htmlFor="payoff-date" className="text-sm font-semibold">
                Good-through date
              </label>
              <input id="payoff-date" name="date" type="date" required min={data.payoffDates.min} max={data.payoffDates.max} defaultValue={data.payoffDates.min} className="h-10 rounded-md border border-input bg-background px-3 text-sm" />
            </div>
            <Button type="submit" className="sm:w-auto">
              <Download aria-hidden="true" />
              Get Payoff Quote
            </Button>
          </form>
        </Card>
      )}
      {data.agreementOnFile ? (
        <Card className="flex flex-col gap-3 p-5" data-testid="loan-agreement">
          <h3 className="text-xl font-semibold text-primary">Loan Agreement</h3>
          <p className="text-sm">The agreement you signed, with its signing certificate (PDF).</p>
          <a
            href={`/dashboard/applications/${data.applicationId}/agreement`}
            download
            className="inline-flex w-fit items-center gap-2 rounded-md bg-primary px-4 py-2 text-sm font-medium text-primary-foreground hover:bg-primary/90"
          >
            <Download aria-hidden="true" className="size-4" />
            Download Signed Agreement
          </a>
        </Card>
      ) : null}
      <Card className="flex flex-col gap-3 p-5" data-testid="statements">
        <h3 className="text-xl font-semibold text-primary">Statements</h3>
        <ul className="flex flex-col gap-1" aria-label="Monthly statements">
          {data.statementMonths.map((month) => (
            <li key={month}>
              <a href={`${base}?kind=statement&month=${month}`} download className="inline-flex items-center gap-2 rounded-sm text-sm text-navy-700 hover:underline">
                <FileText aria-hidden="true" className="size-4" />
                Statement for {formatMonth(month)}
              </a>
            </li>
          ))}
        </ul>
      </Card>
    </section>
  );
}
