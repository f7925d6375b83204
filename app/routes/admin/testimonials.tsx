import { data } from "react-router";
import { TestimonialModerationPage } from "~/components/admin/moderation/testimonial-moderation-page";
import { stampedResult } from "~/domain/action-result";
import { pageMeta } from "~/content/site";
import { listPendingTestimonials, moderateTestimonial, parsePageNumber } from "~/server/public-site/moderation.server";
import { requireStaff } from "~/server/accounts/session.server";
import { assertSameOrigin } from "~/server/platform/http/origin.server";
import { readActionForm, respond } from "~/server/platform/http/action-answer.server";
import type { Route } from "./+types/testimonials";
import { requestInfo } from "~/server/platform/http/request-info.server";
import { adminLoadErrorBoundary } from "~/components/admin/page-load-error";

export { revalidateAfterPost as shouldRevalidate } from "~/components/admin/moderation/revalidate";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Testimonial Moderation", "Private Loans administration: testimonial moderation."),
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, "staff.read");
  return listPendingTestimonials({ page: parsePageNumber(new URL(request.url).searchParams.get("page")) });
}

/** Approve or reject one pending testimonial ({ id, decision }, validated and audited by the server module). */
export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const admin = await requireStaff(request, "content.moderate");
  const read = await readActionForm(request, (message) => stampedResult(false, "Moderation Failed", message), { unreadableAsEmpty: true });
  if (!read.ok) return respond(read.answer);
  const { form } = read;
  const result = await moderateTestimonial({ id: form.get("id"), decision: form.get("decision") }, admin, requestInfo(request, context));
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
}

export default function AdminTestimonialsPage({ loaderData, actionData }: Route.ComponentProps) {
  return <TestimonialModerationPage data={loaderData} actionData={actionData} />;
}

export const ErrorBoundary = adminLoadErrorBoundary("testimonials");
