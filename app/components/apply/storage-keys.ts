/** Where the wizard keeps this tab's draft (sessionStorage); the header clears them on sign-out. */
export const DRAFT_STORAGE_KEY = "pl.apply.draft.v1";
export const IDEMPOTENCY_STORAGE_KEY = "pl.apply.idempotency.v1";
