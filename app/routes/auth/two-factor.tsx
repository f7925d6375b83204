import { Form, redirect } from "react-router";
import { MfaPanel } from "~/components/admin/mfa-panel";
import { PasskeyButton } from "~/components/auth/passkey-button";
import { Button } from "~/components/ui/button";
import { pageMeta } from "~/content/site";
import { errorToast, type ActionResult } from "~/domain/action-result";
import { identityVerifiedToast, twoFactorSchema } from "~/domain/validation/account-security";
import { loadAccountSecurity } from "~/server/accounts/index.server";
import { verifySession } from "~/server/accounts/index.server";
import { safeRedirectPath } from "~/server/accounts/index.server";
import { readActionForm, respond } from "~/server/platform/http/action-answer.server";
import { callerOf } from "~/server/platform/http/request-info.server";
import { checkThrottles, THROTTLES } from "~/server/platform/security/throttle.server";
import { redirectWithToast } from "~/server/platform/http/toast.server";
import type { Route } from "./+types/two-factor";
import { defineAction, defineLoader } from "~/server/platform/http/define-route.server";
import { signedInBeforeSecondFactor } from "~/server/accounts/index.server";

/**
 * /auth/two-factor: an applicant who turned Two-Factor Authentication on passes it here
 * after a password sign-in (requireUser sends every other page here until then): a code from the
 * authenticator app, a backup code, or a passkey verified with a PIN or biometrics. Five wrong codes
 * lock the factor for 15 minutes, as for staff. A session that owes nothing goes straight on.
 */

export const meta: Route.MetaFunction = () => [...pageMeta("Two-Factor Authentication", "Confirm it is you."), { name: "robots", content: "noindex" }];

export const loader = defineLoader({
  guard: signedInBeforeSecondFactor,
  handle: async ({ request }: Route.LoaderArgs, user) => {
    const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"), user.isStaff ? "/admin" : "/dashboard");
    if (!user.secondFactorPending) throw redirect(redirectTo);
    const { passkeys } = await loadAccountSecurity(user.id);
    return { redirectTo, hasPasskeys: passkeys.length > 0 };
  },
});

type TwoFactorActionData = ActionResult;
const refused = (message: string): TwoFactorActionData => ({ ok: false, toast: errorToast(message) });

export const action = defineAction({
  guard: signedInBeforeSecondFactor,
  handle: async ({ request, context }: Route.ActionArgs, user) => {
    const limited = await checkThrottles([[`two-factor:ip:${context.clientIp}`, THROTTLES.twoFactorPerIp]]);
    if (!limited.ok) return respond({ status: 429, body: refused(limited.message), headers: { "Retry-After": String(limited.retryAfterSeconds) } });
    const read = await readActionForm(request, refused, { unreadableAsEmpty: true });
    if (!read.ok) return respond(read.answer);
    const parsed = twoFactorSchema.safeParse({ code: read.form.get("code") ?? undefined, redirectTo: read.form.get("redirectTo") ?? undefined });
    if (!parsed.success) return respond({ status: 400, body: refused(parsed.error.issues[0]?.message ?? "Enter a code.") });
    const redirectTo = safeRedirectPath(parsed.data.redirectTo, user.isStaff ? "/admin" : "/dashboard");
    if (!user.secondFactorPending) return redirect(redirectTo);
    const result = await verifySession(parsed.data.code, callerOf(user, request, context), undefined, "applicant");
    if (!result.ok) return respond({ status: 400, body: refused(result.message) });
    return redirectWithToast(redirectTo, identityVerifiedToast(result.usedBackupCode, "You are signed in."), { request });
  },
});

export default function TwoFactor({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <MfaPanel
      mode="verify"
      enrolment={null}
      redirectTo={loaderData.redirectTo}
      answer={actionData}
      backupCodes={null}
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
