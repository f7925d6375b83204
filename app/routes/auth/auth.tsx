import { redirect } from "react-router";
import { AuthPage } from "~/components/auth/auth-page";
import type { AuthActionData, AuthIntent } from "~/domain/auth-action";
import { authFormError, parseAuthForm } from "~/server/accounts/auth-form.server";
import { checkResetLink, requestPasswordReset, resetPassword, sendSignUpCode, signIn, signUp, type FlowResult } from "~/server/accounts/flows.server";
import { getOptionalUser, landingPath, safeRedirectPath } from "~/server/accounts/session.server";
import { signInLanding } from "~/server/accounts/privacy-notice.server";
import { respond } from "~/server/platform/http/action-answer.server";
import { assertSameOrigin } from "~/server/platform/http/origin.server";
import { getCaptchaConfigForBrowser } from "~/server/platform/security/captcha.server";
import { redirectWithToast } from "~/server/platform/http/toast.server";
import type { Route } from "./+types/auth";

export const meta: Route.MetaFunction = () => [
  { title: "Sign In or Create Account | Private Loans" },
  { name: "description", content: "Sign in to your Private Loans account or create one to apply for a loan." },
];

export async function loader({ request }: Route.LoaderArgs) {
  const redirectTo = new URL(request.url).searchParams.get("redirectTo");
  // Already signed in (Apply Now from a cached page, an old bookmark): straight on, not a sign-in form.
  const user = await getOptionalUser(request);
  if (user) throw redirect(landingPath(user.isStaff, redirectTo));
  // Empty when none was given: the action then picks the landing page by role.
  return { captcha: getCaptchaConfigForBrowser(), redirectTo: safeRedirectPath(redirectTo, "") };
}

function answer(intent: AuthIntent, result: FlowResult) {
  const body: AuthActionData = result.ok
    ? { intent, ok: true, toast: result.toast }
    : { intent, ok: false, toast: result.toast, resetCaptcha: result.resetCaptcha };
  return respond({ status: result.ok ? 200 : result.status, body });
}

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const parsed = await parseAuthForm(request);
  if (!parsed.ok) return respond(parsed.answer);
  const meta = { ip: context.clientIp, headers: request.headers };

  switch (parsed.intent) {
    case "send-code":
      return answer("send-code", await sendSignUpCode(parsed.value.email, meta));
    case "sign-up": {
      const result = await signUp({ ...parsed.value, captcha: parsed.captcha }, meta);
      if (!result.ok) return answer("sign-up", result);
      // The spec's landing is /dashboard; a visitor sent here by Apply Now (redirectTo=/apply) goes on to apply.
      return redirectWithToast(landingPath(false, parsed.redirectTo), result.toast, { headers: result.headers, request });
    }
    case "sign-in": {
      const result = await signIn({ ...parsed.value, captcha: parsed.captcha }, meta);
      if (!result.ok) return answer("sign-in", result);
      return redirectWithToast(await signInLanding(result, parsed.redirectTo), result.toast, { headers: result.headers, request });
    }
    case "reset-request":
      return answer("reset-request", await requestPasswordReset({ ...parsed.value, captcha: parsed.captcha }, meta));
    case "reset-password": {
      const result = await resetPassword(parsed.value, meta);
      if (!result.ok) return answer("reset-password", result);
      return redirectWithToast("/auth", result.toast, { request });
    }
    case "check-reset-link":
      return answer("check-reset-link", await checkResetLink(parsed.value.token, meta));
    default:
      return respond({ status: 400, body: authFormError("sign-in", "Error", "Unknown action.") });
  }
}

export default function Auth({ loaderData, actionData }: Route.ComponentProps) {
  return <AuthPage captcha={loaderData.captcha} redirectTo={loaderData.redirectTo} actionData={actionData} />;
}
