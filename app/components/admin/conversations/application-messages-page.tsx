import { MessagesSquare } from "lucide-react";
import { Link } from "react-router";
import { AdminShell } from "~/components/admin/admin-shell";
import { Pagination } from "~/components/admin/pagination";
import { useDisplayTimeZone } from "~/components/dashboard/format";
import { ApplicationStatusBadge } from "~/components/dashboard/status-badge";
import { Card } from "~/components/ui/card";
import { formatDateTime } from "~/domain/formats";
import { loanTypeLabel } from "~/domain/labels";
import { setPageTarget } from "~/domain/paging";
import type { StaffConversationList } from "~/domain/views/staff-conversations";

/**
 * /admin/conversations, "Application Messages": each application's conversation with its applicant,
 * those with messages this staff member has not read first, the latest message shown, and a link to
 * the application's thread (its Messages panel). The contact form's messages are the Contact Inbox.
 */
export function ApplicationMessagesPage({ data }: { data: StaffConversationList }) {
  const timeZone = useDisplayTimeZone();
  return (
    <AdminShell title="Application Messages" description="Conversations with applicants about their applications, unread first. The contact form's messages are in the Contact Inbox.">
      {data.rows.length === 0 ? (
        <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed border-border p-10 text-center">
          <MessagesSquare aria-hidden="true" className="size-8 text-navy-700" />
          <p className="font-semibold text-primary">No application messages yet</p>
        </div>
      ) : (
        <ul className="flex flex-col gap-3" aria-label={`Application conversations, page ${data.page} of ${data.pageCount}`}>
          {data.rows.map((row) => {
            const headingId = `conversation-${row.applicationId}`;
            return (
              <li key={row.applicationId}>
                <Card className="p-4 sm:p-5" role="article" aria-labelledby={headingId} data-testid="conversation-row" data-application-id={row.applicationId} data-unread={row.unread}>
                  <div className="flex flex-wrap items-start justify-between gap-3">
                    <div className="min-w-0">
                      <h2 id={headingId} className="text-base font-semibold break-words text-primary">
                        <Link to={`/admin/applications/${row.applicationId}#messages`} className="text-link underline-offset-4 hover:underline">
                          {row.applicantName}
                        </Link>
                      </h2>
                      <p className="text-sm text-slate-700">{loanTypeLabel(row.loanType)}</p>
                    </div>
                    <div className="flex flex-wrap items-center gap-2">
                      {row.unread > 0 ? (
                        <span className="rounded-full bg-navy-900 px-2.5 py-0.5 text-xs font-semibold text-white" data-testid="conversation-unread">
                          {row.unread} unread {row.unread === 1 ? "message" : "messages"}
                        </span>
                      ) : null}
                      <ApplicationStatusBadge status={row.status} />
                    </div>
                  </div>
                  <p className="mt-3 text-sm text-slate-800">
                    <span className="font-semibold">{row.latest.side === "applicant" ? "Applicant" : "Staff"}</span>
                    {", "}
                    <time dateTime={row.latest.at}>{formatDateTime(row.latest.at, timeZone)}</time>:{" "}
                    <span className="break-words whitespace-pre-line" data-testid="conversation-latest">
                      {row.latest.body}
                    </span>
                  </p>
                </Card>
              </li>
            );
          })}
        </ul>
      )}
      <Pagination page={data.page} pageCount={data.pageCount} hrefFor={(target) => `?${setPageTarget(new URLSearchParams(), target).toString()}`} label="Conversation pages" />
    </AdminShell>
  );
}
