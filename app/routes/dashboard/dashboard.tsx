import type { Route } from "./+types/dashboard";
import { PlaceholderPage } from "~/components/placeholder-page";
import { pageMeta } from "~/content/site";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Dashboard", "Your Private Loans dashboard."),
  { name: "robots", content: "noindex" },
];

// Placeholder: shows no data. Its loader (with the guard) arrives with the accounts release.
export default function DashboardPage() {
  return <PlaceholderPage title="Your Dashboard" release="the accounts release" />;
}
