import { Download, FileWarning, X } from "lucide-react";
import { Dialog } from "radix-ui";
import { useState } from "react";
import { documentTypeLabel } from "~/components/admin/clients/format";
import { Button } from "~/components/ui/button";
import { Spinner } from "~/components/ui/spinner";
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
    <Dialog.Root open={link !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-navy-950/60" />
        {link ? (
          <Dialog.Content
            className="fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-4xl -translate-x-1/2 -translate-y-1/2 flex-col overflow-y-auto rounded-xl border border-border bg-card p-5 text-card-foreground shadow-xl sm:p-6"
            data-testid="document-preview"
          >
            <PreviewBody key={link.url} link={link} onDownload={onDownload} downloading={downloading} />
          </Dialog.Content>
        ) : null}
      </Dialog.Portal>
    </Dialog.Root>
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
      <div className="flex items-start justify-between gap-4">
        <div className="min-w-0">
          <Dialog.Title className="text-xl font-bold text-primary">Document Preview</Dialog.Title>
          <Dialog.Description className="mt-1 truncate text-sm text-muted-foreground">{link.fileName}</Dialog.Description>
        </div>
        <Dialog.Close asChild>
          <Button variant="ghost" size="icon" aria-label="Close" className="-mt-2 -mr-2">
            <X aria-hidden="true" />
          </Button>
        </Dialog.Close>
      </div>

      <dl className="mt-4 grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-muted-foreground">Applicant</dt>
          <dd className="font-semibold">{link.applicantName}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Document Type</dt>
          <dd className="font-semibold">{type}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Link Expires</dt>
          <dd className="font-semibold">
            <time dateTime={link.expiresAt}>{expiryTime(link.expiresAt)}</time>
          </dd>
        </div>
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
            <Button onClick={() => onDownload(link.documentId)} disabled={downloading}>
              {downloading ? <Spinner className="size-4" /> : <Download aria-hidden="true" />}
              Download to View
            </Button>
          </div>
        )}
      </div>

      <div className="mt-4 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Dialog.Close asChild>
          <Button variant="secondary">Close</Button>
        </Dialog.Close>
        {isImage || isPdf ? (
          <Button variant="outline" onClick={() => onDownload(link.documentId)} disabled={downloading}>
            {downloading ? <Spinner className="size-4" /> : <Download aria-hidden="true" />}
            Download
          </Button>
        ) : null}
      </div>
    </>
  );
}
