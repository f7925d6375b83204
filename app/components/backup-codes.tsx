import { Check, Copy, Download } from "lucide-react";
import { useState } from "react";
import { startDownload } from "~/components/admin/documents/use-document-links";
import { Button } from "~/components/ui/button";
import { cn } from "~/utils/cn";

/** The backup codes as a text file: one a line, with a note saying what they are for. */
export function backupCodesText(codes: readonly string[], site: string): string {
  return [`${site}: two-factor authentication backup codes`, "Each code works once. Keep this file somewhere safe.", "", ...codes, ""].join("\n");
}

/**
 * Copy and Download for the one-time backup codes. Both work in the browser only: the codes are
 * never sent anywhere again, and the .txt is made from the page's own copy. A copy the browser
 * refuses (no clipboard permission, an insecure origin) says so instead of failing silently.
 */
function BackupCodeActions({ codes }: { codes: readonly string[] }) {
  const [copyState, setCopyState] = useState<"idle" | "copied" | "failed">("idle");
  const text = () => backupCodesText(codes, window.location.host);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text());
      setCopyState("copied");
    } catch {
      setCopyState("failed");
    }
  }

  function download() {
    const url = URL.createObjectURL(new Blob([text()], { type: "text/plain;charset=utf-8" }));
    startDownload({ url, fileName: "backup-codes.txt" });
    // Revoked on the next task: Chromium starts the download from the click synchronously.
    window.setTimeout(() => URL.revokeObjectURL(url), 0);
  }

  return (
    <div className="mt-4">
      <div className="flex flex-wrap gap-3">
        <Button type="button" variant="outline" onClick={() => void copy()}>
          {copyState === "copied" ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
          Copy Codes
        </Button>
        <Button type="button" variant="outline" onClick={download}>
          <Download aria-hidden="true" />
          Download Codes (.txt)
        </Button>
      </div>
      <p role="status" className="mt-2 min-h-5 text-sm text-slate-700" data-testid="backup-codes-status">
        {copyState === "copied" ? "Backup codes copied to the clipboard." : copyState === "failed" ? "Your browser did not allow copying: use Download Codes instead, or select the codes." : ""}
      </p>
    </div>
  );
}

/**
 * The one-time backup codes as they are shown once, after enrolment or regeneration: the staff
 * two-factor page and the applicant's /account both use this list and its Copy and Download.
 */
export function BackupCodeList({ codes, className }: { codes: readonly string[]; className?: string }) {
  return (
    <>
      <ul aria-label="Backup codes" className={cn("grid grid-cols-2 gap-2 font-mono text-base", className)}>
        {codes.map((c) => (
          <li key={c} className="rounded border border-slate-300 bg-slate-50 px-3 py-2 text-slate-900">
            {c}
          </li>
        ))}
      </ul>
      <BackupCodeActions codes={codes} />
    </>
  );
}
