import type { ActionResult, Toast } from "~/domain/action-result";
import { z } from "./zod";

/**
 * Assignment: Assign to Me, or Reassign to a staff member who may work applications (""
 * leaves it unassigned). One schema for the page's forms and POST /admin/applications/:id/assignment.
 */

export const ASSIGNMENT_INTENTS = ["assign-me", "assign"] as const;
export type AssignmentIntent = (typeof ASSIGNMENT_INTENTS)[number];

export const ASSIGNMENT_MESSAGES = {
  intent: "Unknown action.",
  assignee: "Choose a staff member who works applications, or Unassigned",
  notFound: "This application does not exist.",
} as const;

export const assignmentSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("assign-me") }),
    z.object({
      intent: z.literal("assign"),
      // Better Auth ids are text; "" means unassigned. Bounded so a forged value cannot be large.
      assigneeId: z
        .string({ error: ASSIGNMENT_MESSAGES.assignee })
        .trim()
        .max(100, ASSIGNMENT_MESSAGES.assignee)
        .regex(/^[A-Za-z0-9_-]*$/, ASSIGNMENT_MESSAGES.assignee),
    }),
  ],
  { error: ASSIGNMENT_MESSAGES.intent },
);
export type AssignmentInput = z.output<typeof assignmentSchema>;

export type AssignmentActionData = ActionResult<{ intent: AssignmentIntent | null; toast: Toast; at: number }>;

export const ASSIGNMENT_FAILED = "Failed to assign the application";

export const ASSIGNMENT_TOASTS = {
  assigned: (name: string | null): Toast => ({ type: "success", title: name ? `Assigned to ${name}` : "Unassigned", description: "The assignment history records the change." }),
} as const;

/** The list's My Queue filter in the URL: ?queue=mine. */
export const MY_QUEUE_PARAM = "queue";
export const MY_QUEUE_VALUE = "mine";
