import { Download, Search, X } from "lucide-react";
import { Form, Link, useNavigation } from "react-router";
import { AdminShell } from "~/components/admin/admin-shell";
import { Pagination } from "~/components/admin/pagination";
import { setPageTarget, type PageTarget } from "~/domain/paging";
import { Button, buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Spinner } from "~/components/ui/spinner";
import { ScrollingTable, TableHead } from "~/components/ui/table";
import { formatDate } from "~/domain/formats";
import { formatMoney } from "~/domain/money";
import { LOAN_LIST_FILTER_LABELS, LOAN_LIST_FILTERS, type LoanListFilter, type StaffLoanList } from "~/domain/views/staff-loans";
import { cn } from "~/utils/cn";
import { LoanStatusBadge } from "./loan-status-badge";
import { DELINQUENCY_BUCKETS, type DelinquencyBucket } from "~/domain/delinquency";

/** The query string of /admin/loans for a filter (or a days-past-due bucket), search and page (defaults left out). */
export function loansSearch({ filter, q, page, bucket = null }: { filter: LoanListFilter; q: string; page: number | PageTarget; bucket?: DelinquencyBucket | null }): string {
  const params = new URLSearchParams();
  if (bucket) params.set("bucket", bucket);
  else if (filter !== "all") params.set("status", filter);
  if (q) params.set("q", q);
  setPageTarget(params, typeof page === "number" ? { page } : page);
  const s = params.toString();
  return s ? `?${s}` : "";
}

const COLUMNS = [
  "Borrower",
  "Loan Type",
  { label: "Amount", className: "text-right" },
  { label: "Balance", className: "text-right" },
  "Next Due",
  { label: "Days Past Due", className: "text-right" },
  "Delinquency",
  "Status",
] as const;

/** /admin/loans: every loan, filtered by servicing status (Current, Late, Paid in Full), searchable, paginated. */
export function LoansPage({ list }: { list: StaffLoanList }) {
  const navigation = useNavigation();
  const searching = navigation.state === "loading" && navigation.location?.pathname === "/admin/loans";
  return (
    <AdminShell
      title="Loans"
      description="Active loans, their balances and what is due; open a loan to record or reverse payments."
      actions={
        <a href="/admin/loans/tape" download className={buttonVariants({ variant: "outline" })} data-testid="export-loan-tape">
          <Download aria-hidden="true" />
          Export Loan Tape
        </a>
      }
    >
      <Card className="p-4 sm:p-5">
        <nav aria-label="Loan status">
          <ul className="flex flex-wrap gap-2">
            {LOAN_LIST_FILTERS.map((filter) => {
              const current = filter === list.filter && !list.bucket;
              return (
                <li key={filter}>
                  <Link
                    to={loansSearch({ filter, q: list.q, page: 1 }) || "/admin/loans"}
                    aria-current={current ? "page" : undefined}
                    data-testid={`loan-filter-${filter}`}
                    className={cn(
                      "inline-block rounded-full border px-3 py-1 text-sm font-medium focus-visible:outline-3 focus-visible:outline-offset-1",
                      current ? "border-primary bg-primary text-primary-foreground" : "border-border text-slate-800 hover:border-primary hover:text-primary",
                    )}
                  >
                    {LOAN_LIST_FILTER_LABELS[filter]}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
        <nav aria-label="Days past due" className="mt-3">
          <ul className="flex flex-wrap gap-2" data-testid="loan-buckets">
            {DELINQUENCY_BUCKETS.map(({ key, label }) => {
              const current = key === list.bucket;
              return (
                <li key={key}>
                  <Link
                    to={loansSearch({ filter: "all", bucket: key, q: list.q, page: 1 })}
                    aria-current={current ? "page" : undefined}
                    data-testid={`loan-bucket-${key}`}
                    className={cn(
                      "inline-block rounded-full border px-3 py-1 text-sm font-medium focus-visible:outline-3 focus-visible:outline-offset-1",
                      current ? "border-primary bg-primary text-primary-foreground" : "border-border text-slate-800 hover:border-primary hover:text-primary",
                    )}
                  >
                    {key === "current" ? label : `${label} days`} <span className="tabular-nums">({list.bucketCounts[key]})</span>
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
        {list.bucketNotice ? (
          <p role="alert" className="mt-2 text-sm font-medium text-red-700" data-testid="loan-bucket-notice">
            {list.bucketNotice}
          </p>
        ) : null}
        <Form method="get" role="search" className="mt-4 flex max-w-xl flex-col gap-2" aria-label="Search loans">
          {list.filter !== "all" ? <input type="hidden" name="status" value={list.filter} /> : null}
          {list.bucket ? <input type="hidden" name="bucket" value={list.bucket} /> : null}
          <Label htmlFor="loan-search">Search by borrower name, e-mail or loan reference</Label>
          <div className="flex gap-2">
            <Input id="loan-search" name="q" type="search" defaultValue={list.q} key={list.q} maxLength={100} autoComplete="off" placeholder="e.g. jane, @example.com or LN-1A2B3C4D" />
            <Button type="submit" aria-label="Search loans">
              {searching ? <Spinner className="size-4" /> : <Search aria-hidden="true" />}
              <span className="sr-only sm:not-sr-only">Search</span>
            </Button>
          </div>
        </Form>
        <p className="mt-3 text-sm text-muted-foreground" role="status" data-testid="loan-count">
          {list.total === 0 ? (list.q ? `No loans match "${list.q}".` : "No loans here.") : `${list.total} ${list.total === 1 ? "loan" : "loans"}${list.q ? ` matching "${list.q}"` : ""}`}
          {list.q ? (
            <>
              {" "}
              <Link to={loansSearch({ filter: list.filter, bucket: list.bucket, q: "", page: 1 }) || "/admin/loans"} className="inline-flex items-center gap-1 font-medium text-link underline-offset-4 hover:underline">
                <X aria-hidden="true" className="size-3.5" />
                Clear search
              </Link>
            </>
          ) : null}
        </p>
        {list.loans.length > 0 ? (
          <div className="mt-3">
            <h2 id="loans-table-heading" className="sr-only">
              Loans
            </h2>
            <ScrollingTable labelledBy="loans-table-heading" tableClassName="min-w-[54rem]" testId="loans-table">
              <TableHead columns={COLUMNS} className="bg-muted" cellClassName="px-3 py-2 font-semibold" />
              <tbody>
                {list.loans.map((loan) => (
                  <tr key={loan.id} className="border-t border-border" data-testid="loan-row" data-loan-id={loan.id} data-status={loan.status}>
                    <td className="px-3 py-2">
                      <Link to={`/admin/loans/${loan.id}`} className="font-medium text-link underline-offset-4 hover:underline">
                        {loan.borrowerName}
                      </Link>
                      <span className="block text-xs text-muted-foreground">
                        {loan.reference} · <span className="break-all">{loan.borrowerEmail}</span>
                      </span>
                    </td>
                    <td className="px-3 py-2">{loan.loanType}</td>
                    <td className="px-3 py-2 text-right tabular-nums">{formatMoney(loan.amountCents)}</td>
                    <td className="px-3 py-2 text-right tabular-nums">{formatMoney(loan.balanceCents)}</td>
                    <td className="px-3 py-2">{loan.nextDueDate ? <time dateTime={loan.nextDueDate}>{formatDate(`${loan.nextDueDate}T12:00:00Z`, "UTC")}</time> : "—"}</td>
                    <td className="px-3 py-2 text-right tabular-nums">{loan.daysPastDue}</td>
                    <td className="px-3 py-2" data-testid="loan-bucket">{loan.bucketLabel ?? "—"}</td>
                    <td className="px-3 py-2">
                      <LoanStatusBadge status={loan.status} label={loan.statusLabel} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </ScrollingTable>
          </div>
        ) : null}
        <Pagination
          page={list.page}
          pageCount={list.pageCount}
          cursors={list.cursors}
          label="Loan list pages"
          hrefFor={(target) => loansSearch({ filter: list.filter, bucket: list.bucket, q: list.q, page: target }) || "?"}
        />
      </Card>
    </AdminShell>
  );
}
