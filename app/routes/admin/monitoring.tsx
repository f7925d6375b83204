import type { Route } from "./+types/monitoring";
import { PlaceholderPage } from "~/components/placeholder-page";
import { pageMeta } from "~/content/site";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Activity Monitoring", "Private Loans administration: activity monitoring."),
  { name: "robots", content: "noindex" },
];

// Placeholder: shows no data. Its loader (with the guard) arrives with the admin release.
export default function AdminMonitoringPage() {
  return <PlaceholderPage title="Activity Monitoring" release="the admin release" />;
}
