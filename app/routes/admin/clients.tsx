import { adminLoadErrorBoundary } from "~/components/admin/page-load-error";
import { ClientsPage } from "~/components/admin/clients/clients-page";
import { privatePageMeta } from "~/content/private-page-meta";
import { getClientDetail, listClients, parseClientsUrl } from "~/server/staff/index.server";
import type { Route } from "./+types/clients";
import { callerOf } from "~/server/platform/http/request-info.server";
import { staffWith } from "~/server/accounts/index.server";
import { defineLoader } from "~/server/platform/http/define-route.server";

export const meta: Route.MetaFunction = () => privatePageMeta("Client Information", "Private Loans administration: client information.");

/** Admins with a verified second factor only; each read is audited (client.list, client.view). */
export const loader = defineLoader({
  guard: staffWith("staff.read"),
  handle: async ({ request, context }: Route.LoaderArgs, admin) => {
    const { q, page, clientId } = parseClientsUrl(new URL(request.url));
    const caller = callerOf(admin, request, context);
    const list = await listClients({ q, page }, caller);
    const selected = clientId ? await getClientDetail(clientId, caller) : null;
    return { list, selectedId: clientId, selected };
  },
});

export default function AdminClientsRoute({ loaderData }: Route.ComponentProps) {
  return <ClientsPage data={loaderData} />;
}

export const ErrorBoundary = adminLoadErrorBoundary("clients");
