import { requireAdmin } from "~/server/auth/session.server";
import type { Route } from "./+types/clients";
import { PlaceholderPage } from "~/components/placeholder-page";
import { pageMeta } from "~/content/site";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Client Information", "Private Loans administration: client information."),
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return null;
}

// Placeholder: shows no data until its release; the guard already applies.
export default function AdminClientsPage() {
  return <PlaceholderPage title="Client Information" release="the admin release" />;
}
