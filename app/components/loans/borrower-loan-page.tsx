import { Check } from "lucide-react";
import { Breadcrumb } from "~/components/ui/breadcrumb";
import { Badge, type BadgeVariant } from "~/components/ui/badge";
import { Card } from "~/components/ui/card";
import { ScrollingTable, TableHead } from "~/components/ui/table";
import type { FormToast } from "~/components/ui/form";
import { loanTypeLabel } from "~/domain/labels";
import { SCHEDULE_NOTE, type ServicingStatus } from "~/domain/loan-servicing";
import type { LoanPaymentStatus } from "~/domain/servicing-enums";
import type { MakePaymentActionData } from "~/domain/validation/make-payment";
import type { AutopayActionData } from "~/domain/validation/autopay";
import { formatAgreementDay } from "~/domain/views/agreement-preview";
import type { BorrowerLoanPage, BorrowerPaymentRow } from "~/domain/views/borrower-loan";
import { formatMoney } from "~/domain/money";
import { BorrowerDocuments } from "./borrower-documents";
import { BorrowerMakePayment } from "./borrower-make-payment";
import { ClosedOutNotice } from "./closed-out-notice";
import { BorrowerAutopay } from "./borrower-autopay";
import { BorrowerPaymentAccount } from "./borrower-payment-account";
import { BorrowerMessages } from "./borrower-messages";
import type { PaymentAccountActionData } from "~/domain/validation/payment-account-constants";
import { InstallmentCells } from "./installment-cells";
import { FundingNotice } from "./funding-notice";
import { BorrowerReturnedPayments } from "./borrower-returned-payments";
import { BorrowerHardship } from "./borrower-hardship";
import { returnCodeText } from "~/domain/views/account-validation";

const STATUS_BADGE: Record<ServicingStatus, BadgeVariant> = { current: "success", late: "warning", paid_in_full: "info", charged_off: "destructive", settled: "secondary" };
const PAYMENT_BADGE: Record<LoanPaymentStatus, BadgeVariant> = {
  pending: "warning",
  posted: "success",
  reversed: "destructive",
  returned: "destructive",
  cancelled: "secondary",
  refund_due: "warning",
  refunded: "info",
};

/** The borrower's loan page (/dashboard/loans/:id). */
export function BorrowerLoanPageView({ data, actionData }: { data: BorrowerLoanPage; actionData?: (MakePaymentActionData | PaymentAccountActionData | AutopayActionData) & { toast: FormToast } }) {
  const title = `Your ${loanTypeLabel(data.loanType)}`;
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-8 sm:px-6 sm:py-12 lg:px-8">
      <Breadcrumb crumbs={[{ label: "Dashboard", to: "/dashboard" }, { label: title }]} />
      <header className="mt-4 mb-8 flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight text-primary sm:text-4xl">{title}</h1>
          <p className="mt-1 text-sm font-medium text-muted-foreground" data-testid="loan-reference">
            Loan {data.loanReference}
          </p>
          <p className="mt-2 text-muted-foreground">
            {formatMoney(data.amountCents)} at {data.noteRatePercent}% for {data.termMonths} months, from {formatAgreementDay(data.startDate)}.
          </p>
        </div>
        {data.loanStatus === "awaiting_funding" || data.loanStatus === "cancelled" ? (
          <Badge variant={data.loanStatus === "cancelled" ? "secondary" : "warning"} data-testid="loan-status" className="text-sm">
            {data.loanStatus === "cancelled" ? "Cancelled" : "Awaiting Funding"}
          </Badge>
        ) : (
          <Badge variant={STATUS_BADGE[data.status]} data-testid="loan-status" className="text-sm">
            {data.statusLabel}
          </Badge>
        )}
      </header>

      <ClosedOutNotice status={data.status} />
      {data.funding ? (
        <section aria-labelledby="funding-heading" className="mb-8">
          <h2 id="funding-heading" className="mb-2 text-lg font-semibold text-primary">
            Funding
          </h2>
          <FundingNotice notice={data.funding} day={formatAgreementDay} />
        </section>
      ) : null}

      <section aria-labelledby="summary-heading" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <h2 id="summary-heading" className="sr-only">
          Summary
        </h2>
        <Card className="p-5 sm:col-span-2 lg:col-span-1" data-testid="next-payment">
          <h3 className="text-sm font-semibold text-muted-foreground">Next Payment</h3>
          {data.nextPayment ? (
            <>
              <p className="mt-1 text-2xl font-bold text-primary">{formatMoney(data.nextPayment.amountDueCents)}</p>
              {data.nextPayment.feesCents > 0 ? (
                <p className="text-sm" data-testid="next-payment-parts">
                  {formatMoney(data.nextPayment.installmentCents)} installment + {formatMoney(data.nextPayment.feesCents)} fees due (a payment pays fees first)
                </p>
              ) : null}
              <p className="text-sm">
                Due {formatAgreementDay(data.nextPayment.dueDate)} (installment {data.nextPayment.number})
              </p>
              {data.daysPastDue > 0 ? <p className="mt-1 text-sm font-medium text-red-800">{data.daysPastDue} days past due</p> : null}
            </>
          ) : (
            <p className="mt-1 text-lg font-semibold">None: paid in full</p>
          )}
        </Card>
        <Figure label="Principal Balance" value={formatMoney(data.principalCents)} testId="principal-balance" />
        <Figure label="Interest Accrued to Today" value={formatMoney(data.interestAccruedCents)} testId="interest-accrued" />
        <Figure label={data.feesDueCents > 0 ? "Fees Due" : "Payoff Today"} value={formatMoney(data.feesDueCents > 0 ? data.feesDueCents : data.payoffTodayCents)} testId="fees-or-payoff" />
      </section>

      <p className="mt-4 rounded-md border bg-muted/40 p-3 text-sm" data-testid="schedule-note">
        {SCHEDULE_NOTE}
      </p>

      <div className="mt-8 flex flex-col gap-10">
        {data.payable ? (
          <BorrowerMakePayment data={data} actionData={actionData?.intent === "pay" || actionData?.intent === null ? (actionData as MakePaymentActionData & { toast: FormToast }) : undefined} />
        ) : null}
        <BorrowerAutopay data={data} actionData={actionData?.intent === "setup-autopay" || actionData?.intent === "change-autopay" || actionData?.intent === "cancel-autopay" ? (actionData as AutopayActionData & { toast: FormToast }) : undefined} />
        <BorrowerHardship loanId={data.loanId} data={data.hardship} />
        <BorrowerReturnedPayments rows={data.returnedDebits} />
        <BorrowerPaymentAccount data={data} actionData={actionData?.intent === "change-account" ? actionData : undefined} />
        <BorrowerDocuments data={data} />
        <PaymentHistory rows={data.history} />
        <PaymentSchedule data={data} />
        <BorrowerMessages data={data} />
      </div>
    </div>
  );
}

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Card className="p-5" data-testid={testId}>
      <h3 className="text-sm font-semibold text-muted-foreground">{label}</h3>
      <p className="mt-1 text-2xl font-bold text-foreground">{value}</p>
    </Card>
  );
}

const CELL = "px-3 py-2 whitespace-nowrap";

function PaymentSchedule({ data }: { data: BorrowerLoanPage }) {
  return (
    <section>
      <h2 id="schedule-heading" className="mb-3 text-2xl font-bold tracking-tight text-primary">
        Payment Schedule
      </h2>
      <ScrollingTable labelledBy="schedule-heading" tableClassName="min-w-[40rem]" testId="payment-schedule">
        <TableHead
          className="bg-muted/60"
          cellClassName={CELL}
          columns={["No.", "Due Date", { label: "Amount", className: "text-right" }, { label: "Principal", className: "text-right" }, { label: "Interest", className: "text-right" }, { label: "Balance After", className: "text-right" }, "Status"]}
        />
        <tbody>
          {data.schedule.map((row) => (
            <tr key={row.number} className="border-t" data-testid="schedule-row" data-paid={row.paid ? "true" : "false"}>
              <InstallmentCells row={row} day={formatAgreementDay} cell={CELL} moneyCell={`${CELL} text-right`} />
              <td className={CELL}>
                {row.paid ? (
                  <span className="inline-flex items-center gap-1 font-medium text-green-800">
                    <Check aria-hidden="true" className="size-4" />
                    Paid
                  </span>
                ) : (
                  <span className="text-muted-foreground">Unpaid</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </ScrollingTable>
    </section>
  );
}

function allocationText(row: BorrowerPaymentRow): string {
  const a = row.allocation;
  if (!a) return row.status === "pending" ? "Applied when it settles" : row.status === "returned" ? `Returned by the bank${row.returnCode ? ` (${returnCodeText(row.returnCode)})` : ""}` : "Not applied";
  const parts = [`Fees ${formatMoney(a.feesCents)}`, `Interest ${formatMoney(a.interestCents)}`, `Principal ${formatMoney(a.principalCents)}`];
  if (a.excessCents > 0) parts.push(`Refund ${formatMoney(a.excessCents)}`);
  return parts.join(" · ");
}

function PaymentHistory({ rows }: { rows: BorrowerPaymentRow[] }) {
  return (
    <section>
      <h2 id="history-heading" className="mb-3 text-2xl font-bold tracking-tight text-primary">
        Payment History
      </h2>
      {rows.length === 0 ? (
        <p className="text-sm text-muted-foreground" data-testid="payment-history-empty">
          No payments yet.
        </p>
      ) : (
        <ScrollingTable labelledBy="history-heading" tableClassName="min-w-[44rem]" testId="payment-history">
          <TableHead className="bg-muted/60" cellClassName={CELL} columns={["Date", { label: "Amount", className: "text-right" }, "Status", "Method", "Reference", "Applied To"]} />
          <tbody>
            {rows.map((row) => (
              <tr key={row.id} className="border-t" data-testid="history-row">
                <td className={CELL}>{row.receivedOn ? formatAgreementDay(row.receivedOn) : `Made ${formatAgreementDay(row.createdAt.slice(0, 10))}`}</td>
                <td className={`${CELL} text-right`}>{formatMoney(row.amountCents)}</td>
                <td className={CELL}>
                  <Badge variant={PAYMENT_BADGE[row.status]}>{row.statusLabel}</Badge>
                </td>
                <td className={CELL}>
                  {row.methodLabel}
                  {row.account ? ` · ${row.account}` : ""}
                </td>
                <td className={CELL}>{row.reference}</td>
                <td className={`${CELL} text-xs`}>{allocationText(row)}</td>
              </tr>
            ))}
          </tbody>
        </ScrollingTable>
      )}
    </section>
  );
}
