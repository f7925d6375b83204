import { requireUser } from "~/server/auth/session.server";
import { loadAccountData } from "~/server/account/data.server";
import { loadAccountSecurity } from "~/server/account/security.server";
import { SecuritySection } from "~/components/account/security-section";
import { DataSection } from "~/components/account/data-section";
import type { Route } from "./+types/account";

/** /account (issue 23): placeholder page until the settings helper lands it. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const [security, data] = await Promise.all([loadAccountSecurity(user.id), loadAccountData(user.id)]);
  return { security, data };
}

export default function AccountRoute({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <h1 className="text-2xl font-bold text-primary">Account Settings</h1>
      <SecuritySection security={loaderData.security} />
      <DataSection data={loaderData.data} />
    </div>
  );
}
