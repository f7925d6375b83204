import { confirmIntentForm, type ConfirmIntentActionData } from "./confirm-intent";

/**
 * Withdraw Application: the applicant's confirm dialog on their application's page posts
 * intent=withdraw to /dashboard/applications/:id/withdraw. The schema is the intent alone: the
 * application is the route's and must be the signed-in applicant's own; nothing else is taken from
 * the browser. Allowed while the application is pending or under review (the lifecycle's 'withdraw').
 */
export const APPLICATION_WITHDRAW = confirmIntentForm("withdraw", {
  failedTitle: "Could not withdraw the application",
  messages: {
    notFound: "This application was not found.",
    alreadyWithdrawn: "You have already withdrawn this application.",
    decided: "This application can no longer be withdrawn: a decision has already been made on it.",
  },
  done: { type: "success", title: "Application withdrawn", description: "We have recorded that you withdrew it and e-mailed you a confirmation." },
});

export const { intents: APPLICATION_WITHDRAW_INTENTS, messages: APPLICATION_WITHDRAW_MESSAGES } = APPLICATION_WITHDRAW;
export type ApplicationWithdrawActionData = ConfirmIntentActionData<"withdraw">;

/** Staff's answer (409) to a decision on an application its applicant withdrew. */
export const WITHDRAWN_BY_APPLICANT = "The applicant withdrew this application: it can no longer be reviewed or decided.";
