import { data, type ShouldRevalidateFunctionArgs } from "react-router";
import type { AdminActionData } from "~/components/admin/moderation/use-action-toast";
import { TestimonialModerationPage } from "~/components/admin/moderation/testimonial-moderation-page";
import { pageMeta } from "~/content/site";
import { listPendingTestimonials, moderateTestimonial, parsePageNumber } from "~/server/admin/moderation.server";
import { requireAdmin } from "~/server/auth/session.server";
import { assertSameOrigin } from "~/server/http/origin.server";
import { readForm, SMALL_FORM_MAX_BYTES } from "~/server/http/read-body.server";
import type { Route } from "./+types/testimonials";
import { requestInfo } from "~/server/http/request-info.server";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Testimonial Moderation", "Private Loans administration: testimonial moderation."),
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return listPendingTestimonials({ page: parsePageNumber(new URL(request.url).searchParams.get("page")) });
}

/** Approve or reject one pending testimonial ({ id, decision }, validated and audited by the server module). */
export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const admin = await requireAdmin(request);
  const read = await readForm(request, SMALL_FORM_MAX_BYTES);
  if (!read.ok && read.status === 413) {
    return data<AdminActionData>({ ok: false, title: "Moderation Failed", description: read.message, at: Date.now() }, { status: 413 });
  }
  const form = read.ok ? read.value : null;
  const result = await moderateTestimonial(
    { id: form?.get("id"), decision: form?.get("decision") },
    admin,
    requestInfo(request, context),
  );
  const at = Date.now();
  if (result.ok) {
    const approved = result.status === "approved";
    return data<AdminActionData>({
      ok: true,
      title: approved ? "Testimonial Approved" : "Testimonial Rejected",
      description: approved ? "It is now published on the Testimonials page." : "It will not be published.",
      at,
    });
  }
  return data<AdminActionData>(
    { ok: false, title: result.reason === "conflict" ? "Already Moderated" : "Moderation Failed", description: result.message, at },
    { status: result.reason === "conflict" ? 409 : 400 },
  );
}

/** After a decision (even a refused one) the list is read again, so a card decided elsewhere goes away. */
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod?.toUpperCase() === "POST" ? true : defaultShouldRevalidate;
}

export default function AdminTestimonialsPage({ loaderData, actionData }: Route.ComponentProps) {
  return <TestimonialModerationPage data={loaderData} actionData={actionData} />;
}
