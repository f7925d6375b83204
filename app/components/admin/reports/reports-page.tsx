import { Download } from "lucide-react";
import type { ReactNode } from "react";
import { Form, Link, useLocation, useNavigation } from "react-router";
import { Pagination } from "~/components/admin/pagination";
import { AdminShell } from "~/components/admin/admin-shell";
import { Button, buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Spinner } from "~/components/ui/spinner";
import { TableHead, type Column } from "~/components/ui/table";
import { formatDate } from "~/domain/formats";
import { APPLICATION_STATUS_LABELS, LOAN_TYPE_LABELS } from "~/domain/labels";
import { rangeSearch, regBPageHref, type ReportRange } from "~/domain/validation/reports";
import { formatTenths, type PipelineReport } from "~/domain/views/pipeline-report";
import { BarChart, type Bar } from "./bar-chart";
import { DelinquencySections } from "./delinquency-sections";
import type { DelinquencyReport } from "~/domain/views/delinquency-report";

const utcDay = (iso: string) => formatDate(iso, "UTC");

function Section({ id, title, chart, children, testId }: { id: string; title: string; chart?: ReactNode; children: ReactNode; testId: string }) {
  return (
    <Card className="min-w-0 p-4 sm:p-5" data-testid={testId}>
      <section aria-labelledby={id}>
        <h2 id={id} className="text-lg font-semibold text-primary">
          {title}
        </h2>
        <div className={chart ? "mt-3 grid items-start gap-6 lg:grid-cols-2" : "mt-3"}>
          {chart ? <div>{chart}</div> : null}
          {/* On a phone a wide table scrolls inside this box, which keyboard users can focus and scroll. */}
          <div className="min-w-0 overflow-x-auto" role="region" aria-label={`${title}: table`} tabIndex={0}>
            {children}
          </div>
        </div>
      </section>
    </Card>
  );
}

const td = "px-3 py-2";
const tdNum = "px-3 py-2 text-right tabular-nums";
const headCell = "px-3 py-2 text-left font-semibold";
/** A column of numbers: its header sits right, over the figures. */
const numeric = (label: string): Column => ({ label, className: "text-right" });

/** A report table: its caption, a header row of `columns`, and the rows given. */
function ReportTable({ caption, columns, testId, children }: { caption: string; columns: readonly Column[]; testId: string; children: ReactNode }) {
  return (
    <table className="w-full text-sm" data-testid={testId}>
      <caption className="mb-2 text-left text-sm text-slate-700">{caption}</caption>
      <TableHead columns={columns} className="bg-muted" cellClassName={headCell} />
      <tbody>{children}</tbody>
    </table>
  );
}

/** A row's label cell, so each figure is read with what it counts. */
function RowHead({ children }: { children: ReactNode }) {
  return (
    <th scope="row" className="px-3 py-2 text-left font-normal">
      {children}
    </th>
  );
}

/** The one row of a table with nothing in the range. */
function NoneRow({ colSpan }: { colSpan: number }) {
  return (
    <tr className="border-t border-border">
      <td colSpan={colSpan} className={td}>
        None in this range.
      </td>
    </tr>
  );
}

/** A two-column table: a label per row (th scope="row") and its number. */
function CountTable({ caption, labelHeader, valueHeader, rows, testId }: { caption: string; labelHeader: string; valueHeader: string; rows: readonly Bar[]; testId: string }) {
  return (
    <ReportTable caption={caption} columns={[labelHeader, numeric(valueHeader)]} testId={testId}>
      {rows.length === 0 ? (
        <NoneRow colSpan={2} />
      ) : (
        rows.map((r) => (
          <tr key={r.label} className="border-t border-border">
            <RowHead>{r.label}</RowHead>
            <td className={tdNum}>{r.display ?? r.value}</td>
          </tr>
        ))
      )}
    </ReportTable>
  );
}

/** /admin/reports: the pipeline in a date range, each figure drawn and tabled, the Reg B clock, and the two CSV exports. */
export function ReportsPage({ range, message, report, delinquency = null }: { range: ReportRange; message: string | null; report: PipelineReport | null; delinquency?: DelinquencyReport | null }) {
  const navigation = useNavigation();
  const { search } = useLocation();
  const applying = navigation.state === "loading" && navigation.location?.pathname === "/admin/reports";
  const query = rangeSearch(range);
  const statusBars = (report?.byStatus ?? []).map((s) => ({ label: APPLICATION_STATUS_LABELS[s.status], value: s.count }));
  const ageingBars = (report?.ageing ?? []).map((a) => ({ label: a.label, value: a.count }));
  const officerBars = (report?.perOfficer ?? []).map((o) => ({ label: o.name, value: o.total }));
  const reasonBars = (report?.denialReasons ?? []).map((r) => ({ label: r.reason, value: r.count }));
  const rateBars = (report?.approvalRate ?? []).map((r) => ({ label: LOAN_TYPE_LABELS[r.loanType], value: r.rateTenths ?? 0, display: formatTenths(r.rateTenths) }));
  return (
    <AdminShell
      title="Pipeline Reports"
      description="Applications submitted in the date range (UTC days): status, ageing, decisions and the Reg B clock."
      actions={
        message ? null : (
          <>
            <a href={`/admin/exports/applications?${query}`} download className={buttonVariants({ variant: "outline" })} data-testid="export-applications">
              <Download aria-hidden="true" />
              Export Applications CSV
            </a>
            <a href={`/admin/exports/audit?${query}`} download className={buttonVariants({ variant: "outline" })} data-testid="export-audit">
              <Download aria-hidden="true" />
              Export Audit Log CSV
            </a>
          </>
        )
      }
    >
      <Card className="p-4 sm:p-5">
        <Form method="get" className="flex flex-wrap items-end gap-3" aria-label="Date range" noValidate>
          <div className="flex flex-col gap-1">
            <Label htmlFor="report-from">From</Label>
            <Input id="report-from" name="from" type="date" defaultValue={range.from} key={`from-${range.from}`} required aria-invalid={message ? true : undefined} aria-describedby={message ? "report-range-error" : undefined} />
          </div>
          <div className="flex flex-col gap-1">
            <Label htmlFor="report-to">To</Label>
            <Input id="report-to" name="to" type="date" defaultValue={range.to} key={`to-${range.to}`} required aria-invalid={message ? true : undefined} aria-describedby={message ? "report-range-error" : undefined} />
          </div>
          <Button type="submit" data-testid="apply-range">
            {applying ? <Spinner className="size-4" /> : null}
            Apply
          </Button>
        </Form>
        <p id="report-range-error" role="alert" className="mt-2 min-h-5 text-sm font-medium text-red-700" data-testid="range-error">
          {message ?? ""}
        </p>
      </Card>

      {report ? (
        <div className="mt-6 grid gap-6">
          <Section id="report-status" title="Applications by Status" testId="report-status" chart={<BarChart title="Applications by status" bars={statusBars} />}>
            <CountTable caption={`Applications submitted ${utcDay(`${range.from}T12:00:00Z`)} to ${utcDay(`${range.to}T12:00:00Z`)}, by status`} labelHeader="Status" valueHeader="Applications" rows={statusBars} testId="table-status" />
          </Section>

          <Section id="report-ageing" title="Ageing of Undecided Applications" testId="report-ageing" chart={<BarChart title="Undecided applications by days since submission" bars={ageingBars} />}>
            <CountTable caption="Pending and under review applications, by days since submission" labelHeader="Days since submission" valueHeader="Applications" rows={ageingBars} testId="table-ageing" />
          </Section>

          <Section id="report-median" title="Median Time to Decision" testId="report-median">
            <p className="text-3xl font-bold text-primary tabular-nums" data-testid="median-days">
              {report.medianDecision.days === null ? "—" : `${report.medianDecision.days} days`}
            </p>
            <p className="mt-1 text-sm text-slate-700" data-testid="decision-count">
              From submission to decision, over {report.medianDecision.decisions} {report.medianDecision.decisions === 1 ? "decision" : "decisions"} in this range.
            </p>
          </Section>

          <Section id="report-officers" title="Decisions per Officer" testId="report-officers" chart={<BarChart title="Decisions per officer" bars={officerBars} />}>
            <ReportTable
              caption="Decisions made on applications submitted in this range, by who made them"
              columns={["Officer", numeric("Approved"), numeric("Denied"), numeric("Closed as Incomplete"), numeric("Total")]}
              testId="table-officers"
            >
              {report.perOfficer.length === 0 ? (
                <NoneRow colSpan={5} />
              ) : (
                report.perOfficer.map((o) => (
                  <tr key={o.officerId ?? "none"} className="border-t border-border">
                    <RowHead>{o.name}</RowHead>
                    <td className={tdNum}>{o.approved}</td>
                    <td className={tdNum}>{o.denied}</td>
                    <td className={tdNum}>{o.incomplete}</td>
                    <td className={tdNum}>{o.total}</td>
                  </tr>
                ))
              )}
            </ReportTable>
          </Section>

          <Section id="report-reasons" title="Denial Reasons" testId="report-reasons" chart={<BarChart title="Denial reasons, most frequent first" bars={reasonBars} />}>
            <CountTable caption="Reasons given with denials, most frequent first (a denial can give several)" labelHeader="Reason" valueHeader="Denials" rows={reasonBars} testId="table-reasons" />
          </Section>

          <Section id="report-approval-rate" title="Approval Rate by Loan Type" testId="report-approval-rate" chart={<BarChart title="Approval rate by loan type, percent" bars={rateBars} max={1000} />}>
            <ReportTable caption="Approved out of decided applications, by loan type" columns={["Loan Type", numeric("Approved"), numeric("Decided"), numeric("Approval Rate")]} testId="table-approval-rate">
              {report.approvalRate.map((r) => (
                <tr key={r.loanType} className="border-t border-border">
                  <RowHead>{LOAN_TYPE_LABELS[r.loanType]}</RowHead>
                  <td className={tdNum}>{r.approved}</td>
                  <td className={tdNum}>{r.decided}</td>
                  <td className={tdNum}>{formatTenths(r.rateTenths)}</td>
                </tr>
              ))}
            </ReportTable>
          </Section>

          <Section id="report-reg-b" title="Reg B Clock" testId="report-reg-b">
            <p className="text-sm text-slate-700" data-testid="reg-b-count">
              {report.regB.count === 0
                ? "No application has been complete for 25 days or more without a decision."
                : `${report.regB.count} ${report.regB.count === 1 ? "application has" : "applications have"} been complete for 25 days or more without a decision (all open applications, whatever the date range). The notice of action is due within 30 days of a complete application.`}
            </p>
            {report.regB.items.length > 0 ? (
              <table className="mt-3 w-full min-w-[40rem] text-sm" data-testid="table-reg-b">
                <caption className="sr-only">Applications flagged by the Reg B clock, oldest first</caption>
                <TableHead columns={["Applicant", "Loan Type", "Complete Since", "Decide By", numeric("Days Left")]} className="bg-muted" cellClassName={headCell} />
                <tbody>
                  {report.regB.items.map((item) => (
                    <tr key={item.id} className="border-t border-border" data-testid="reg-b-row" data-application-id={item.id}>
                      <RowHead>
                        <Link to={`/admin/applications/${item.id}`} className="font-medium text-link underline-offset-4 hover:underline">
                          {item.applicantName}
                        </Link>
                      </RowHead>
                      <td className={td}>{LOAN_TYPE_LABELS[item.loanType]}</td>
                      <td className={td}>
                        <time dateTime={item.completeSince}>{utcDay(item.completeSince)}</time>
                      </td>
                      <td className={td}>
                        <time dateTime={item.decideBy}>{utcDay(item.decideBy)}</time>
                      </td>
                      <td className={tdNum}>{item.daysLeft < 0 ? `${-item.daysLeft} overdue` : item.daysLeft}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
            <Pagination
              page={report.regB.page}
              pageCount={report.regB.pageCount}
              cursors={report.regB.cursors}
              hrefFor={(target) => regBPageHref(search, target)}
              label="Reg B Clock pages"
            />
          </Section>
        </div>
      ) : null}
      {delinquency ? <DelinquencySections report={delinquency} /> : null}
    </AdminShell>
  );
}
