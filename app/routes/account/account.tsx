import { redirect } from "react-router";
import { AccountPage } from "~/components/account/account-page";
import { pageMeta } from "~/content/site";
import { loadAccountData } from "~/server/accounts/index.server";
import { loadAccountSecurity } from "~/server/accounts/index.server";
import { loadAccountSettings } from "~/server/accounts/index.server";
import { callerOf } from "~/server/platform/http/request-info.server";
import type { Route } from "./+types/account";
import { signedIn } from "~/server/accounts/index.server";
import { defineLoader } from "~/server/platform/http/define-route.server";

export const meta: Route.MetaFunction = () => pageMeta("Account Settings", "Your Private Loans account: profile, e-mail, password, sessions, two-factor and passkeys.");

/**
 * /account: profile, Change Email, Change Password, Active Sessions, two-factor and passkeys,
 * notification preferences and the applicant's data. Staff see the sign-in parts only, and only once
 * this session passed their second factor.
 */
export const loader = defineLoader({
  guard: signedIn,
  handle: async ({ request, context }: Route.LoaderArgs, user) => {
    if (user.isStaff && !user.mfaVerified) throw redirect(`/admin/mfa?redirectTo=${encodeURIComponent("/account")}`);
    const [settings, security, data] = await Promise.all([
      loadAccountSettings(callerOf(user, request, context)),
      loadAccountSecurity(user.id),
      user.isStaff ? Promise.resolve(null) : loadAccountData(user.id),
    ]);
    return { settings, security, data };
  },
});

export default function AccountRoute({ loaderData }: Route.ComponentProps) {
  return <AccountPage settings={loaderData.settings} security={loaderData.security} data={loaderData.data} />;
}
