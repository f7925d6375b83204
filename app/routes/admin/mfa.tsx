import { MfaPanel } from "~/components/admin/mfa-panel";
import { PasskeyButton } from "~/components/auth/passkey-button";
import { loadAccountSecurity } from "~/server/accounts/index.server";
import { privatePageMeta } from "~/content/private-page-meta";
import { errorToast, type ActionResult } from "~/domain/action-result";
import { identityVerifiedToast } from "~/domain/validation/account-security";
import { confirmEnrolment, getMfaState, isSessionVerified, pendingEnrolment, startEnrolment, verifySession } from "~/server/accounts/index.server";
import { safeRedirectPath } from "~/server/accounts/index.server";
import { readActionForm, respond } from "~/server/platform/http/action-answer.server";
import { redirectWithToast } from "~/server/platform/http/toast.server";
import type { Route } from "./+types/mfa";
import { callerOf } from "~/server/platform/http/request-info.server";
import { defineAction, defineLoader } from "~/server/platform/http/define-route.server";
import { staffBeforeSecondFactor } from "~/server/accounts/index.server";

export const meta: Route.MetaFunction = () => privatePageMeta("Two-Factor Authentication", "Verify your identity to open the admin area.");

export const loader = defineLoader({
  guard: staffBeforeSecondFactor,
  handle: async ({ request }: Route.LoaderArgs, user) => {
    const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"), "/admin");
    const state = await getMfaState(user.id);
    if (state === "enabled") {
      // Not a redirect: this loader also runs right after the enrolment action, whose answer (the
      // one-time backup codes) must reach the page.
      const mode = (await isSessionVerified(user.sessionId)) ? ("verified" as const) : ("verify" as const);
      // A passkey verified with a PIN or biometrics may stand in for the code.
      const hasPasskeys = mode === "verify" && (await loadAccountSecurity(user.id)).passkeys.length > 0;
      return { mode, redirectTo, enrolment: null, hasPasskeys };
    }
    const enrolment = (await pendingEnrolment(user)) ?? (await startEnrolment(user));
    return { mode: "enrol" as const, redirectTo, enrolment: { secret: enrolment.secret, qrDataUrl: enrolment.qrDataUrl }, hasPasskeys: false };
  },
});

/** The enrolment answers the one-time backup codes; a refusal's message is its toast title. */
type MfaActionData = ActionResult<{ backupCodes: string[] | null }>;
const refused = (message: string): MfaActionData => ({ ok: false, toast: errorToast(message), backupCodes: null });

export const action = defineAction({
  guard: staffBeforeSecondFactor,
  handle: async ({ request, context }: Route.ActionArgs, user) => {
    // An unreadable body (wrong content type, broken multipart) reads as an empty form: bad input, not a 500.
    const read = await readActionForm(request, refused, { unreadableAsEmpty: true });
    if (!read.ok) return respond(read.answer);
    const { form } = read;
    const code = String(form.get("code") ?? "").slice(0, 20);
    const redirectTo = safeRedirectPath(String(form.get("redirectTo") ?? ""), "/admin");
    const caller = callerOf(user, request, context);
    if (!code.trim()) return respond({ status: 400, body: refused("Enter the 6-digit code from your authenticator app.") });

    if (form.get("intent") === "enrol") {
      const result = await confirmEnrolment(code, caller);
      if (!result.ok) return respond({ status: 400, body: refused(result.message) });
      return respond<MfaActionData>({
        status: 200,
        body: { ok: true, toast: { type: "success", title: "Two-factor authentication is on." }, backupCodes: result.backupCodes },
      });
    }
    const result = await verifySession(code, caller);
    if (!result.ok) return respond({ status: 400, body: refused(result.message) });
    return redirectWithToast(redirectTo, identityVerifiedToast(result.usedBackupCode, "Welcome to the admin area."), { request });
  },
});

export default function AdminMfa({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <MfaPanel
      mode={loaderData.mode}
      enrolment={loaderData.enrolment}
      redirectTo={loaderData.redirectTo}
      answer={actionData}
      backupCodes={actionData?.ok ? actionData.backupCodes : null}
    >
      {loaderData.hasPasskeys ? <PasskeyButton kind="second-factor" redirectTo={loaderData.redirectTo} label="Use a Passkey" /> : null}
    </MfaPanel>
  );
}
