import { Form, redirect, useNavigation } from "react-router";
import { MfaPanel } from "~/components/admin/mfa-panel";
import { PasskeyButton } from "~/components/auth/passkey-button";
import { Button } from "~/components/ui/button";
import { pageMeta } from "~/content/site";
import { errorToast, type ActionResult } from "~/domain/action-result";
import { twoFactorSchema } from "~/domain/validation/account-security";
import { loadAccountSecurity } from "~/server/accounts/security.server";
import { verifySession } from "~/server/accounts/mfa.server";
import { requireUser, safeRedirectPath } from "~/server/accounts/session.server";
import { readActionForm, respond } from "~/server/platform/http/action-answer.server";
import { assertSameOrigin } from "~/server/platform/http/origin.server";
import { requestInfo } from "~/server/platform/http/request-info.server";
import { checkThrottles, THROTTLES } from "~/server/platform/security/throttle.server";
import { redirectWithToast } from "~/server/platform/http/toast.server";
import type { Route } from "./+types/two-factor";

/**
 * /auth/two-factor: an applicant who turned Two-Factor Authentication on passes it here
 * after a password sign-in (requireUser sends every other page here until then): a code from the
 * authenticator app, a backup code, or a passkey verified with a PIN or biometrics. Five wrong codes
 * lock the factor for 15 minutes, as for staff. A session that owes nothing goes straight on.
 */

export const meta: Route.MetaFunction = () => [...pageMeta("Two-Factor Authentication", "Confirm it is you."), { name: "robots", content: "noindex" }];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request, { allowPendingSecondFactor: true });
  const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"), user.isStaff ? "/admin" : "/dashboard");
  if (!user.secondFactorPending) throw redirect(redirectTo);
  const { passkeys } = await loadAccountSecurity(user.id);
  return { redirectTo, hasPasskeys: passkeys.length > 0 };
}

type TwoFactorActionData = ActionResult;
const refused = (message: string): TwoFactorActionData => ({ ok: false, toast: errorToast(message) });

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const user = await requireUser(request, { allowPendingSecondFactor: true });
  const limited = await checkThrottles([[`two-factor:ip:${context.clientIp}`, THROTTLES.twoFactorPerIp]]);
  if (!limited.ok) return respond({ status: 429, body: refused(limited.message), headers: { "Retry-After": String(limited.retryAfterSeconds) } });
  const read = await readActionForm(request, refused, { unreadableAsEmpty: true });
  if (!read.ok) return respond(read.answer);
  const parsed = twoFactorSchema.safeParse({ code: read.form.get("code") ?? undefined, redirectTo: read.form.get("redirectTo") ?? undefined });
  if (!parsed.success) return respond({ status: 400, body: refused(parsed.error.issues[0]?.message ?? "Enter a code.") });
  const redirectTo = safeRedirectPath(parsed.data.redirectTo, user.isStaff ? "/admin" : "/dashboard");
  if (!user.secondFactorPending) return redirect(redirectTo);
  const result = await verifySession(user, parsed.data.code, requestInfo(request, context), undefined, "applicant");
  if (!result.ok) return respond({ status: 400, body: refused(result.message) });
  return redirectWithToast(
    redirectTo,
    {
      type: "success",
      title: "Identity Verified",
      description: result.usedBackupCode ? "You used a backup code; each works only once." : "You are signed in.",
    },
    { request },
  );
}

export default function TwoFactor({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  return (
    <MfaPanel
      mode="verify"
      enrolment={null}
      redirectTo={loaderData.redirectTo}
      message={actionData && !actionData.ok ? (actionData.toast?.title ?? null) : null}
      backupCodes={null}
      busy={navigation.state !== "idle"}
    >
      {loaderData.hasPasskeys ? <PasskeyButton kind="second-factor" redirectTo={loaderData.redirectTo} label="Use a Passkey" /> : null}
      <Form method="post" action="/auth/sign-out" className="mt-4">
        <Button type="submit" variant="link" className="px-0">
          Sign Out
        </Button>
      </Form>
    </MfaPanel>
  );
}
