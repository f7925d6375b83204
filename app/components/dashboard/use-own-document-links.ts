import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import { showActionToast } from "~/components/action-toast";
import { startDownload } from "~/components/admin/documents/use-document-links";
import type { OwnDocumentLinkData } from "~/domain/views/dashboard";

/**
 * Download of the applicant's own documents from the details dialog: each click asks /dashboard's
 * action for a fresh 60-second link (intent=document-link) and follows it at once; a refusal shows
 * its toast. The link is never kept, so a stale one is never offered.
 */
export function useOwnDocumentLinks() {
  const fetcher = useFetcher<OwnDocumentLinkData>();
  const handled = useRef(new Set<string>());
  const data = fetcher.data;

  useEffect(() => {
    if (!data || handled.current.has(data.nonce)) return;
    handled.current.add(data.nonce);
    if (data.ok) startDownload(data.link);
    else showActionToast(data.toast);
  }, [data]);

  return {
    pendingId: fetcher.state !== "idle" ? String(fetcher.formData?.get("documentId") ?? "") : null,
    request: (documentId: string) => void fetcher.submit({ intent: "document-link", documentId }, { method: "post", action: "/dashboard" }),
  };
}
