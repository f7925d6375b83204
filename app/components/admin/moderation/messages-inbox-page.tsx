import type { InboxMessage } from "~/domain/admin-lists";
import { Archive, ArchiveRestore, Inbox, MailOpen } from "lucide-react";
import { Form, Link } from "react-router";
import { AdminShell } from "~/components/admin/admin-shell";
import { formatDateTime } from "~/domain/formats";
import { useDisplayTimeZone } from "~/components/dashboard/format";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { formatPhone } from "~/domain/formats";
import { cn } from "~/utils/cn";
import { Pagination } from "~/components/admin/pagination";
import { setPageTarget, type PageCursors } from "~/domain/paging";
import { ModerationCard, useSubmittingItem } from "./moderation-card";
import { useActionToast } from "~/components/action-toast";
import type { StampedResult } from "~/domain/action-result";

export type InboxPageData = {
  items: InboxMessage[];
  page: number;
  pageCount: number;
  cursors: PageCursors;
  total: number;
  view: "inbox" | "archived";
  unread: number;
};

const STATUS_BADGE = {
  new: { label: "New", variant: "info" },
  read: { label: "Read", variant: "secondary" },
  archived: { label: "Archived", variant: "outline" },
} as const;

function MessageCard({ item, timeZone }: { item: InboxMessage; timeZone: string }) {
  const submitting = useSubmittingItem(item.id) !== null;
  const badge = STATUS_BADGE[item.status];
  return (
    <ModerationCard
      headingId={`message-${item.id}`}
      testId="contact-message"
      className={cn(item.status === "new" && "border-l-4 border-l-primary")}
      heading={item.subject}
      byline={
        <>
          From <span className="font-medium text-slate-900">{item.name}</span>,{" "}
          <time dateTime={item.createdAt}>{formatDateTime(item.createdAt, timeZone, { zone: true })}</time>
        </>
      }
      aside={<Badge variant={badge.variant}>{badge.label}</Badge>}
    >
      <p className="mt-4 break-words whitespace-pre-wrap text-slate-900">{item.message}</p>
      <dl className="mt-4 flex flex-wrap gap-x-6 gap-y-1 text-sm text-slate-700">
        <div className="min-w-0">
          <dt className="inline font-medium text-slate-900">E-mail: </dt>
          <dd className="inline break-all">
            <a className="text-link underline-offset-4 hover:underline" href={`mailto:${item.email}`}>
              {item.email}
            </a>
          </dd>
        </div>
        {item.phone ? (
          <div>
            <dt className="inline font-medium text-slate-900">Phone: </dt>
            <dd className="inline">
              <a className="text-link underline-offset-4 hover:underline" href={`tel:+1${item.phone}`}>
                {formatPhone(item.phone)}
              </a>
            </dd>
          </div>
        ) : null}
      </dl>
      <Form method="post" className="mt-5 flex flex-wrap gap-2">
        <input type="hidden" name="id" value={item.id} />
        {item.status === "new" ? (
          <Button type="submit" name="status" value="read" size="sm" disabled={submitting}>
            <MailOpen aria-hidden="true" /> Mark as Read<span className="sr-only">: {item.subject}</span>
          </Button>
        ) : null}
        {item.status === "archived" ? (
          <Button type="submit" name="status" value="read" size="sm" variant="outline" disabled={submitting}>
            <ArchiveRestore aria-hidden="true" /> Move to Inbox<span className="sr-only">: {item.subject}</span>
          </Button>
        ) : (
          <Button type="submit" name="status" value="archived" size="sm" variant="outline" disabled={submitting}>
            <Archive aria-hidden="true" /> Archive<span className="sr-only">: {item.subject}</span>
          </Button>
        )}
      </Form>
    </ModerationCard>
  );
}

/** /admin/messages: contact-form messages, newest first, 20 a page; inbox (new and read) or archived. */
export function MessagesInboxPage({ data, actionData }: { data: InboxPageData; actionData: StampedResult | undefined }) {
  const timeZone = useDisplayTimeZone();
  useActionToast(actionData);
  const views = [
    { view: "inbox", label: data.unread > 0 ? `Inbox (${data.unread} new)` : "Inbox", to: "?view=inbox" },
    { view: "archived", label: "Archived", to: "?view=archived" },
  ] as const;
  return (
    <AdminShell title="Contact Inbox" description="Messages sent through the contact form. Every page you read is recorded in the audit log.">
      <nav aria-label="Message folders" className="mb-6">
        <ul className="flex flex-wrap gap-2">
          {views.map((v) => (
            <li key={v.view}>
              <Link
                to={v.to}
                aria-current={data.view === v.view ? "page" : undefined}
                className={cn(
                  "inline-flex h-9 items-center gap-2 rounded-md border px-3 text-sm font-semibold",
                  data.view === v.view ? "border-primary bg-primary text-primary-foreground" : "border-primary bg-background text-primary hover:bg-navy-50",
                )}
              >
                {v.view === "inbox" ? <Inbox aria-hidden="true" className="size-4" /> : <Archive aria-hidden="true" className="size-4" />}
                {v.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {data.items.length === 0 ? (
        <p className="rounded-xl border border-dashed border-border p-10 text-center text-muted-foreground">
          {data.view === "archived" ? "No archived messages." : "No messages in the inbox."}
        </p>
      ) : (
        <div className="grid gap-4">
          {data.items.map((item) => (
            <MessageCard key={item.id} item={item} timeZone={timeZone} />
          ))}
        </div>
      )}
      <Pagination
        page={data.page}
        pageCount={data.pageCount}
        cursors={data.cursors}
        hrefFor={(target) => `?${setPageTarget(new URLSearchParams({ view: data.view }), target).toString()}`}
        label="Message pages"
      />
    </AdminShell>
  );
}
