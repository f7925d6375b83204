import { data } from "react-router";
import { PrivacyNoticePage } from "~/components/account/privacy-notice-page";
import { PRIVACY_NOTICE_SUMMARY, currentPrivacyNotice } from "~/content/legal/privacy-notice";
import { errorToast } from "~/domain/action-result";
import { PRIVACY_ACCEPTED_TOAST, PRIVACY_NOTICE_MESSAGES, acceptPrivacyNoticeSchema, type PrivacyNoticeActionData } from "~/domain/validation/privacy-notice";
import { acceptCurrentPrivacyNotice, acceptedPrivacyNoticeVersion, currentPrivacyNoticeVersion } from "~/server/accounts/index.server";
import { landingPath, safeRedirectPath } from "~/server/accounts/index.server";
import { getDb } from "~/server/platform/db/client.server";
import { readActionForm } from "~/server/platform/http/action-answer.server";
import { callerOf } from "~/server/platform/http/request-info.server";
import { logFailure } from "~/server/platform/log/describe-error.server";
import { redirectWithToast } from "~/server/platform/http/toast.server";
import type { Route } from "./+types/privacy";
import { signedIn } from "~/server/accounts/index.server";
import { defineAction, defineLoader } from "~/server/platform/http/define-route.server";

export const meta: Route.MetaFunction = () => [{ title: "Our Privacy Notice Has Changed | Private Loans" }];

/**
 * /account/privacy: the changed privacy notice, shown once at the next sign-in (the sign-in
 * landing sends applicants here with ?redirectTo=<where they were going>). "I Have Read This" records
 * the acceptance and goes on. Anyone signed in may read it; only applicants accept it.
 */
export const loader = defineLoader({
  guard: signedIn,
  handle: async ({ request }: Route.LoaderArgs, user) => {
    const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"), landingPath(user.isStaff, null));
    const current = currentPrivacyNoticeVersion();
    const accepted = user.isStaff ? null : await acceptedPrivacyNoticeVersion(getDb(), user.id);
    return {
      version: current,
      changes: currentPrivacyNotice.changes,
      summary: PRIVACY_NOTICE_SUMMARY,
      acceptedCurrent: accepted !== null && accepted >= current,
      canAccept: !user.isStaff,
      redirectTo,
    };
  },
});

const refused = (status: number, message: string) =>
  data<PrivacyNoticeActionData>({ ok: false, toast: errorToast("Could not record your answer", message) }, { status });

export const action = defineAction({
  guard: signedIn,
  handle: async ({ request, context }: Route.ActionArgs, user) => {
    const read = await readActionForm(request, (message) => message, { limitBytes: 4096, unreadableAsEmpty: true });
    if (!read.ok) return refused(read.answer.status, read.answer.body);
    if (user.isStaff) return refused(403, PRIVACY_NOTICE_MESSAGES.staff);
    const parsed = acceptPrivacyNoticeSchema.safeParse({ intent: read.form.get("intent") ?? undefined, redirectTo: read.form.get("redirectTo") ?? undefined });
    if (!parsed.success) return refused(400, parsed.error.issues[0]?.message ?? PRIVACY_NOTICE_MESSAGES.intent);
    try {
      await acceptCurrentPrivacyNotice(getDb(), callerOf(user, request, context));
    } catch (error) {
      logFailure("account", "privacy notice acceptance failed", error);
      return refused(503, PRIVACY_NOTICE_MESSAGES.failed);
    }
    let target = safeRedirectPath(parsed.data.redirectTo, landingPath(false, null));
    // Never back here: the landing page instead.
    if (target.split(/[?#]/)[0] === "/account/privacy") target = landingPath(false, null);
    return redirectWithToast(target, PRIVACY_ACCEPTED_TOAST, { request });
  },
});

export default function PrivacyNoticeRoute({ loaderData, actionData }: Route.ComponentProps) {
  return <PrivacyNoticePage {...loaderData} actionData={actionData} />;
}
