import type { ActionResult, Toast } from "~/domain/action-result";
import { CLOSE_ACCOUNT_CONFIRMATION } from "./account-constants";
import { intentMessages } from "./confirm-intent";
import { z } from "./zod";

/**
 * Download My Data and Close My Account: the account page's data section posts to
 * /account/data with intent=request-export or intent=close-account. One schema for the browser's
 * dialog and the server. Closing asks for the password and a typed confirmation, so a stray click or a
 * borrowed, unlocked browser cannot close an account.
 */

/** The intents /account/data answers (the authorization matrix walks them). */
export const ACCOUNT_DATA_INTENTS = ["request-export", "close-account"] as const;

export { CLOSE_ACCOUNT_CONFIRMATION } from "./account-constants";

export const ACCOUNT_DATA_MESSAGES = intentMessages({
  password: "Enter your password.",
  confirmation: `Type ${CLOSE_ACCOUNT_CONFIRMATION} to confirm.`,
  wrongPassword: "The password is not correct.",
  exportPending: "Your file is already being prepared.",
  activeLoan:
    "Your account cannot be closed while you have an active loan. Once the loan is paid off, you can close your account; until then, contact us if you need help.",
  offerOpen: (application: { loanType: string; reference: string }) =>
    `Your account cannot be closed while the loan offer on your ${application.loanType} application ${application.reference} is waiting for your decision or signature. Decline the offer (or let it expire) first.`,
  /** Names the application (its type, reference and status) and what to do: Withdraw Application on its page. */
  applicationOpen: (application: { loanType: string; reference: string; status: string }) =>
    `Your account cannot be closed while your ${application.loanType} application ${application.reference} is ${application.status.toLowerCase()}. Withdraw it first: open the application and choose Withdraw Application.`,
  alreadyClosed: "This account is already closed.",
});

/** Download My Data's daily allowance per person (the server counts it in rate_limit_hits). */
export const DATA_EXPORTS_PER_DAY = 3;

/** After the third request of a day: how long until the next one is accepted (whole hours, or minutes under one). */
export function dataExportDailyLimitMessage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  const wait = minutes < 60 ? `${minutes} ${minutes === 1 ? "minute" : "minutes"}` : `${Math.ceil(minutes / 60)} ${Math.ceil(minutes / 60) === 1 ? "hour" : "hours"}`;
  return `You can request your data ${DATA_EXPORTS_PER_DAY} times a day. Please try again in ${wait}.`;
}

/** The per-person storage cap, in words ("512 MB"). */
const capInWords = (capBytes: number) => `${Math.round(capBytes / (1024 * 1024))} MB`;

/** Refused (or failed) because the file would not fit under the person's storage cap. */
export function storageCapMessage(capBytes: number): string {
  return `Your data file would not fit in the ${capInWords(capBytes)} of storage each person has with us (your documents count too). Contact us and we will send you your data another way.`;
}

export const requestExportSchema = z.object({ intent: z.literal("request-export") });

export const closeAccountSchema = z.object({
  intent: z.literal("close-account"),
  // Not trimmed: a password is compared as typed. The upper bound only refuses absurd bodies.
  password: z.string({ error: ACCOUNT_DATA_MESSAGES.password }).min(1, ACCOUNT_DATA_MESSAGES.password).max(256, ACCOUNT_DATA_MESSAGES.password),
  confirmation: z
    .string({ error: ACCOUNT_DATA_MESSAGES.confirmation })
    .trim()
    .refine((v) => v === CLOSE_ACCOUNT_CONFIRMATION, ACCOUNT_DATA_MESSAGES.confirmation),
});
export type CloseAccountInput = z.output<typeof closeAccountSchema>;

export const ACCOUNT_DATA_TOASTS = {
  exportRequested: {
    type: "success",
    title: "Download My Data",
    description: "We are preparing your file; we will e-mail you a link.",
  },
  closed: { type: "success", title: "Account closed", description: "Your account is closed and you have been signed out everywhere." },
} as const satisfies Record<string, Toast>;

export const ACCOUNT_DATA_FAILED = { "request-export": "Could not request your data", "close-account": "Could not close your account" } as const;

export type AccountDataIntent = (typeof ACCOUNT_DATA_INTENTS)[number];

/** What /account/data answers (JSON). `redirectTo` is set once the account is closed (the session is gone). */
export type AccountDataActionData = ActionResult<{ intent: AccountDataIntent | null; toast: Toast; at: number; redirectTo?: string }>;
