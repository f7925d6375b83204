import { data } from "react-router";
import { TestimonialModerationPage } from "~/components/admin/moderation/testimonial-moderation-page";
import { stampedResult } from "~/domain/action-result";
import { privatePageMeta } from "~/content/private-page-meta";
import { listPendingTestimonials, moderateTestimonial, parsePageNumber } from "~/server/public-site/index.server";
import { readActionForm, respond } from "~/server/platform/http/action-answer.server";
import type { Route } from "./+types/testimonials";
import { callerOf } from "~/server/platform/http/request-info.server";
import { adminLoadErrorBoundary } from "~/components/admin/page-load-error";
import { staffWith } from "~/server/accounts/index.server";
import { defineAction, defineLoader } from "~/server/platform/http/define-route.server";

export { revalidateAfterPost as shouldRevalidate } from "~/components/admin/moderation/revalidate";

export const meta: Route.MetaFunction = () => privatePageMeta("Testimonial Moderation", "Private Loans administration: testimonial moderation.");

export const loader = defineLoader({
  guard: staffWith("staff.read"),
  handle: async ({ request }: Route.LoaderArgs) => listPendingTestimonials({ page: parsePageNumber(new URL(request.url).searchParams.get("page")) }),
});

/** Approve or reject one pending testimonial ({ id, decision }, validated and audited by the server module). */
export const action = defineAction({
  guard: staffWith("content.moderate"),
  handle: async ({ request, context }: Route.ActionArgs, admin) => {
    const read = await readActionForm(request, (message) => stampedResult(false, "Moderation Failed", message), { unreadableAsEmpty: true });
    if (!read.ok) return respond(read.answer);
    const { form } = read;
    const result = await moderateTestimonial({ id: form.get("id"), decision: form.get("decision") }, callerOf(admin, request, context));
    if (result.ok) {
      const approved = result.status === "approved";
      return data(
        approved
          ? stampedResult(true, "Testimonial Approved", "It is now published on the Testimonials page.")
          : stampedResult(true, "Testimonial Rejected", "It will not be published."),
      );
    }
    const conflict = result.reason === "conflict";
    return data(stampedResult(false, conflict ? "Already Moderated" : "Moderation Failed", result.message), { status: conflict ? 409 : 400 });
  },
});

export default function AdminTestimonialsPage({ loaderData, actionData }: Route.ComponentProps) {
  return <TestimonialModerationPage data={loaderData} actionData={actionData} />;
}

export const ErrorBoundary = adminLoadErrorBoundary("testimonials");
