import { CollectionsPage } from "~/components/admin/collections/collections-page";
import { loanLoadErrorBoundary } from "~/components/admin/loans/load-error";
import { privatePageMeta } from "~/content/private-page-meta";
import { respond } from "~/server/platform/http/action-answer.server";
import { callerOf } from "~/server/platform/http/request-info.server";
import { collectionsAction, collectionsQueuePage, parseCollectionsUrl } from "~/server/loans/index.server";
import type { Route } from "./+types/collections";
import { staffWith } from "~/server/accounts/index.server";
import { defineAction, defineLoader } from "~/server/platform/http/define-route.server";

export const meta: Route.MetaFunction = () => privatePageMeta("Collections", "Private Loans administration: late loans to work, oldest first.");

/** Admins and loan officers (collections.work); the read is audited ('collections.queue_view'). ?show=all|mine|unassigned&after= */
export const loader = defineLoader({
  guard: staffWith("collections.work"),
  handle: async ({ request, context }: Route.LoaderArgs, staff) => ({ queue: await collectionsQueuePage(parseCollectionsUrl(new URL(request.url)), callerOf(staff, request, context)) }),
});

/** assign-to-me (the loan's id in the form), as on the loan's Collections panel. */
export const action = defineAction({
  guard: staffWith("collections.work"),
  handle: async ({ request, context }: Route.ActionArgs, staff) => respond(await collectionsAction(request, undefined, callerOf(staff, request, context), { intents: ["assign-to-me"] })),
});

export default function AdminCollectionsRoute({ loaderData }: Route.ComponentProps) {
  return <CollectionsPage queue={loaderData.queue} />;
}

export const ErrorBoundary = loanLoadErrorBoundary("collections");
