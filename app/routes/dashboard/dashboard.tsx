import { requireUser } from "~/server/auth/session.server";
import type { Route } from "./+types/dashboard";
import { PlaceholderPage } from "~/components/placeholder-page";
import { pageMeta } from "~/content/site";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Dashboard", "Your Private Loans dashboard."),
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request);
  return null;
}

// Placeholder: shows no data until its release; the guard already applies.
export default function DashboardPage() {
  return <PlaceholderPage title="Your Dashboard" release="the accounts release" />;
}
