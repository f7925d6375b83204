import { emptyValues, NOT_PERSISTED, type WizardField, type WizardValues } from "./wizard-values";
import { checkDocuments, checkSchemaStep, isStepNumber, type DocumentFiles, type StepNumber } from "./wizard-steps";

/** The wizard's session draft: what survives a reload, and what never leaves memory. */

export { DRAFT_STORAGE_KEY, IDEMPOTENCY_STORAGE_KEY } from "./storage-keys";

export type WizardDraft = {
  v: 1;
  /** Whose draft: another account signing in in the same tab does not see it. */
  userId: string;
  step: StepNumber;
  values: Partial<WizardValues>;
  /** The estimate already applied (and announced). */
  estimateKey: string | null;
};

const TEMPLATE = emptyValues();
const MAX_DRAFT_TEXT = 2000;

/** The draft as stored: never the SSN, the bank numbers, the consent, files or the signature. */
export function serializeDraft(draft: { userId: string; step: StepNumber; values: WizardValues; estimateKey: string | null }): string {
  const values: Record<string, unknown> = { ...draft.values };
  for (const field of NOT_PERSISTED) delete values[field];
  const stored: WizardDraft = { v: 1, userId: draft.userId, step: draft.step, values: values as Partial<WizardValues>, estimateKey: draft.estimateKey };
  return JSON.stringify(stored);
}

/** Reads a stored draft defensively: unknown keys, wrong types and another user's draft are dropped. */
export function parseDraft(raw: string | null, userId: string): WizardDraft | null {
  if (!raw) return null;
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof data !== "object" || data === null) return null;
  const d = data as Record<string, unknown>;
  if (d.v !== 1 || d.userId !== userId || !isStepNumber(d.step)) return null;
  const values: Partial<Record<WizardField, string | boolean>> = {};
  const source = typeof d.values === "object" && d.values !== null ? (d.values as Record<string, unknown>) : {};
  for (const key of Object.keys(TEMPLATE) as WizardField[]) {
    if ((NOT_PERSISTED as readonly string[]).includes(key)) continue;
    const value = source[key];
    if (typeof value === typeof TEMPLATE[key] && (typeof value !== "string" || value.length <= MAX_DRAFT_TEXT)) {
      values[key] = value as string | boolean;
    }
  }
  return {
    v: 1,
    userId,
    step: d.step,
    values: values as Partial<WizardValues>,
    estimateKey: typeof d.estimateKey === "string" ? d.estimateKey : null,
  };
}

/**
 * The step to reopen a draft on: the saved one, unless an earlier step no longer passes. A session
 * draft holds no documents, bank numbers or signature, so it reopens on step 4 at the latest; a
 * server draft passes its kept documents and sensitive fields, and may reopen on step 5.
 */
export function restoreStep(saved: StepNumber, values: WizardValues, server?: { kept: readonly string[]; files: DocumentFiles }): StepNumber {
  const target = (server ? saved : Math.min(saved, 4)) as StepNumber;
  for (let step = 1; step < target; step++) {
    if (!checkSchemaStep(step as StepNumber, values, server?.kept).ok) return step as StepNumber;
    if (step === 4 && !checkDocuments(server?.files ?? {}).ok) return 4;
  }
  return target;
}
