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

export type LinkActionData =
  | { ok: true; nonce: string; link: DocumentLink }
  | { ok: false; nonce: string; title: string; message: string };

export const LINK_TEXT = {
  previewTitle: "Secure Access Generated",
  previewDescription: "Preview expires in 60 seconds",
  downloadTitle: "Download Started",
} as const;
