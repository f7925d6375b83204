/** Where the wizard keeps its browser draft (localStorage) and its idempotency key (sessionStorage); the header clears both on sign-out. */
export const DRAFT_STORAGE_KEY = "pl.apply.draft.v1";
export const IDEMPOTENCY_STORAGE_KEY = "pl.apply.idempotency.v1";
