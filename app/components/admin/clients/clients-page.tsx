import { UsersRound } from "lucide-react";
import { AdminShell } from "~/components/admin/admin-shell";
import type { ClientDetail as ClientDetailData, ClientList as ClientListData } from "~/domain/views/admin-clients";
import { ClientDetail } from "./client-detail";
import { ClientList } from "./client-list";
import { useClientLive } from "./use-client-live";

export type ClientsPageData = {
  list: ClientListData;
  selectedId: string | null;
  selected: ClientDetailData | null;
};

/** /admin/clients: the client list on the left, the selected client on the right (stacked on phones). */
export function ClientsPage({ data }: { data: ClientsPageData }) {
  useClientLive(data.selected);
  return (
    <AdminShell title="Client Information" description="Search clients and review their profile, bank accounts, applications and documents.">
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,22rem)_minmax(0,1fr)] lg:items-start">
        <ClientList list={data.list} selectedId={data.selectedId} />
        <div>
          {data.selected ? (
            // Keyed by client: revealed values never carry over to another client.
            <ClientDetail key={data.selected.profile.id} client={data.selected} />
          ) : (
            <div className="flex flex-col items-center justify-center gap-3 rounded-xl border border-dashed border-border bg-card p-10 text-center">
              <UsersRound aria-hidden="true" className="size-10 text-navy-700" />
              <p className="font-medium text-foreground">
                {data.selectedId ? "That client could not be found." : "Select a client to view their details."}
              </p>
              <p className="text-sm text-muted-foreground">Sensitive values stay masked until you reveal them; every reveal is recorded in the audit log.</p>
            </div>
          )}
        </div>
      </div>
    </AdminShell>
  );
}
