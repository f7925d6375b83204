import type { Route } from "./+types/clients";
import { PlaceholderPage } from "~/components/placeholder-page";
import { pageMeta } from "~/content/site";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Client Information", "Private Loans administration: client information."),
  { name: "robots", content: "noindex" },
];

// Placeholder: shows no data. Its loader (with the guard) arrives with the admin release.
export default function AdminClientsPage() {
  return <PlaceholderPage title="Client Information" release="the admin release" />;
}
