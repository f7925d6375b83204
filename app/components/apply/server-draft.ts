import { DOCUMENT_FIELDS, type DocumentField } from "~/domain/validation/application";
import { checkDraftFields, isFlag, SENSITIVE_DRAFT_FIELDS, type DraftFieldProblem, type SensitiveDraftField } from "~/domain/validation/application-draft";
import type { SavedDraft } from "~/domain/views/application-draft";
import { isStepNumber, type DocumentFiles, type StepNumber } from "./wizard-steps";
import { emptyValues, schemaInput, type WizardField, type WizardValues } from "./wizard-values";

/**
 * The wizard's server draft (Save and Finish Later): what it resumes from, the body it posts
 * to /api/drafts and what the answer means. The server's draft is the source of truth across devices;
 * the tab's session draft (use-wizard-draft.ts) still covers a reload between two saves.
 */

export const DRAFTS_URL = "/api/drafts";
export const SAVED_TOAST = "Your application has been saved. Continue it from your dashboard within 30 days.";

export type KeptValues = Partial<Record<SensitiveDraftField, string>>;

const TEMPLATE = emptyValues();

/** A saved draft's fields as the wizard holds them (the date of birth back in its three selects). */
export function draftValues(draft: SavedDraft): Partial<WizardValues> {
  const out: Partial<Record<WizardField, string | boolean>> = {};
  for (const [field, value] of Object.entries(draft.values)) {
    if (field === "dateOfBirth") {
      const [year, month, day] = value.split("-");
      if (year && month && day) Object.assign(out, { dobYear: year, dobMonth: month, dobDay: day });
      continue;
    }
    if (!(field in TEMPLATE) || (SENSITIVE_DRAFT_FIELDS as readonly string[]).includes(field)) continue;
    out[field as WizardField] = isFlag(field) ? value === "true" : value;
  }
  return out as Partial<WizardValues>;
}

export function draftStep(draft: SavedDraft): StepNumber {
  return isStepNumber(draft.step) ? draft.step : 1;
}

/** The documents kept with the draft, by slot (shown as uploaded; not sent again). */
export function draftFiles(draft: SavedDraft): DocumentFiles {
  const out: DocumentFiles = {};
  for (const file of draft.files) {
    if (DOCUMENT_FIELDS.some((d) => d.field === file.field)) out[file.field as DocumentField] = { name: file.name, size: file.size };
  }
  return out;
}

/** The text fields a draft carries: the submission's, without the consent. */
function draftFields(values: WizardValues): Record<string, string> {
  const fields: Record<string, string> = schemaInput(values);
  delete fields.agreeToTerms;
  return fields;
}

/** The first field the server would refuse in a draft (each field checked by its step's rule), or null. */
export function draftProblem(values: WizardValues): DraftFieldProblem | null {
  const checked = checkDraftFields(draftFields(values));
  return checked.ok ? null : checked.problem;
}

/**
 * The draft as posted: every field (blank sensitive ones keep what is stored), the documents chosen
 * since the last save, the step reached, and the loan type it was saved under before, if that changed.
 */
export function buildDraftBody(values: WizardValues, files: Partial<Record<DocumentField, Blob & { name?: string }>>, step: StepNumber, fromLoanType: string | null): FormData {
  const body = new FormData();
  body.append("intent", "save");
  body.append("step", String(step));
  if (fromLoanType && fromLoanType !== values.loanType) body.append("fromLoanType", fromLoanType);
  for (const [name, value] of Object.entries(draftFields(values))) body.append(name, value);
  for (const doc of DOCUMENT_FIELDS) {
    const file = files[doc.field];
    if (file) body.append(doc.field, file, file.name || doc.field);
  }
  return body;
}

export type DraftAnswer = { status: number; ok: boolean; draft?: SavedDraft; message: string; field?: string };

/** Posts a draft; a network failure answers status 0 (the wizard keeps everything and says so). */
export async function postDraft(body: FormData): Promise<DraftAnswer> {
  try {
    const res = await fetch(DRAFTS_URL, { method: "POST", body, credentials: "same-origin" });
    const answer = (await res.json().catch(() => ({}))) as Partial<DraftAnswer>;
    return { status: res.status, ok: res.ok && answer.ok === true, draft: answer.draft, message: answer.message ?? "", field: answer.field };
  } catch {
    return { status: 0, ok: false, message: "" };
  }
}

/**
 * What the review step shows for a kept sensitive value the applicant did not type again: digits
 * standing in for the hidden ones, so the usual masks show the same last digits.
 */
export function withKeptForDisplay(values: WizardValues, kept: KeptValues): WizardValues {
  const last = (mask: string | undefined, n: number) => (mask ? mask.replace(/\D/g, "").slice(-n) : "");
  return {
    ...values,
    ssn: values.ssn || (kept.ssn ? `00000${last(kept.ssn, 4)}` : ""),
    accountNumber: values.accountNumber || (kept.accountNumber ? `000000${last(kept.accountNumber, 4)}` : ""),
    routingNumber: values.routingNumber || (kept.routingNumber ? `0000000${last(kept.routingNumber, 2)}` : ""),
  };
}
