import type { Page, PendingTestimonial } from "~/domain/admin-lists";
import { Check, MessageSquareQuote, X } from "lucide-react";
import { Form } from "react-router";
import { AdminShell } from "~/components/admin/admin-shell";
import { formatDateTime } from "~/domain/formats";
import { useDisplayTimeZone } from "~/components/dashboard/format";
import { StarRating } from "~/components/testimonials/star-rating";
import { Button } from "~/components/ui/button";
import { Pagination, targetPage } from "~/components/admin/pagination";
import { ModerationCard, useSubmittingItem } from "./moderation-card";
import { useActionToast } from "~/components/action-toast";
import type { StampedResult } from "~/domain/action-result";

export type ModerationPageData = Omit<Page<PendingTestimonial>, "pageSize">;

function TestimonialReview({ item, timeZone }: { item: PendingTestimonial; timeZone: string }) {
  const posted = useSubmittingItem(item.id);
  const submitting = posted !== null;
  const decision = posted?.get("decision") ?? null;
  return (
    <ModerationCard
      headingId={`testimonial-${item.id}`}
      testId="pending-testimonial"
      heading={item.displayName}
      byline={
        <>
          {item.role}
          {item.location ? ` · ${item.location}` : ""}
        </>
      }
      aside={<StarRating rating={item.rating} />}
    >
      <blockquote className="mt-4 border-l-4 border-gold-400 pl-4 break-words whitespace-pre-wrap text-slate-900">{item.content}</blockquote>
      <dl className="mt-4 grid gap-x-6 gap-y-1 text-sm text-slate-700 sm:grid-cols-3">
        <div className="min-w-0">
          <dt className="font-medium text-slate-900">Full name</dt>
          <dd className="break-words">{item.fullName}</dd>
        </div>
        <div className="min-w-0">
          <dt className="font-medium text-slate-900">Account</dt>
          <dd className="break-all">{item.authorEmail ?? "Deleted account"}</dd>
        </div>
        <div className="min-w-0">
          <dt className="font-medium text-slate-900">Submitted</dt>
          <dd>
            <time dateTime={item.createdAt}>{formatDateTime(item.createdAt, timeZone, { zone: true })}</time>
          </dd>
        </div>
      </dl>
      <Form method="post" className="mt-5 flex flex-wrap gap-2">
        <input type="hidden" name="id" value={item.id} />
        <Button type="submit" name="decision" value="approve" disabled={submitting}>
          <Check aria-hidden="true" />
          {decision === "approve" ? "Approving…" : "Approve"}
          <span className="sr-only"> testimonial from {item.displayName}</span>
        </Button>
        <Button type="submit" name="decision" value="reject" variant="outline" disabled={submitting}>
          <X aria-hidden="true" />
          {decision === "reject" ? "Rejecting…" : "Reject"}
          <span className="sr-only"> testimonial from {item.displayName}</span>
        </Button>
      </Form>
    </ModerationCard>
  );
}

/** /admin/testimonials: pending testimonials, newest first, 20 a page, each approved or rejected once. */
export function TestimonialModerationPage({ data, actionData }: { data: ModerationPageData; actionData: StampedResult | undefined }) {
  const timeZone = useDisplayTimeZone();
  useActionToast(actionData);
  return (
    <AdminShell
      title="Testimonial Moderation"
      description={`${data.total} pending ${data.total === 1 ? "testimonial" : "testimonials"}. Approved ones are published on the Testimonials page.`}
    >
      {data.items.length === 0 ? (
        <p className="flex flex-col items-center gap-3 rounded-xl border border-dashed border-border p-10 text-center text-muted-foreground">
          <MessageSquareQuote aria-hidden="true" className="size-8" />
          No testimonials are waiting for review.
        </p>
      ) : (
        <div className="grid gap-4 lg:grid-cols-2">
          {data.items.map((item) => (
            <TestimonialReview key={item.id} item={item} timeZone={timeZone} />
          ))}
        </div>
      )}
      <Pagination page={data.page} pageCount={data.pageCount} hrefFor={(target) => `?page=${targetPage(target)}`} label="Pending testimonials pages" />
    </AdminShell>
  );
}
