import { Link } from "react-router";
import { Card } from "~/components/ui/card";
import { TableHead, type Column } from "~/components/ui/table";
import { formatShare } from "~/domain/delinquency-ranges";
import { formatDate } from "~/domain/formats";
import { formatMoney } from "~/domain/money";
import type { DelinquencyReport } from "~/domain/views/delinquency-report";
import { BarChart } from "./bar-chart";

const utcDay = (day: string) => formatDate(`${day}T12:00:00Z`, "UTC");
const td = "px-3 py-2";
const tdNum = "px-3 py-2 text-right tabular-nums";
const headCell = "px-3 py-2 text-left font-semibold";
const numeric = (label: string): Column => ({ label, className: "text-right" });

/**
 * The reports page's loan-book sections: Delinquency (active loans by days past due, count and
 * principal, at the newest close the delinquency job measured) and Roll Rates (of the loans in each
 * bucket at one month end, the share in the next worse bucket at the next). Not tied to the page's
 * date range: the figures are the book's, as of the day shown.
 */
export function DelinquencySections({ report }: { report: DelinquencyReport }) {
  const bars = report.buckets.map((b) => ({ label: b.label, value: b.loans }));
  return (
    <div className="mt-6 grid gap-6">
      <Card className="min-w-0 p-4 sm:p-5" data-testid="report-delinquency">
        <section aria-labelledby="report-delinquency-heading">
          <h2 id="report-delinquency-heading" className="text-lg font-semibold text-primary">
            Delinquency
          </h2>
          <p className="mt-1 text-sm text-slate-700" data-testid="delinquency-as-of">
            {report.asOf
              ? `Active loans by days past due at the close of ${utcDay(report.asOf)} (UTC), measured by the servicing job at the first run of each day.`
              : "Not measured yet: the servicing job measures the loan book at its first run of each day."}
          </p>
          {report.asOf ? (
            <div className="mt-3 grid items-start gap-6 lg:grid-cols-2">
              <div>
                <BarChart title="Active loans by days past due" bars={bars} />
              </div>
              <div className="min-w-0 overflow-x-auto" role="region" aria-label="Delinquency: table" tabIndex={0}>
                <table className="w-full text-sm" data-testid="table-delinquency">
                  <caption className="mb-2 text-left text-sm text-slate-700">Active loans and their principal balance, by days past due</caption>
                  <TableHead columns={["Days Past Due", numeric("Loans"), numeric("Principal"), numeric("Share of Principal")]} className="bg-muted" cellClassName={headCell} />
                  <tbody>
                    {report.buckets.map((b) => (
                      <tr key={b.bucket} className="border-t border-border" data-testid="delinquency-row" data-bucket={b.bucket}>
                        <th scope="row" className="px-3 py-2 text-left font-normal">
                          <Link to={`/admin/loans?bucket=${encodeURIComponent(b.bucket)}`} className="font-medium text-link underline-offset-4 hover:underline">
                            {b.label}
                          </Link>
                        </th>
                        <td className={tdNum} data-testid="delinquency-loans">{b.loans}</td>
                        <td className={tdNum} data-testid="delinquency-principal">{formatMoney(b.principalCents)}</td>
                        <td className={tdNum}>{formatShare(b.principalCents, report.totalPrincipalCents)}</td>
                      </tr>
                    ))}
                    <tr className="border-t-2 border-border font-semibold">
                      <th scope="row" className="px-3 py-2 text-left">
                        Total
                      </th>
                      <td className={tdNum}>{report.totalLoans}</td>
                      <td className={tdNum}>{formatMoney(report.totalPrincipalCents)}</td>
                      <td className={tdNum}>{report.totalPrincipalCents > 0 ? "100.0 %" : "—"}</td>
                    </tr>
                  </tbody>
                </table>
              </div>
            </div>
          ) : null}
        </section>
      </Card>

      <Card className="min-w-0 p-4 sm:p-5" data-testid="report-roll-rates">
        <section aria-labelledby="report-roll-rates-heading">
          <h2 id="report-roll-rates-heading" className="text-lg font-semibold text-primary">
            Roll Rates
          </h2>
          <p className="mt-1 text-sm text-slate-700">
            Of the loans in each range at one month end, the share (by count, and by principal then) in the next worse range at the next month end; cured: delinquent then, current now.
          </p>
          {report.rolls.length === 0 ? (
            <p className="mt-3 text-sm" data-testid="roll-rates-none">
              No roll rates yet: they need two month ends measured in a row.
            </p>
          ) : (
            <div className="mt-3 min-w-0 overflow-x-auto" role="region" aria-label="Roll Rates: table" tabIndex={0}>
              <table className="w-full min-w-[56rem] text-sm" data-testid="table-roll-rates">
                <caption className="mb-2 text-left text-sm text-slate-700">Month-over-month roll rates, newest month first: loans (principal)</caption>
                <TableHead
                  columns={["Month End", ...report.rolls[0]!.rates.map((r) => numeric(`${r.fromLabel} → ${r.toLabel}`)), numeric("Cured"), numeric("Paid Off")]}
                  className="bg-muted"
                  cellClassName={headCell}
                />
                <tbody>
                  {report.rolls.map((month) => (
                    <tr key={month.asOf} className="border-t border-border" data-testid="roll-rate-row" data-as-of={month.asOf}>
                      <th scope="row" className="px-3 py-2 text-left font-normal">
                        <time dateTime={month.asOf}>{utcDay(month.asOf)}</time>
                      </th>
                      {month.rates.map((r) => (
                        <td key={r.from} className={tdNum} data-testid={`roll-${r.from}`} title={`${r.rolledLoans} of ${r.baseLoans} loans`}>
                          {formatShare(r.rolledLoans, r.baseLoans)}
                          <span className="block text-xs text-muted-foreground">({formatShare(r.rolledPrincipalCents, r.basePrincipalCents)})</span>
                        </td>
                      ))}
                      <td className={tdNum} data-testid="roll-cured">{formatShare(month.cured.loans, month.cured.baseLoans)}</td>
                      <td className={td + " text-right tabular-nums"} data-testid="roll-paid-off">{formatShare(month.paidOff.loans, month.paidOff.baseLoans)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      </Card>
    </div>
  );
}
