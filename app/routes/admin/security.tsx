import type { Route } from "./+types/security";
import { PlaceholderPage } from "~/components/placeholder-page";
import { pageMeta } from "~/content/site";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Security Settings", "Private Loans administration: security settings."),
  { name: "robots", content: "noindex" },
];

// Placeholder: shows no data. Its loader (with the guard) arrives with the admin release.
export default function AdminSecurityPage() {
  return <PlaceholderPage title="Security Settings" release="the admin release" />;
}
