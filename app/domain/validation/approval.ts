import type { ActionResult, Toast } from "~/domain/action-result";
import { formatMoney } from "~/domain/money";
import { intentSchemas, writtenText } from "./text-fields";
import { z } from "./zod";

/**
 * Four-eyes approval: an approval at or above FOUR_EYES_THRESHOLD is a proposal another
 * staff member confirms (Confirm Approval) or sends back with a comment (Send Back). One schema per
 * form, shared by the page's buttons and dialog and the route POST /admin/applications/:id/approval.
 */

export const APPROVAL_INTENTS = ["confirm", "send-back"] as const;
export type ApprovalIntent = (typeof APPROVAL_INTENTS)[number];

export const APPROVAL_LIMITS = { commentMaxLength: 2000 } as const;

export const APPROVAL_MESSAGES = {
  intent: "Unknown action.",
  proposalId: "This proposal could not be identified. Reload the page and try again.",
  commentRequired: "Enter a comment saying why the approval is sent back",
  commentTooLong: `The comment must be at most ${APPROVAL_LIMITS.commentMaxLength} characters`,
  notFound: "This application does not exist.",
  alreadyOpen: "An approval is already waiting for confirmation.",
  ownProposal: "You proposed this approval: another staff member must confirm it.",
  notOpen: "This approval is no longer waiting for confirmation: it was already confirmed or sent back.",
} as const;

/** The comment a Deny, a Close as Incomplete or the applicant's withdrawal leaves on the proposal it ends. */
export const PROPOSAL_CLOSED_BY = {
  deny: "The application was denied.",
  closeIncomplete: "The application was closed as incomplete.",
  withdraw: "The applicant withdrew the application.",
} as const;

const proposalId = z.uuid({ error: APPROVAL_MESSAGES.proposalId });

export const confirmApprovalSchema = z.object({ intent: z.literal("confirm"), proposalId });

export const sendBackSchema = z.object({
  intent: z.literal("send-back"),
  proposalId,
  comment: writtenText({ max: APPROVAL_LIMITS.commentMaxLength, tooLong: APPROVAL_MESSAGES.commentTooLong, required: APPROVAL_MESSAGES.commentRequired }),
});

export const approvalSchemaForIntent = intentSchemas({ confirm: confirmApprovalSchema, "send-back": sendBackSchema });

export type ApprovalActionInput = z.output<typeof confirmApprovalSchema> | z.output<typeof sendBackSchema>;

/** What POST /admin/applications/:id/approval answers (JSON). */
export type ApprovalActionData = ActionResult<{ intent: ApprovalIntent | null; toast: Toast; at: number }>;

/** "$250,000" (cents shown only when there are any). */
export function formatThreshold(cents: number): string {
  return formatMoney(cents, { cents: "auto" });
}

export const APPROVAL_FAILED = "Failed to update application";

export const APPROVAL_TOASTS = {
  proposed: (thresholdCents: number): Toast => ({
    type: "success",
    title: "Approval Proposed",
    description: `Another staff member must confirm approvals of ${formatThreshold(thresholdCents)} or more before the offer is made.`,
  }),
  confirmed: { type: "success", title: "Approval Confirmed", description: "The offer has been made and the applicant notified." },
  sentBack: { type: "success", title: "Approval Sent Back", description: "The proposal was sent back with your comment." },
} as const;
