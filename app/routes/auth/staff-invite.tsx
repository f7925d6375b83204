import { data, redirect } from "react-router";
import { InvitationPage } from "~/components/admin/staff/invitation-page";
import { assertSameOrigin } from "~/server/platform/http/origin.server";
import { requestInfo } from "~/server/platform/http/request-info.server";
import {
  acceptInvitationAction,
  invitationForToken,
} from "~/server/staff/invitations.server";
import type { Route } from "./+types/staff-invite";

export const meta: Route.MetaFunction = () => [
  { title: "Staff Invitation | Private Loans" },
  { name: "robots", content: "noindex" },
];

/**
 * Public: the link in the invitation e-mail. A link that no longer works answers 410 with one sentence;
 * the page is never cached (it names a person) and sends no Referer with the token onwards.
 */
const PRIVATE_HEADERS = {
  "Cache-Control": "no-store",
  "Referrer-Policy": "no-referrer",
};

export async function loader({ params }: Route.LoaderArgs) {
  const invitation = await invitationForToken(params.token);
  return data(
    { invitation },
    { status: invitation ? 200 : 410, headers: PRIVATE_HEADERS },
  );
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

/** Set Password: creates the account with the invited role, signs it in and sends it to enrol the second factor. */
export async function action({ request, params, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const result = await acceptInvitationAction(
    request,
    params.token,
    requestInfo(request, context),
  );
  if (!result.ok)
    return data(result.body, {
      status: result.status,
      headers: PRIVATE_HEADERS,
    });
  const headers = new Headers(PRIVATE_HEADERS);
  for (const cookie of result.headers.getSetCookie())
    headers.append("Set-Cookie", cookie);
  return redirect("/admin/mfa", { headers });
}

export default function StaffInvitationRoute({
  loaderData,
  actionData,
}: Route.ComponentProps) {
  return (
    <InvitationPage
      invitation={loaderData.invitation}
      actionData={actionData}
    />
  );
}
