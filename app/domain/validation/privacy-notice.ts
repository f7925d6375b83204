import type { ActionResult, Toast } from "~/domain/action-result";
import { intentLiteral, intentMessages } from "./confirm-intent";
import { z } from "./zod";

/**
 * "I Have Read This" on /account/privacy: records that the signed-in applicant read the
 * current privacy notice, then goes on to where they were going (a same-site path, checked on the server).
 */

export const PRIVACY_NOTICE_INTENTS = ["accept"] as const;

export const PRIVACY_NOTICE_MESSAGES = intentMessages({ staff: "The privacy notice is for our customers; staff accounts do not accept it." });

export const acceptPrivacyNoticeSchema = z.object({
  intent: intentLiteral("accept"),
  // Checked for being one of our own pages by the server (safeRedirectPath); only its length here.
  redirectTo: z.string().max(2048).optional(),
});

export const PRIVACY_ACCEPTED_TOAST: Toast = { type: "success", title: "Thank You", description: "We recorded that you read our updated privacy notice." };

export type PrivacyNoticeActionData = ActionResult<{ toast: Toast }>;
