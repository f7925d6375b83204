import { useStaffCan } from "~/components/admin/admin-shell";
import { Download, Eye, FileImage, FileText, RefreshCw } from "lucide-react";
import { Link, useRevalidator } from "react-router";
import { AdminShell } from "~/components/admin/admin-shell";
import { documentTypeLabel } from "~/components/admin/clients/format";
import { Pagination } from "~/components/admin/pagination";
import { setPageTarget, type PageTarget } from "~/domain/paging";
import { useDisplayTimeZone } from "~/components/dashboard/format";
import { formatDate } from "~/domain/formats";
import { loanTypeLabel } from "~/domain/labels";
import { Card } from "~/components/ui/card";
import { PendingButton } from "~/components/ui/pending-button";
import { formatFileSize } from "~/domain/formats";
import type { DocumentList } from "~/domain/views/admin-documents";
import { DocumentPreviewDialog } from "./document-preview-dialog";
import { useDocumentLinks } from "./use-document-links";

/** A document's two link actions; each button names the document for screen readers. */
function LinkActions({ documentId, what, links }: { documentId: string; what: string; links: ReturnType<typeof useDocumentLinks> }) {
  // Opening a document is a reveal; a role without reveals (the auditor) gets no buttons.
  const mayOpen = useStaffCan("sensitive.reveal");
  const actions = [
    { verb: "Preview", variant: "outline", pending: links.previewPendingId === documentId, Icon: Eye, run: links.requestPreview },
    { verb: "Download", variant: "default", pending: links.downloadPendingId === documentId, Icon: Download, run: links.requestDownload },
  ] as const;
  if (!mayOpen) return null;
  return (
    <div className="flex shrink-0 gap-2">
      {actions.map(({ verb, variant, pending, Icon, run }) => (
        <PendingButton
          key={verb}
          variant={variant}
          size="sm"
          onClick={() => run(documentId)}
          pending={pending}
          icon={<Icon aria-hidden="true" />}
          aria-label={`${verb} ${what}`}
        >
          {verb}
        </PendingButton>
      ))}
    </div>
  );
}

function documentsSearch(target: PageTarget, clientId: string | null): string {
  const search = new URLSearchParams();
  if (clientId) search.set("client", clientId);
  setPageTarget(search, target);
  const text = search.toString();
  return text ? `?${text}` : "?";
}

/** /admin/documents: every uploaded document, newest first, with Preview and Download (docs/requirements.md §3). */
export function DocumentsPage({ data }: { data: DocumentList }) {
  const revalidator = useRevalidator();
  const timeZone = useDisplayTimeZone();
  const links = useDocumentLinks();
  const refreshing = revalidator.state !== "idle";
  const clientId = data.client?.id ?? null;

  return (
    <AdminShell
      title="Document Viewer"
      description="Uploaded documents, newest first. Previews and downloads use secure links that expire after 60 seconds."
      actions={
        <PendingButton variant="outline" onClick={() => void revalidator.revalidate()} pending={refreshing} icon={<RefreshCw aria-hidden="true" />}>
          Refresh
        </PendingButton>
      }
    >
      {data.client ? (
        <p className="mb-4 flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border border-border bg-navy-50 px-4 py-3 text-sm text-foreground">
          <span>
            Showing the documents of <strong>{data.client.fullName}</strong>.
          </span>
          <Link to="/admin/documents" className="font-medium text-link underline-offset-4 hover:underline">
            Show all documents
          </Link>
        </p>
      ) : null}

      <Card className="p-4 sm:p-5">
        <h2 className="text-lg font-semibold text-primary">Documents</h2>
        <p className="mt-1 text-sm text-muted-foreground" role="status">
          {data.total === 0 ? "No documents uploaded yet." : `${data.total} ${data.total === 1 ? "document" : "documents"}`}
        </p>
        {data.documents.length > 0 ? (
          <ul className="mt-3 flex flex-col divide-y divide-border" aria-label="Uploaded documents">
            {data.documents.map((doc) => {
              const type = documentTypeLabel(doc.documentType);
              const Icon = doc.mimeType.startsWith("image/") ? FileImage : FileText;
              return (
                <li key={doc.id} className="flex flex-col gap-3 py-3 md:flex-row md:items-center md:justify-between" data-testid="document-row">
                  <div className="flex min-w-0 items-start gap-3">
                    <Icon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-navy-700" />
                    <div className="min-w-0">
                      <p className="font-medium text-foreground [overflow-wrap:anywhere]">{doc.fileName}</p>
                      <p className="text-sm text-slate-700">
                        {type} · {doc.applicantName}
                      </p>
                      <p className="text-sm text-muted-foreground">
                        {loanTypeLabel(doc.loanType)} · {formatFileSize(doc.fileSize)} · Uploaded{" "}
                        <time dateTime={doc.uploadedAt}>{formatDate(doc.uploadedAt, timeZone)}</time>
                      </p>
                    </div>
                  </div>
                  <LinkActions documentId={doc.id} what={`${type} of ${doc.applicantName}`} links={links} />
                </li>
              );
            })}
          </ul>
        ) : null}
        <Pagination page={data.page} pageCount={data.pageCount} cursors={data.cursors} label="Document list pages" hrefFor={(target) => documentsSearch(target, clientId)} />
      </Card>

      <DocumentPreviewDialog
        link={links.preview}
        onClose={links.closePreview}
        onDownload={links.requestDownload}
        downloading={links.preview !== null && links.downloadPendingId === links.preview.documentId}
      />
    </AdminShell>
  );
}
