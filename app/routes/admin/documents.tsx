import type { Route } from "./+types/documents";
import { PlaceholderPage } from "~/components/placeholder-page";
import { pageMeta } from "~/content/site";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Document Viewer", "Private Loans administration: document viewer."),
  { name: "robots", content: "noindex" },
];

// Placeholder: shows no data. Its loader (with the guard) arrives with the admin release.
export default function AdminDocumentsPage() {
  return <PlaceholderPage title="Document Viewer" release="the admin release" />;
}
