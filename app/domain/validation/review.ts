import { parsePageRequest, setPageTarget, type PageRequest, type PageTarget } from "~/domain/paging";
import type { ActionResult, Toast } from "~/domain/action-result";
import { z } from "./zod";
import { moneyField, rateField, wholeNumberField } from "./figure-fields";
import { intentSchemas, writtenText } from "./text-fields";
import { centsFromDollars, rateFromPercent } from "~/domain/money";
import { CONTROL_CHARACTER_MESSAGE, hasNoControlCharacters } from "./text-rules";
import { LIMITS } from "~/domain/enums";
import { MAX_LOAN_AMOUNT } from "~/domain/validation/application-constants";
import { OFFER_LIMITS } from "~/domain/loan-offers";
import { APPLICANT_SOURCE, KEY_FACTORS_MAX, type DenialSource } from "~/domain/adverse-action";
import { todayUtc } from "../dates";

/**
 * The admin review screen (/admin, docs/requirements.md §3, §5, §9): one schema per action, shared by the approve
 * and deny dialogs, the notes form (instant messages) and the route's action (the authority). Inputs are
 * the strings a form posts; outputs are typed. Also the list's URL parameters and the spec's toasts.
 */

/** The tabs of the review list, in screen order: the spec's three and Under Review after Pending. */
export const REVIEW_TABS = ["pending", "under_review", "approved", "denied"] as const;
export type ReviewTab = (typeof REVIEW_TABS)[number];

/** Applications per page on /admin: ten full cards (decision 0022: half the page, a fifth less CPU). */
export const REVIEW_PAGE_SIZE = 10;

export const REVIEW_LIMITS = {
  amountMin: 0.01,
  amountMax: MAX_LOAN_AMOUNT,
  rateMin: LIMITS.interestRateMin,
  rateMax: LIMITS.interestRateMax,
  termMin: 1,
  // The Truth in Lending disclosure describes terms up to 40 years (app/domain/truth-in-lending.ts).
  termMax: 480,
  reasonsMin: 1,
  reasonsMax: 6,
  reasonMaxLength: 200,
  noteMaxLength: 2000,
} as const;

/**
 * Standard adverse-action reasons (the wording of the CFPB's sample notice, Regulation B appendix C),
 * offered as checkboxes; 'Other' adds the admin's own words.
 */
export const DENIAL_REASONS = [
  "Insufficient income",
  "Credit history",
  "Excessive obligations",
  "Unable to verify information",
  "Insufficient collateral",
  "Incomplete application",
] as const;
export type DenialReason = (typeof DENIAL_REASONS)[number];

export const REVIEW_MESSAGES = {
  applicationId: "This application could not be identified. Reload the page and try again.",
  amount: `Approved amount must be between $0.01 and $${MAX_LOAN_AMOUNT.toLocaleString("en-US")} (at most two decimals)`,
  rate: `Interest rate must be between ${LIMITS.interestRateMin}% and ${LIMITS.interestRateMax}%`,
  term: `Term must be a whole number of months between ${REVIEW_LIMITS.termMin} and ${REVIEW_LIMITS.termMax}`,
  originationFee: `Origination fee must be between 0% and ${OFFER_LIMITS.originationFeeMaxPercent}% (at most two decimals)`,
  reasonsRequired: "Choose at least one reason for the denial",
  reasonsTooMany: `Choose at most ${REVIEW_LIMITS.reasonsMax} reasons`,
  reasonUnknown: "Choose reasons from the list, or describe the reason under Other",
  otherTooLong: `The other reason must be at most ${REVIEW_LIMITS.reasonMaxLength} characters`,
  creditSource: "Choose where the information behind the decision came from",
  agencyName: "Enter the consumer reporting agency's name (at most 100 characters)",
  agencyAddress: "Enter the consumer reporting agency's address (at most 200 characters)",
  agencyPhone: "Enter the consumer reporting agency's 10-digit telephone number",
  creditScore: "Enter the credit score: a whole number within the range of scores",
  scoreRange: "Enter the lowest and highest possible scores: whole numbers up to 9999, the lowest first",
  scoreDate: "Enter the date of the score (not in the future)",
  keyFactorsRequired: "Enter at least one key factor that adversely affected the score",
  keyFactorsTooMany: `Enter at most ${KEY_FACTORS_MAX} key factors`,
  keyFactorTooLong: `A key factor must be at most ${REVIEW_LIMITS.reasonMaxLength} characters`,
  noteRequired: "Write a note before saving",
  noteTooLong: `A note must be at most ${REVIEW_LIMITS.noteMaxLength} characters`,
  intent: "Unknown action",
} as const;

export type ReviewToast = Toast;

/** The spec's admin messages (docs/requirements.md §9). */
export const REVIEW_TOASTS = {
  approved: { type: "success", title: "Application approved and notification sent!" },
  denied: { type: "success", title: "Application denied", description: "The applicant will receive the notice of action taken." },
  noteAdded: { type: "success", title: "Note added" },
  reviewStarted: { type: "success", title: "Review started", description: "The application is now Under Review." },
  closedIncomplete: {
    type: "success",
    title: "Application closed as incomplete",
    description: "The applicant will receive the notice of action taken.",
  },
  loadFailed: { type: "error", title: "Failed to load applications" },
  migrationFailed: { type: "error", title: "Failed to run encryption migration" },
} as const satisfies Record<string, ReviewToast>;

/** 'Failed to update application' with the reason (already decided, bad input, …). */
/** The title of every refused staff decision's toast. */
export const UPDATE_FAILED_TITLE = "Failed to update application";

export function updateFailedToast(description: string): ReviewToast {
  return { type: "error", title: UPDATE_FAILED_TITLE, description };
}

/** 'Encryption migration complete: encrypted N, skipped M'. */
export function migrationCompleteToast(result: { encrypted: number; skipped: number; failed?: number }): ReviewToast {
  return {
    type: result.failed ? "info" : "success",
    title: `Encryption migration complete: encrypted ${result.encrypted}, skipped ${result.skipped}`,
    ...(result.failed ? { description: `${result.failed} value(s) could not be decrypted with a configured key and were left unchanged.` } : {}),
  };
}

export const REVIEW_INTENTS = ["approve", "deny", "note", "encrypt-migration"] as const;
export type ReviewIntent = (typeof REVIEW_INTENTS)[number];

/** What the /admin action answers: the page shows the toast; field errors go next to the fields. */
export type ReviewActionData = ActionResult<{ intent: ReviewIntent | ApplicationPageIntent | null; toast: ReviewToast; fieldErrors?: Record<string, string[]> }>;

// ---------------------------------------------------------------------------------------------
// Field rules
// ---------------------------------------------------------------------------------------------

const applicationId = z.uuid({ error: REVIEW_MESSAGES.applicationId });

/** The approve dialog's terms: the amount as integer cents, the rates as thousandths of a percent (decision 0078). */
export const approvedAmountField = moneyField(REVIEW_MESSAGES.amount, { maxWholeDigits: 9, minCents: 1, maxCents: centsFromDollars(REVIEW_LIMITS.amountMax) });
export const interestRateField = rateField(REVIEW_MESSAGES.rate, {
  maxWholeDigits: 3,
  minMilli: rateFromPercent(REVIEW_LIMITS.rateMin),
  maxMilli: rateFromPercent(REVIEW_LIMITS.rateMax),
});
export const termMonthsField = wholeNumberField(REVIEW_MESSAGES.term, { maxDigits: 3, min: REVIEW_LIMITS.termMin, max: REVIEW_LIMITS.termMax });

export const originationFeeField = rateField(REVIEW_MESSAGES.originationFee, { maxWholeDigits: 2, minMilli: 0, maxMilli: rateFromPercent(OFFER_LIMITS.originationFeeMaxPercent) });

/** A reason in the admin's own words beside the listed ones (Other): one line, optional. */
const otherReason = z
  .string()
  .trim()
  .max(REVIEW_LIMITS.reasonMaxLength, REVIEW_MESSAGES.otherTooLong)
  .refine(hasNoControlCharacters, CONTROL_CHARACTER_MESSAGE)
  .optional()
  .transform((v) => v?.replace(/\s+/g, " ") || undefined);

/** Reg B reasons for a Counteroffer: the denial list's wording, optional here; the server requires one when the terms differ from the request. */
const counterofferReasons = z
  .array(z.string())
  .max(DENIAL_REASONS.length, REVIEW_MESSAGES.reasonsTooMany)
  .default([])
  .refine((list) => list.every((r) => (DENIAL_REASONS as readonly string[]).includes(r)), REVIEW_MESSAGES.reasonUnknown);

export const approveSchema = z
  .object({
    intent: z.literal("approve"),
    applicationId,
    approvedAmount: approvedAmountField,
    interestRate: interestRateField,
    termMonths: termMonthsField,
    originationFeePercent: originationFeeField,
    counterofferReasons,
    counterofferOther: otherReason,
  })
  .transform(({ counterofferOther, approvedAmount, interestRate, originationFeePercent, ...value }) => {
    const checked = DENIAL_REASONS.filter((r) => value.counterofferReasons.includes(r));
    // The form's names say what a person types; the output's say the unit (cents, thousandths).
    return {
      ...value,
      approvedAmountCents: approvedAmount,
      interestRateMilli: interestRate,
      originationFeeMilli: originationFeePercent,
      counterofferReasons: counterofferOther ? [...checked, counterofferOther] : checked,
    };
  });
export type ApproveInput = z.output<typeof approveSchema>;

/** The deny dialog's consumer report fields: free text, trimmed, one line, no control characters. */
const sourceText = (max: number, message: string) =>
  z
    .string()
    .optional()
    .refine((v) => v === undefined || hasNoControlCharacters(v), CONTROL_CHARACTER_MESSAGE)
    .transform((v) => v?.replace(/\s+/g, " ").trim() ?? "")
    .refine((v) => v.length <= max, message);

const WHOLE_NUMBER = /^\d{1,4}$/;

/**
 * Where the information came from (Reg B / FCRA, ~/domain/adverse-action.ts): the applicant's own, or a
 * consumer report, whose agency is then required, and whose score, when one was used, comes with its
 * range, date and one to four key factors (and whether inquiries were a factor). Field errors carry the
 * field's name, so the dialog shows each beside its field.
 */
function denialSourceOf(value: Record<string, unknown>, ctx: z.RefinementCtx, today: string): DenialSource | undefined {
  if (value.creditSource === undefined || value.creditSource === "applicant") return APPLICANT_SOURCE;
  if (value.creditSource !== "consumer_report") {
    ctx.addIssue({ code: "custom", message: REVIEW_MESSAGES.creditSource, path: ["creditSource"] });
    return undefined;
  }
  let ok = true;
  const fail = (path: string, message: string) => {
    ctx.addIssue({ code: "custom", message, path: [path] });
    ok = false;
  };
  const text = (key: string) => String(value[key] ?? "");
  const name = text("agencyName");
  const address = text("agencyAddress");
  const phoneDigits = text("agencyPhone").replace(/\D/g, "").replace(/^1(?=\d{10}$)/, "");
  if (!name) fail("agencyName", REVIEW_MESSAGES.agencyName);
  if (!address) fail("agencyAddress", REVIEW_MESSAGES.agencyAddress);
  if (phoneDigits.length !== 10) fail("agencyPhone", REVIEW_MESSAGES.agencyPhone);
  let score: Extract<DenialSource, { kind: "consumer_report" }>["score"] = null;
  if (value.scoreUsed) {
    const low = text("scoreRangeLow");
    const high = text("scoreRangeHigh");
    const given = text("creditScore");
    const rangeOk = WHOLE_NUMBER.test(low) && WHOLE_NUMBER.test(high) && Number(low) < Number(high);
    if (!rangeOk) fail("scoreRangeLow", REVIEW_MESSAGES.scoreRange);
    if (!WHOLE_NUMBER.test(given) || (rangeOk && (Number(given) < Number(low) || Number(given) > Number(high)))) fail("creditScore", REVIEW_MESSAGES.creditScore);
    const date = text("scoreDate");
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`)) || date > today) fail("scoreDate", REVIEW_MESSAGES.scoreDate);
    const factors = (value.keyFactors as string[]).filter(Boolean);
    if (factors.length === 0) fail("keyFactors", REVIEW_MESSAGES.keyFactorsRequired);
    if (factors.length > KEY_FACTORS_MAX) fail("keyFactors", REVIEW_MESSAGES.keyFactorsTooMany);
    if (ok) {
      score = {
        score: Number(given),
        rangeLow: Number(low),
        rangeHigh: Number(high),
        scoreDate: date,
        keyFactors: factors,
        inquiriesFactor: Boolean(value.inquiriesFactor),
      };
    }
  }
  if (!ok) return undefined;
  const phone = `(${phoneDigits.slice(0, 3)}) ${phoneDigits.slice(3, 6)}-${phoneDigits.slice(6)}`;
  return { kind: "consumer_report", agency: { name, address, phone }, score };
}

export const denySchema = z
  .object({
    intent: z.literal("deny"),
    applicationId,
    reasons: z
      .array(z.string(), { error: REVIEW_MESSAGES.reasonsRequired })
      .max(DENIAL_REASONS.length, REVIEW_MESSAGES.reasonsTooMany)
      .default([])
      .refine((list) => list.every((r) => (DENIAL_REASONS as readonly string[]).includes(r)), REVIEW_MESSAGES.reasonUnknown),
    otherReason,
    creditSource: z.string().optional(),
    agencyName: sourceText(100, REVIEW_MESSAGES.agencyName),
    agencyAddress: sourceText(200, REVIEW_MESSAGES.agencyAddress),
    agencyPhone: sourceText(20, REVIEW_MESSAGES.agencyPhone),
    scoreUsed: z.string().optional(),
    creditScore: sourceText(4, REVIEW_MESSAGES.creditScore),
    scoreRangeLow: sourceText(4, REVIEW_MESSAGES.scoreRange),
    scoreRangeHigh: sourceText(4, REVIEW_MESSAGES.scoreRange),
    scoreDate: sourceText(10, REVIEW_MESSAGES.scoreDate),
    keyFactors: z
      .array(sourceText(REVIEW_LIMITS.reasonMaxLength, REVIEW_MESSAGES.keyFactorTooLong), { error: REVIEW_MESSAGES.keyFactorsRequired })
      .max(KEY_FACTORS_MAX, REVIEW_MESSAGES.keyFactorsTooMany)
      .default([]),
    inquiriesFactor: z.string().optional(),
  })
  .transform((value, ctx) => {
    // Checked reasons in the list's order, no duplicates, then the admin's own words.
    const checked = DENIAL_REASONS.filter((r) => value.reasons.includes(r));
    const reasons: string[] = value.otherReason ? [...checked, value.otherReason] : checked;
    if (reasons.length < REVIEW_LIMITS.reasonsMin) {
      ctx.addIssue({ code: "custom", message: REVIEW_MESSAGES.reasonsRequired, path: ["reasons"] });
    }
    if (reasons.length > REVIEW_LIMITS.reasonsMax) {
      ctx.addIssue({ code: "custom", message: REVIEW_MESSAGES.reasonsTooMany, path: ["reasons"] });
    }
    const source = denialSourceOf(value, ctx, todayUtc());
    if (!source || reasons.length < REVIEW_LIMITS.reasonsMin || reasons.length > REVIEW_LIMITS.reasonsMax) return z.NEVER;
    return { intent: value.intent, applicationId: value.applicationId, reasons, source };
  });
export type DenyInput = z.output<typeof denySchema>;

export const noteSchema = z.object({
  intent: z.literal("note"),
  applicationId,
  note: writtenText({ max: REVIEW_LIMITS.noteMaxLength, tooLong: REVIEW_MESSAGES.noteTooLong, required: REVIEW_MESSAGES.noteRequired }),
});
export type NoteInput = z.output<typeof noteSchema>;

export const encryptMigrationSchema = z.object({ intent: z.literal("encrypt-migration") });

/** Every action of /admin, told apart by `intent`. */
export const reviewActionSchema = z.union([approveSchema, denySchema, noteSchema, encryptMigrationSchema]);
export type ReviewActionInput = z.output<typeof reviewActionSchema>;

// ---------------------------------------------------------------------------------------------
// The staff application page (/admin/applications/:id): its own action, with the list's
// approve, deny and note, plus Start Review, Close as Incomplete and a document's signed link.
// ---------------------------------------------------------------------------------------------

export const startReviewSchema = z.object({ intent: z.literal("start-review"), applicationId });
export const closeIncompleteSchema = z.object({ intent: z.literal("close-incomplete"), applicationId });

export const APPLICATION_PAGE_INTENTS = ["start-review", "approve", "deny", "close-incomplete", "note", "link"] as const;
export type ApplicationPageIntent = (typeof APPLICATION_PAGE_INTENTS)[number];

/** Refused by the server unless an open request's due date has passed (Reg B 12 CFR 1002.9(c)). */
export const CLOSE_INCOMPLETE_NOT_YET = "Close as Incomplete is available after the due date of an open request.";

/** The schema for one intent of the application page ('link' is checked by the document service). */
export const applicationPageSchemaForIntent = intentSchemas({
  "start-review": startReviewSchema,
  "close-incomplete": closeIncompleteSchema,
  approve: approveSchema,
  deny: denySchema,
  note: noteSchema,
});

/** The schema for one intent of /admin (an unknown intent gets none). */
export const schemaForIntent = intentSchemas({ approve: approveSchema, deny: denySchema, note: noteSchema, "encrypt-migration": encryptMigrationSchema });

/** A posted form as the schemas' input: single values as strings, `reasons` as a list. */
export function reviewFormValues(form: FormData): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const key of [
    "intent",
    "applicationId",
    "approvedAmount",
    "interestRate",
    "termMonths",
    "originationFeePercent",
    "counterofferOther",
    "otherReason",
    "note",
    "creditSource",
    "agencyName",
    "agencyAddress",
    "agencyPhone",
    "scoreUsed",
    "creditScore",
    "scoreRangeLow",
    "scoreRangeHigh",
    "scoreDate",
    "inquiriesFactor",
  ]) {
    const value = form.get(key);
    if (typeof value === "string") values[key] = value;
  }
  values.reasons = form.getAll("reasons").filter((v): v is string => typeof v === "string");
  values.keyFactors = form.getAll("keyFactors").filter((v): v is string => typeof v === "string");
  values.counterofferReasons = form.getAll("counterofferReasons").filter((v): v is string => typeof v === "string");
  return values;
}

/** A schema's issues as per-field messages (the shared helper, under the name the admin dialogs use). */
export { issuesToFieldErrors as reviewFieldErrors } from "./field-errors";

// ---------------------------------------------------------------------------------------------
// The list's URL: ?status=pending|under_review|approved|denied&page=N
// ---------------------------------------------------------------------------------------------

export type ReviewListParams = PageRequest & {
  tab: ReviewTab;
  /** My Queue (?queue=mine). */
  mine?: boolean;
  /** Awaiting Confirmation (?status=awaiting_confirmation): open applications with an approval proposed and not yet confirmed. */
  awaiting?: boolean;
};

/** The ?status value of the Awaiting Confirmation list (four-eyes approvals waiting for a second staff member). */
export const AWAITING_CONFIRMATION = "awaiting_confirmation";

/** Lenient: an unknown tab is 'pending', a missing or bad page is 1, a malformed token is ignored (the server clamps the rest). */
export function parseReviewListParams(search: URLSearchParams): ReviewListParams {
  const status = search.get("status");
  // Awaiting Confirmation spans the open statuses and everyone's applications (My Queue does not apply).
  if (status === AWAITING_CONFIRMATION) return { tab: "pending", awaiting: true, ...parsePageRequest(search) };
  const tab: ReviewTab = (REVIEW_TABS as readonly string[]).includes(status ?? "") ? (status as ReviewTab) : "pending";
  // My Queue only when asked for, so the plain list's parameters stay as they were.
  return { tab, ...parsePageRequest(search), ...(search.get("queue") === "mine" ? { mine: true } : {}) };
}

/** The URL of a page of Awaiting Confirmation ("?status=awaiting_confirmation&after=…"). */
export function awaitingListHref(page: number | PageTarget = 1): string {
  const search = new URLSearchParams({ status: AWAITING_CONFIRMATION });
  setPageTarget(search, typeof page === "number" ? { page } : page);
  return `?${search.toString()}`;
}

/** The URL of a tab and page ("?status=approved&after=…"; the first page has no page part). */
export function reviewListHref(tab: ReviewTab, page: number | PageTarget = 1, mine = false): string {
  const search = new URLSearchParams({ status: tab });
  setPageTarget(search, typeof page === "number" ? { page } : page);
  // My Queue is kept across the tabs and pages.
  if (mine) search.set("queue", "mine");
  return `?${search.toString()}`;
}
