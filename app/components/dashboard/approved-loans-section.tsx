import { ArrowRight, Banknote, Info, Plus } from "lucide-react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { Detail } from "~/components/ui/detail-list";
import { formatDate, formatPercent, formatUsd } from "~/domain/formats";
import { formatAmount } from "~/domain/money";
import { loanTypeLabel } from "~/domain/labels";
import type { DashboardLoan } from "~/domain/views/dashboard";
import { FUNDING_BUSINESS_DAYS } from "./format";
import { EmptyCard, ItemCard } from "./item-card";
import { LoanStatusBadge } from "./status-badge";
import { FundingNotice } from "~/components/loans/funding-notice";

/** The applicant's active approved loans, newest first, or the empty state; plus the funding note. */
export function ApprovedLoansSection({ loans, paidOff = [], timeZone }: { loans: DashboardLoan[]; paidOff?: DashboardLoan[]; timeZone: string }) {
  return (
    <section aria-labelledby="approved-loans-heading" id="approved-loans" className="scroll-mt-24">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <h2 id="approved-loans-heading" className="text-2xl font-bold tracking-tight text-primary">
          Approved Loans
        </h2>
        <Button asChild className="w-full sm:w-auto">
          <Link to="/apply">
            <Plus aria-hidden="true" />
            Apply for New Loan
          </Link>
        </Button>
      </div>

      {loans.length === 0 ? (
        <EmptyCard icon={Banknote}>
          <h3 className="text-lg font-semibold text-primary">No Approved Loans Yet</h3>
          <p className="max-w-md text-sm text-muted-foreground">
            When one of your applications is approved, your loan&apos;s amount, balance and monthly payment appear here.
          </p>
          <Button asChild variant="accent" className="mt-2">
            <Link to="/apply">Apply Now</Link>
          </Button>
        </EmptyCard>
      ) : (
        <ul className="mt-5 grid gap-4 lg:grid-cols-2" aria-label="Your approved loans">
          {loans.map((loan) => (
            <li key={loan.id} data-testid="approved-loan">
              <LoanCard loan={loan} timeZone={timeZone} />
            </li>
          ))}
        </ul>
      )}

      {paidOff.length > 0 ? (
        <div className="mt-6" data-testid="paid-off-loans">
          <h3 className="text-lg font-semibold text-primary">Paid in Full</h3>
          <ul className="mt-2 flex flex-col gap-2" aria-label="Your loans paid in full">
            {paidOff.map((loan) => (
              <li key={loan.id} className="flex flex-wrap items-center justify-between gap-2 rounded-lg border p-3 text-sm" data-testid="paid-off-loan">
                <span>
                  {formatAmount(loan.approvedAmount)} {loanTypeLabel(loan.loanType)}: Paid in Full
                  <span className="block text-muted-foreground" data-testid="loan-next-step">
                    Next step: {loan.nextStep}
                  </span>
                </span>
                <Link to={`/dashboard/loans/${loan.id}`} className="inline-flex items-center gap-1 font-medium text-navy-700 hover:underline">
                  View Loan
                  <ArrowRight aria-hidden="true" className="size-4" />
                </Link>
              </li>
            ))}
          </ul>
        </div>
      ) : null}

      <FundingNote />
    </section>
  );
}

function LoanCard({ loan, timeZone }: { loan: DashboardLoan; timeZone: string }) {
  const approvedOn = formatDate(loan.approvalDate, timeZone);
  return (
    <ItemCard
      className="h-full"
      heading={
        <div className="min-w-0">
          <h3 className="text-lg font-semibold text-primary">
            {formatAmount(loan.approvedAmount)} {loanTypeLabel(loan.loanType)}
          </h3>
          <p className="text-sm text-muted-foreground">
            Approved on <time dateTime={loan.approvalDate}>{approvedOn}</time>
          </p>
        </div>
      }
      badge={<LoanStatusBadge status={loan.status} />}
    >
      <dl className="mt-4 grid grid-cols-1 gap-x-6 gap-y-3 text-sm min-[400px]:grid-cols-2 sm:grid-cols-3">
        <Figure label="Approved Amount" value={formatUsd(loan.approvedAmount)} />
        <Figure label="Balance" value={formatUsd(loan.balance)} />
        <Figure label="Monthly Payment" value={formatUsd(loan.monthlyPayment)} />
        <Figure label="Interest Rate" value={formatPercent(Number(loan.interestRate))} />
        <Figure label="Term" value={`${loan.termMonths} months`} />
        <Figure label="Approval Date" value={approvedOn} />
      </dl>
      {loan.funding ? (
        <div className="mt-4">
          <FundingNotice notice={loan.funding} day={(value) => formatDate(`${value}T12:00:00Z`, "UTC")} />
        </div>
      ) : null}
      <p className="mt-4 text-sm text-slate-800" data-testid="loan-next-step">
        <strong className="font-semibold">Next step:</strong> {loan.nextStep}
      </p>
      <Button asChild variant="outline" className="mt-4 w-full sm:w-auto">
        <Link to={`/dashboard/loans/${loan.id}`} aria-label={`View Loan: ${formatAmount(loan.approvedAmount)} ${loanTypeLabel(loan.loanType)}`}>
          View Loan
          <ArrowRight aria-hidden="true" />
        </Link>
      </Button>
    </ItemCard>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Detail label={label} className="min-w-0" valueClassName="font-semibold break-words text-foreground">
      {value}
    </Detail>
  );
}

/** The funding promise (docs/requirements.md §3, §10). */
export function FundingNote() {
  return (
    <div
      role="note"
      className="mt-5 flex items-start gap-3 rounded-lg border border-navy-200 bg-navy-50 p-4 text-sm text-slate-800"
    >
      <Info aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-navy-700" />
      <p>
        Funds are credited to your account within {FUNDING_BUSINESS_DAYS} business days once all loan terms are completed and
        Loan Origination Fee Compliance is satisfied.
      </p>
    </div>
  );
}
