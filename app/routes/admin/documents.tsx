import { requireAdmin } from "~/server/auth/session.server";
import type { Route } from "./+types/documents";
import { PlaceholderPage } from "~/components/placeholder-page";
import { pageMeta } from "~/content/site";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Document Viewer", "Private Loans administration: document viewer."),
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return null;
}

// Placeholder: shows no data until its release; the guard already applies.
export default function AdminDocumentsPage() {
  return <PlaceholderPage title="Document Viewer" release="the admin release" />;
}
