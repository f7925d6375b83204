import { DashboardPage } from "~/components/dashboard/dashboard-page";
import { pageMeta } from "~/content/site";
import { requireUser } from "~/server/auth/session.server";
import { getDashboard } from "~/server/dashboard.server";
import type { Route } from "./+types/dashboard";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Dashboard", "Your Private Loans dashboard."),
  { name: "robots", content: "noindex" },
];

/** Signed-in users only (no session → /auth); only the user's own loans and applications. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  return getDashboard(user.id, user.name);
}

export default function DashboardRoute({ loaderData }: Route.ComponentProps) {
  return <DashboardPage data={loaderData} />;
}
