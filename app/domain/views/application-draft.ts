import type { SensitiveDraftField } from "~/domain/validation/application-draft";

/**
 * A saved draft as the browser sees it: the wizard resumes from it, the dashboard lists it.
 * Sensitive values never come back in clear: `kept` holds their masks only ("•••••6789").
 */
export type SavedDraft = {
  loanType: string;
  /** The furthest step reached, 1-5. */
  step: number;
  /** The non-sensitive fields as typed, named as the submission names them. */
  values: Record<string, string>;
  kept: Partial<Record<SensitiveDraftField, string>>;
  /** Documents uploaded with the draft, by wizard field; the name is ours ("utility_bill.pdf"). */
  files: { field: string; name: string; size: number }[];
  updatedAt: string;
  expiresAt: string;
};

/** The dashboard's Continue Your Application card. */
export type DraftSummary = { loanType: string; step: number; stepTitle: string; updatedAt: string; expiresAt: string };
