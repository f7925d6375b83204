import { useEffect } from "react";
import { DRAFT_STORAGE_KEY, IDEMPOTENCY_STORAGE_KEY, parseDraft, serializeDraft, type WizardDraft } from "./wizard-draft";
import type { StepNumber } from "./wizard-steps";
import { newIdempotencyKey } from "./wizard-submission";
import type { WizardValues } from "./wizard-values";

/**
 * The wizard's browser draft, saved from the first field typed. It is kept in localStorage, so an
 * applicant who leaves before choosing a loan type (the server draft is named by its loan type, so it
 * cannot hold step 1 alone) finds step 1 again on this device, after closing the tab too. It holds no
 * SSN, bank numbers, files or signature, belongs to one account (another account's is removed on
 * sight) and is removed on sign-out and on submission. The submission's idempotency key stays in
 * sessionStorage: one per tab's wizard, so a later application never replays an earlier one's key.
 * Storage can be missing or refuse writes (private modes, quota): the wizard then works without it.
 */

function webStorage(kind: "localStorage" | "sessionStorage"): Storage | null {
  try {
    return typeof window === "undefined" ? null : window[kind];
  } catch {
    return null;
  }
}
const draftStorage = () => webStorage("localStorage");
const storage = () => webStorage("sessionStorage");

/** This user's draft; a draft that is unreadable or belongs to another account is removed. */
export function readDraft(userId: string): WizardDraft | null {
  try {
    const store = draftStorage();
    const raw = store?.getItem(DRAFT_STORAGE_KEY) ?? null;
    const draft = parseDraft(raw, userId);
    if (raw !== null && draft === null) {
      store?.removeItem(DRAFT_STORAGE_KEY);
      storage()?.removeItem(IDEMPOTENCY_STORAGE_KEY);
    }
    return draft;
  } catch {
    return null;
  }
}

export function clearDraft(): void {
  try {
    draftStorage()?.removeItem(DRAFT_STORAGE_KEY);
    storage()?.removeItem(IDEMPOTENCY_STORAGE_KEY);
  } catch {
    // Nothing to clear.
  }
}

/** The submission's idempotency key: made once per wizard, reused by every retry until success. */
export function getIdempotencyKey(): string {
  const store = storage();
  try {
    const existing = store?.getItem(IDEMPOTENCY_STORAGE_KEY);
    if (existing && /^[A-Za-z0-9_-]{16,64}$/.test(existing)) return existing;
  } catch {
    // Fall through to a new key.
  }
  const key = newIdempotencyKey();
  try {
    store?.setItem(IDEMPOTENCY_STORAGE_KEY, key);
  } catch {
    // Kept in memory by the caller for this page's retries.
  }
  return key;
}

/** Saves the draft whenever the values or the step change (never after submission). */
export function useWizardDraft(
  draft: { userId: string; step: StepNumber; values: WizardValues; estimateKey: string | null },
  enabled: boolean,
) {
  const { userId, step, values, estimateKey } = draft;
  useEffect(() => {
    if (!enabled) return;
    try {
      draftStorage()?.setItem(DRAFT_STORAGE_KEY, serializeDraft({ userId, step, values, estimateKey }));
    } catch {
      // Storage full or refused: the wizard still works, it just will not survive a reload.
    }
  }, [enabled, userId, step, values, estimateKey]);
}
