import { requireAdmin } from "~/server/auth/session.server";
import type { Route } from "./+types/applications";
import { PlaceholderPage } from "~/components/placeholder-page";
import { pageMeta } from "~/content/site";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Admin Dashboard", "Private Loans administration."),
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return null;
}

// Placeholder: shows no data until its release; the guard already applies.
export default function AdminDashboardPage() {
  return <PlaceholderPage title="Admin Dashboard" release="the admin release" />;
}
