import type { Route } from "./+types/applications";
import { PlaceholderPage } from "~/components/placeholder-page";
import { pageMeta } from "~/content/site";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Admin Dashboard", "Private Loans administration."),
  { name: "robots", content: "noindex" },
];

// Placeholder: shows no data. Its loader (with the guard) arrives with the admin release.
export default function AdminDashboardPage() {
  return <PlaceholderPage title="Admin Dashboard" release="the admin release" />;
}
