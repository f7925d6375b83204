import { redirect } from "react-router";
import { AccountPage } from "~/components/account/account-page";
import { pageMeta } from "~/content/site";
import { loadAccountData } from "~/server/accounts/data.server";
import { loadAccountSecurity } from "~/server/accounts/security.server";
import { loadAccountSettings } from "~/server/accounts/settings.server";
import { requireUser } from "~/server/accounts/session.server";
import { requestInfo } from "~/server/platform/http/request-info.server";
import type { Route } from "./+types/account";

export const meta: Route.MetaFunction = () => pageMeta("Account Settings", "Your Private Loans account: profile, e-mail, password, sessions, two-factor and passkeys.");

/**
 * /account: profile, Change Email, Change Password, Active Sessions, two-factor and passkeys,
 * notification preferences and the applicant's data. Staff see the sign-in parts only, and only once
 * this session passed their second factor.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request);
  if (user.isStaff && !user.mfaVerified) throw redirect(`/admin/mfa?redirectTo=${encodeURIComponent("/account")}`);
  const [settings, security, data] = await Promise.all([
    loadAccountSettings(user, undefined, requestInfo(request, context)),
    loadAccountSecurity(user.id),
    user.isStaff ? Promise.resolve(null) : loadAccountData(user.id),
  ]);
  return { settings, security, data };
}

export default function AccountRoute({ loaderData }: Route.ComponentProps) {
  return <AccountPage settings={loaderData.settings} security={loaderData.security} data={loaderData.data} />;
}
