import { requireAdmin } from "~/server/auth/session.server";
import type { Route } from "./+types/monitoring";
import { PlaceholderPage } from "~/components/placeholder-page";
import { pageMeta } from "~/content/site";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Activity Monitoring", "Private Loans administration: activity monitoring."),
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return null;
}

// Placeholder: shows no data until its release; the guard already applies.
export default function AdminMonitoringPage() {
  return <PlaceholderPage title="Activity Monitoring" release="the admin release" />;
}
