import * as checkIcon from "lucide-react/icons/check";
import * as xIcon from "lucide-react/icons/x";
import type { MouseEvent } from "react";
import { Link } from "react-router";
import { isOpenForReview } from "~/domain/application-lifecycle";
import { employmentLabel, loanTypeLabel, statedIncome } from "~/domain/labels";
import { ApplicationStatusBadge } from "~/components/dashboard/status-badge";
import { Button, buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { inlineIcon } from "~/components/ui/inline-icon";
import { displayPhone, formatDate, formatDateTime } from "~/domain/formats";
import { formatAmount, formatMoney } from "~/domain/money";
import type { AdminApplication } from "~/domain/views/admin-applications";
import { NotesSection } from "./notes-form";
import { DecisionFacts, Fact, RequestedFacts } from "~/components/admin/fact";

// Thirty of these on a page of the list: drawn from static markup (see inline-icon.tsx).
const Check = inlineIcon(checkIcon);
const X = inlineIcon(xIcon);

/**
 * One application on /admin (docs/requirements.md §3): applicant name, e-mail, status, loan type, requested amount,
 * purpose, the income as stated (annual, else monthly, labelled), credit score, employment status, phone and submitted date; once approved, the
 * latest loan offer (status, Counteroffer, terms) until it is signed, then the loan. Never the SSN or
 * bank numbers (the server does not even select them). Approve and Deny while pending or under review;
 * "View Application" opens the whole file (/admin/applications/:id), with the unread messages' count.
 * While an approval waits for a second staff member it says "Waiting for confirmation" and Approve is
 * not offered; staff who may confirm (not the proposer) get a link to Confirm or Send Back on the
 * application page. The proposer never gets one: the server refuses their confirmation anyway.
 */
export function ApplicationCard({
  application: a,
  timeZone,
  onApprove,
  onDeny,
  canWork = true,
}: {
  application: AdminApplication;
  timeZone: string;
  onApprove: (application: AdminApplication, opener: HTMLElement) => void;
  onDeny: (application: AdminApplication, opener: HTMLElement) => void;
  /** Approve and Deny only for roles that work applications (the server refuses the others). */
  canWork?: boolean;
}) {
  const waiting = a.awaitingConfirmation ?? null;
  const open = isOpenForReview(a.status) && canWork;
  const income = statedIncome(a);
  const headingId = `application-${a.id}-name`;
  return (
    <Card className="p-5 sm:p-6" data-testid="application-card" data-application-id={a.id} aria-labelledby={headingId} role="article">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 id={headingId} className="text-lg font-semibold break-words text-primary">
            {a.applicantName}
          </h3>
          <p className="text-sm break-all text-slate-700">{a.email}</p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {a.regBDueAt ? (
            <span className="rounded-full bg-red-100 px-2.5 py-0.5 text-xs font-semibold text-red-900" data-testid="reg-b-flag">
              <span className="sr-only">Regulation B notice of action due: complete 25 days or more with no decision. </span>
              Reg B: decide by {formatDate(a.regBDueAt, timeZone)}
            </span>
          ) : null}
          {a.unreadMessages > 0 ? (
            <span className="rounded-full bg-navy-900 px-2.5 py-0.5 text-xs font-semibold text-white" data-testid="unread-messages">
              {a.unreadMessages} unread {a.unreadMessages === 1 ? "message" : "messages"}
            </span>
          ) : null}
          {waiting ? (
            <span className="rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-semibold text-amber-900" data-testid="card-awaiting-confirmation">
              Waiting for confirmation
            </span>
          ) : null}
          <ApplicationStatusBadge status={a.status} />
        </div>
      </div>

      <dl className="mt-4 grid grid-cols-1 gap-x-6 gap-y-3 text-sm min-[480px]:grid-cols-2 lg:grid-cols-4">
        <Fact label="Loan Type">{loanTypeLabel(a.loanType)}</Fact>
        <Fact label="Requested Amount">{formatAmount(a.requestedAmount)}</Fact>
        <Fact label={income.label}>
          <span data-testid="card-income">{formatAmount(income.amount)}</span>
        </Fact>
        <Fact label="Credit Score">{a.creditScore ?? "—"}</Fact>
        <Fact label="Employment Status">{employmentLabel(a.employmentStatus)}</Fact>
        <Fact label="Phone">{displayPhone(a.phone) ?? "—"}</Fact>
        <RequestedFacts application={a} timeZone={timeZone} />
        <Fact label="Assigned To">
          <span data-testid="card-assigned-to">{a.assignedTo ? a.assignedTo.name : "Unassigned"}</span>
        </Fact>
        <Fact label="Purpose" wide>
          <span className="break-words whitespace-pre-line">{a.purpose}</span>
        </Fact>
        {a.reviewedAt ? (
          <Fact label="Reviewed">
            <time dateTime={a.reviewedAt}>{formatDateTime(a.reviewedAt, timeZone)}</time>
          </Fact>
        ) : null}
        {a.latestOffer && !a.approvedLoan ? (
          <Fact label="Loan Offer" wide>
            <span className="flex flex-wrap items-center gap-2" data-testid="card-offer" data-offer-status={a.latestOffer.status}>
              <span className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-semibold text-slate-900">{a.latestOffer.statusLabel}</span>
              {a.latestOffer.isCounteroffer ? (
                <span className="rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-semibold text-amber-900">Counteroffer</span>
              ) : null}
              <span>
                {formatMoney(a.latestOffer.amountCents)} at {a.latestOffer.noteRatePercent}% for {a.latestOffer.termMonths} months ({formatMoney(a.latestOffer.paymentCents)} a
                month)
              </span>
            </span>
          </Fact>
        ) : null}
        <DecisionFacts application={a} />
      </dl>

      <div className="mt-5 flex flex-col gap-2 sm:flex-row">
        <Link to={`/admin/applications/${a.id}`} className={buttonVariants({ variant: "outline" })} data-action="view">
          View Application<span className="sr-only"> from {a.applicantName}</span>
        </Link>
        {open && waiting && !waiting.mine ? (
          <Link to={`/admin/applications/${a.id}`} className={buttonVariants({ className: "bg-green-700 text-white hover:bg-green-800" })} data-action="review-approval">
            Confirm or Send Back<span className="sr-only"> the approval for {a.applicantName}</span>
          </Link>
        ) : null}
        {open ? (
          <>
            {waiting ? null : (
              <Button
                onClick={(event: MouseEvent<HTMLButtonElement>) => onApprove(a, event.currentTarget)}
                className="bg-green-700 text-white hover:bg-green-800"
                data-action="approve"
              >
                <Check />
                Approve<span className="sr-only"> the application from {a.applicantName}</span>
              </Button>
            )}
            <Button variant="destructive" onClick={(event: MouseEvent<HTMLButtonElement>) => onDeny(a, event.currentTarget)} data-action="deny">
              <X />
              Deny<span className="sr-only"> the application from {a.applicantName}</span>
            </Button>
          </>
        ) : null}
      </div>

      <NotesSection applicationId={a.id} applicantName={a.applicantName} notes={a.notes} />
    </Card>
  );
}

