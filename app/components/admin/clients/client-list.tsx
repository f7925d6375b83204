import { Search, UserRound, X } from "lucide-react";
import { Form, Link, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Spinner } from "~/components/ui/spinner";
import type { ClientList as ClientListData } from "~/domain/views/admin-clients";
import { cn } from "~/utils/cn";
import { clientsSearch } from "./format";
import { Pagination, targetPage } from "~/components/admin/pagination";

/** The searchable, paginated client list (left column of /admin/clients). */
export function ClientList({ list, selectedId }: { list: ClientListData; selectedId: string | null }) {
  const navigation = useNavigation();
  const searching = navigation.state === "loading" && navigation.location?.pathname === "/admin/clients";
  return (
    <Card className="p-4 sm:p-5">
      <h2 className="text-lg font-semibold text-primary">Clients</h2>
      <Form method="get" role="search" className="mt-3 flex flex-col gap-2" aria-label="Search clients">
        <Label htmlFor="client-search">Search by name or e-mail</Label>
        <div className="flex gap-2">
          <Input
            id="client-search"
            name="q"
            type="search"
            defaultValue={list.q}
            key={list.q}
            maxLength={100}
            autoComplete="off"
            placeholder="e.g. jane or @example.com"
            aria-describedby="client-search-hint"
          />
          <Button type="submit" variant="default" aria-label="Search clients">
            {searching ? <Spinner className="size-4" /> : <Search aria-hidden="true" />}
            <span className="sr-only sm:not-sr-only">Search</span>
          </Button>
        </div>
        <p id="client-search-hint" className="text-xs text-muted-foreground">
          Also finds a phone number, the start of an application id, or the last 4 digits of an SSN or bank account.
        </p>
      </Form>

      <p className="mt-3 text-sm text-muted-foreground" role="status">
        {list.total === 0
          ? list.q
            ? `No clients match "${list.q}".`
            : "No clients yet."
          : list.more
            ? `More than ${list.total} clients match "${list.q}": showing the first ${list.total}. Add to the search to narrow it.`
            : `${list.total} ${list.total === 1 ? "client" : "clients"}${list.q ? ` matching "${list.q}"` : ""}`}
        {list.q ? (
          <>
            {" "}
            <Link to="/admin/clients" className="inline-flex items-center gap-1 font-medium text-link underline-offset-4 hover:underline">
              <X aria-hidden="true" className="size-3.5" />
              Clear search
            </Link>
          </>
        ) : null}
      </p>

      {list.clients.length > 0 ? (
        <ul className="mt-3 flex flex-col gap-1" aria-label="Clients">
          {list.clients.map((client) => {
            const selected = client.id === selectedId;
            return (
              <li key={client.id}>
                <Link
                  to={clientsSearch({ q: list.q, page: list.page, client: client.id })}
                  preventScrollReset
                  aria-current={selected ? "true" : undefined}
                  data-testid="client-link"
                  className={cn(
                    "flex min-w-0 items-center gap-3 rounded-md border px-3 py-2 text-left transition-colors focus-visible:outline-3 focus-visible:outline-offset-1",
                    selected ? "border-primary bg-navy-50" : "border-transparent hover:bg-muted",
                  )}
                >
                  <UserRound aria-hidden="true" className="size-5 shrink-0 text-navy-700" />
                  <span className="min-w-0">
                    <span className="block truncate font-medium text-foreground">{client.fullName}</span>
                    <span className="block truncate text-sm text-muted-foreground">{client.email}</span>
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      ) : null}

      <Pagination
        page={list.page}
        pageCount={list.pageCount}
        label="Client list pages"
        hrefFor={(target) => clientsSearch({ q: list.q, page: targetPage(target), client: selectedId }) || "?"}
      />
    </Card>
  );
}
