import type { ActionResult, Toast } from "~/domain/action-result";

/** What the /admin/documents action answers to intent=link (the browser only ever sees this). */
export type DocumentLink = {
  url: string;
  documentId: string;
  disposition: "inline" | "attachment";
  exp: number;
  expiresAt: string;
  fileName: string;
  mimeType: string;
  documentType: string;
  applicantName: string;
};

/** `nonce` tells two answers apart, so each is handled once. */
export type LinkActionData = ActionResult<{ nonce: string }> & ({ ok: true; link: DocumentLink } | { ok: false; toast: Toast });

export const LINK_TEXT = {
  previewTitle: "Secure Access Generated",
  previewDescription: "Preview expires in 60 seconds",
  downloadTitle: "Download Started",
} as const;
