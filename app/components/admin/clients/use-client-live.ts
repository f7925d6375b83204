import { useEffect, useRef } from "react";
import { useRevalidator } from "react-router";
import { useLiveUpdates, type LiveChange } from "~/components/live/use-live-updates";
import type { ClientDetail } from "~/domain/views/admin-clients";

/**
 * docs/requirements.md §5: the admin client view refreshes on any change to that client's bank accounts,
 * applications or documents. An admin's stream carries every client's changes; this keeps the
 * ones that can concern the shown client: a change naming it as owner (when the stream says), an
 * update or deletion of a row the page shows, or any insertion (a new application arrives with its
 * documents and bank account, so a burst of changes becomes one reload).
 */

const TABLES = new Set(["bank_accounts", "loan_applications", "loan_documents"]);
const DEBOUNCE_MS = 250;

export function concernsClient(change: LiveChange & { owner?: string }, client: ClientDetail): boolean {
  if (!TABLES.has(change.table)) return false;
  if (typeof change.owner === "string") return change.owner === client.profile.id;
  if (change.op === "INSERT") return true;
  const ids = change.table === "bank_accounts" ? client.bankAccounts : change.table === "loan_applications" ? client.applications : client.documents;
  return ids.some((row) => row.id === change.id);
}

export function useClientLive(client: ClientDetail | null) {
  const revalidator = useRevalidator();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef({ client, revalidator });
  useEffect(() => {
    latest.current = { client, revalidator };
  });
  useEffect(() => () => clearTimeout(timer.current), []);

  const schedule = () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void latest.current.revalidator.revalidate(), DEBOUNCE_MS);
  };

  useLiveUpdates(
    {
      onChange: (change) => {
        const shown = latest.current.client;
        if (shown && concernsClient(change, shown)) schedule();
      },
      onResync: schedule,
    },
    client !== null,
  );
}
