import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { showActionToast } from "~/components/action-toast";
import { LINK_TEXT, type LinkActionData } from "./types";

/**
 * Preview and Download of /admin/documents. Each asks the page's action for a fresh 60-second
 * signed link (intent=link, audited as 'document.link'). A preview link opens the dialog; a download
 * link is followed at once (the file answers Content-Disposition: attachment, so the page stays).
 */

/** Follows a download link without leaving the page (the answer is Content-Disposition: attachment, or a blob). */
export function startDownload(link: { url: string; fileName: string }) {
  const anchor = document.createElement("a");
  anchor.href = link.url;
  anchor.download = link.fileName;
  anchor.rel = "noopener";
  anchor.style.display = "none";
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
}

export function useDocumentLinks() {
  const previewFetcher = useFetcher<LinkActionData>();
  const downloadFetcher = useFetcher<LinkActionData>();
  const [closedNonce, setClosedNonce] = useState<string | null>(null);
  const handled = useRef(new Set<string>());

  const request = (documentId: string, disposition: "inline" | "attachment") => {
    const fetcher = disposition === "inline" ? previewFetcher : downloadFetcher;
    void fetcher.submit({ intent: "link", documentId, disposition }, { method: "post" });
  };

  const previewData = previewFetcher.data;
  const downloadData = downloadFetcher.data;

  useEffect(() => {
    for (const result of [previewData, downloadData]) {
      if (!result || handled.current.has(result.nonce)) continue;
      handled.current.add(result.nonce);
      if (!result.ok) {
        showActionToast(result.toast);
      } else if (result.link.disposition === "inline") {
        showActionToast({ type: "success", title: LINK_TEXT.previewTitle, description: LINK_TEXT.previewDescription });
      } else {
        startDownload(result.link);
        showActionToast({ type: "success", title: LINK_TEXT.downloadTitle, description: result.link.fileName });
      }
    }
  }, [previewData, downloadData]);

  const preview = previewData?.ok && previewData.nonce !== closedNonce ? previewData.link : null;
  const pendingId = (fetcher: typeof previewFetcher) =>
    fetcher.state !== "idle" ? String(fetcher.formData?.get("documentId") ?? "") : null;

  return {
    preview,
    closePreview: () => setClosedNonce(previewData?.nonce ?? null),
    requestPreview: (documentId: string) => request(documentId, "inline"),
    requestDownload: (documentId: string) => request(documentId, "attachment"),
    previewPendingId: pendingId(previewFetcher),
    downloadPendingId: pendingId(downloadFetcher),
  };
}
