import type { ReactNode } from "react";
import { Detail } from "~/components/ui/detail-list";
import { formatDate, formatDateTime, formatPercent, formatUsd } from "~/domain/formats";
import type { AdminApplication } from "~/domain/views/admin-applications";
import { cn } from "~/utils/cn";

/**
 * One fact in a staff card's grid of terms (a <dl> of one, two then four columns): a muted label over the
 * value. `wide` gives it the whole row from the two-column width up, for sentences and lists.
 */
export function Fact({ label, wide, children }: { label: string; wide?: boolean; children: ReactNode }) {
  return (
    <Detail label={label} className={wide ? "min-[480px]:col-span-2 lg:col-span-4" : undefined} valueClassName="mt-0.5 font-semibold">
      {children}
    </Detail>
  );
}

/** The reasons given with a decision (denial, counteroffer) as a wide Fact, one bullet a reason. */
export function ReasonsFact({ label, reasons, listClassName, testId }: { label: string; reasons: readonly string[]; listClassName?: string; testId?: string }) {
  return (
    <Fact label={label} wide>
      <ul className={cn("list-inside list-disc", listClassName)} data-testid={testId}>
        {reasons.map((reason) => (
          <li key={reason}>{reason}</li>
        ))}
      </ul>
    </Fact>
  );
}

/** A wide Fact of free text (a reason, a source) that wraps however long it is. */
export function TextFact({ label, text, className, testId }: { label: string; text: string; className: string; testId: string }) {
  return (
    <Fact label={label} wide>
      <span className={className} data-testid={testId}>
        {text}
      </span>
    </Fact>
  );
}

/** What the applicant asked for (rate and months) and when, in the application's card and on its page. */
export function RequestedFacts({ application: a, timeZone }: { application: Pick<AdminApplication, "desiredInterestRate" | "loanDuration" | "submittedAt">; timeZone: string }) {
  return (
    <>
      <Fact label="Requested Terms">
        {formatPercent(a.desiredInterestRate)}, {a.loanDuration} months
      </Fact>
      <Fact label="Submitted">
        <time dateTime={a.submittedAt} title={formatDateTime(a.submittedAt, timeZone)}>
          {formatDate(a.submittedAt, timeZone)}
        </time>
      </Fact>
    </>
  );
}

/** What an application's decision gave: the approved loan's terms, or the reasons of a denial. */
export function DecisionFacts({ application: a }: { application: Pick<AdminApplication, "status" | "approvedLoan" | "decisionReasons"> }) {
  return (
    <>
      {a.approvedLoan ? (
        <Fact label="Approved Terms" wide>
          {formatUsd(a.approvedLoan.approvedAmount)} at {formatPercent(a.approvedLoan.interestRate)} for {a.approvedLoan.termMonths} months (
          {formatUsd(a.approvedLoan.monthlyPayment)} a month)
        </Fact>
      ) : null}
      {a.status === "denied" && a.decisionReasons.length > 0 ? <ReasonsFact label="Denial Reasons" reasons={a.decisionReasons} /> : null}
    </>
  );
}
