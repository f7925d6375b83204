import { adminLoadErrorBoundary } from "~/components/admin/page-load-error";
import { ClientsPage } from "~/components/admin/clients/clients-page";
import { pageMeta } from "~/content/site";
import { getClientDetail, listClients, parseClientsUrl } from "~/server/staff/clients.server";
import { requireStaff } from "~/server/accounts/session.server";
import type { Route } from "./+types/clients";
import { requestInfo } from "~/server/platform/http/request-info.server";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Client Information", "Private Loans administration: client information."),
  { name: "robots", content: "noindex" },
];

/** Admins with a verified second factor only; each read is audited (client.list, client.view). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requireStaff(request, "staff.read");
  const { q, page, clientId } = parseClientsUrl(new URL(request.url));
  const info = requestInfo(request, context);
  const list = await listClients({ q, page }, admin, info);
  const selected = clientId ? await getClientDetail(clientId, admin, info) : null;
  return { list, selectedId: clientId, selected };
}

export default function AdminClientsRoute({ loaderData }: Route.ComponentProps) {
  return <ClientsPage data={loaderData} />;
}

export const ErrorBoundary = adminLoadErrorBoundary("clients");
