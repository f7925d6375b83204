import { requireAdmin } from "~/server/auth/session.server";
import type { Route } from "./+types/security";
import { PlaceholderPage } from "~/components/placeholder-page";
import { pageMeta } from "~/content/site";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Security Settings", "Private Loans administration: security settings."),
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return null;
}

// Placeholder: shows no data until its release; the guard already applies.
export default function AdminSecurityPage() {
  return <PlaceholderPage title="Security Settings" release="the admin release" />;
}
