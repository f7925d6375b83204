import type { ActionResult, Toast } from "~/domain/action-result";
import { z } from "./zod";

/**
 * Withdraw Application: the applicant's confirm dialog on their application's page posts
 * intent=withdraw to /dashboard/applications/:id/withdraw. The schema is the intent alone: the
 * application is the route's and must be the signed-in applicant's own; nothing else is taken from
 * the browser. Allowed while the application is pending or under review (the lifecycle's 'withdraw').
 */

export const APPLICATION_WITHDRAW_INTENTS = ["withdraw"] as const;

export const APPLICATION_WITHDRAW_MESSAGES = {
  intent: "Unknown action.",
  notFound: "This application was not found.",
  alreadyWithdrawn: "You have already withdrawn this application.",
  decided: "This application can no longer be withdrawn: a decision has already been made on it.",
  failed: "Something went wrong. Please try again.",
} as const;

export const applicationWithdrawSchema = z.object({ intent: z.literal("withdraw", { error: APPLICATION_WITHDRAW_MESSAGES.intent }) });
export type ApplicationWithdrawInput = z.output<typeof applicationWithdrawSchema>;

export const APPLICATION_WITHDRAW_TOASTS = {
  withdrawn: { type: "success", title: "Application withdrawn", description: "We have recorded that you withdrew it and e-mailed you a confirmation." },
} as const satisfies Record<string, Toast>;

/** The toast title when a withdrawal is refused. */
export const APPLICATION_WITHDRAW_FAILED = "Could not withdraw the application";

/** Staff's answer (409) to a decision on an application its applicant withdrew. */
export const WITHDRAWN_BY_APPLICANT = "The applicant withdrew this application: it can no longer be reviewed or decided.";

/** What the route answers (JSON): the toast the page shows; `at` tells two equal answers apart. */
export type ApplicationWithdrawActionData = ActionResult<{ intent: "withdraw" | null; toast: Toast; at: number }>;
