import { Download, FileWarning } from "lucide-react";
import { useState } from "react";
import { documentTypeLabel } from "~/components/admin/clients/format";
import { Detail } from "~/components/ui/detail-list";
import { DialogCloseButton, ModalDialog } from "~/components/ui/dialog";
import { PendingButton } from "~/components/ui/pending-button";
import type { DocumentLink } from "./types";

/** "4:05:12 PM" in the browser's zone (the dialog only ever renders in the browser, after an action). */
function expiryTime(iso: string): string {
  return new Intl.DateTimeFormat("en-US", { hour: "numeric", minute: "2-digit", second: "2-digit" }).format(new Date(iso));
}

/**
 * The preview of one document through its 60-second link (docs/requirements.md §3): images inline, PDFs in a
 * frame, any other type a 'Download to View' button; with the applicant, the document type and when
 * the link expires. An expired link shows a note instead of a broken frame.
 */
export function DocumentPreviewDialog({
  link,
  onClose,
  onDownload,
  downloading,
}: {
  link: DocumentLink | null;
  onClose: () => void;
  onDownload: (documentId: string) => void;
  downloading: boolean;
}) {
  return (
    <ModalDialog
      open={link !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      testId="document-preview"
      width="4xl"
      title="Document Preview"
      description={link?.fileName}
      descriptionClassName="[overflow-wrap:anywhere]"
    >
      {link ? <PreviewBody key={link.url} link={link} onDownload={onDownload} downloading={downloading} /> : null}
    </ModalDialog>
  );
}

function PreviewBody({ link, onDownload, downloading }: { link: DocumentLink; onDownload: (documentId: string) => void; downloading: boolean }) {
  const [failed, setFailed] = useState(false);
  const type = documentTypeLabel(link.documentType);
  const isImage = link.mimeType.startsWith("image/");
  const isPdf = link.mimeType === "application/pdf";
  const title = `${type} of ${link.applicantName}`;
  return (
    <>
      <dl className="mt-4 grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-3">
        <Detail label="Applicant">{link.applicantName}</Detail>
        <Detail label="Document Type">{type}</Detail>
        <Detail label="Link Expires">
          <time dateTime={link.expiresAt}>{expiryTime(link.expiresAt)}</time>
        </Detail>
      </dl>

      <div className="mt-4 flex min-h-48 items-center justify-center overflow-hidden rounded-lg border border-border bg-muted">
        {failed ? (
          <p className="flex items-center gap-2 p-6 text-sm text-slate-800" role="status">
            <FileWarning aria-hidden="true" className="size-5 text-destructive" />
            The preview could not be loaded (the link may have expired). Close and preview again for a new link.
          </p>
        ) : isImage ? (
          <img src={link.url} alt={title} className="max-h-[65vh] w-auto max-w-full object-contain" data-testid="preview-image" onError={() => setFailed(true)} />
        ) : isPdf ? (
          <iframe src={link.url} title={title} className="h-[65vh] w-full bg-white" data-testid="preview-frame" />
        ) : (
          <div className="flex flex-col items-center gap-3 p-8 text-center">
            <p className="text-sm text-slate-800">This file type cannot be shown in the browser.</p>
            <PendingButton onClick={() => onDownload(link.documentId)} pending={downloading} icon={<Download aria-hidden="true" />}>
              Download to View
            </PendingButton>
          </div>
        )}
      </div>

      <div className="mt-4 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <DialogCloseButton />
        {isImage || isPdf ? (
          <PendingButton variant="outline" onClick={() => onDownload(link.documentId)} pending={downloading} icon={<Download aria-hidden="true" />}>
            Download
          </PendingButton>
        ) : null}
      </div>
    </>
  );
}
