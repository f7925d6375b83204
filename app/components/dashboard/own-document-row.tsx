import { Download, FileText } from "lucide-react";
import type { ReactNode } from "react";
import { PendingButton } from "~/components/ui/pending-button";
import type { useOwnDocumentLinks } from "./use-own-document-links";

/**
 * One of the applicant's own documents with its Download button (a 60-second signed link, asked for on
 * press). `children` is the description: the details dialog shows the file name, the application page
 * the document type, file name and date.
 */
export function OwnDocumentRow({
  id,
  fileName,
  links,
  children,
}: {
  id: string;
  fileName: string;
  links: ReturnType<typeof useOwnDocumentLinks>;
  children: ReactNode;
}) {
  return (
    <li className="flex min-w-0 items-center gap-2 rounded-md bg-muted px-3 py-2">
      <FileText aria-hidden="true" className="size-4 shrink-0 text-navy-700" />
      {children}
      <PendingButton variant="outline" size="sm" pending={links.pendingId === id} onClick={() => links.request(id)} icon={<Download aria-hidden="true" />}>
        Download<span className="sr-only"> {fileName}</span>
      </PendingButton>
    </li>
  );
}
