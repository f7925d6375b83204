import type { Toast } from "~/domain/action-result";
import { STAFF_ROLE_LABELS } from "~/domain/staff-permissions";
import { issuesToFieldErrors } from "~/domain/validation/field-errors";
import {
  STAFF_INTENTS,
  STAFF_MESSAGES,
  STAFF_SCHEMAS,
  type StaffActionData,
  type StaffCommand,
  type StaffIntent,
} from "~/domain/validation/staff";
import type { Caller } from "~/server/platform/audit/audit.server";
import { getDb, type Db } from "~/server/platform/db/client.server";
import {
  readActionForm,
  type ServiceAnswer,
} from "~/server/platform/http/action-answer.server";
import { cancelInvitation, changeStaffRole, deactivateStaff, inviteStaff, resetStaffMfa } from "./staff.server";
import { AppError, actionRefusal } from "~/server/platform/http/app-error.server";

/**
 * POST /admin/staff after the route's guards (same origin, an admin with a verified second factor):
 * reads the form (413 too large, 400 unreadable), picks the schema by `intent` (400 unknown), validates
 * (400 naming the field), acts. Refusals the admin can act on are 403 (one's own row), 404 (unknown),
 * 409 (the last admin, a state that changed).
 */

export type StaffAnswer = ServiceAnswer<StaffActionData>;

const FAILED: Record<StaffIntent, string> = {
  invite: "Invitation Not Sent",
  "change-role": "Role Not Changed",
  deactivate: "Not Deactivated",
  "reset-mfa": "Two-Factor Not Reset",
  "cancel-invitation": "Invitation Not Cancelled",
};

function answer(
  status: number,
  intent: StaffIntent | null,
  toast: Toast,
  fieldErrors?: Record<string, string[]>,
): StaffAnswer {
  return {
    status,
    body: {
      ok: status < 300,
      intent,
      toast,
      at: Date.now(),
      ...(fieldErrors ? { fieldErrors } : {}),
    },
  };
}

const refused = (
  status: number,
  intent: StaffIntent | null,
  message: string,
  fieldErrors?: Record<string, string[]>,
) =>
  answer(
    status,
    intent,
    {
      type: "error",
      title: intent ? FAILED[intent] : "Action Failed",
      description: message,
    },
    fieldErrors,
  );

const done = (intent: StaffIntent, title: string, description: string) =>
  answer(200, intent, { type: "success", title, description });

/** How many open invitations a deactivated or demoted admin had sent, now cancelled, in words. */
export function invitationsCancelled(n: number): string {
  if (n === 0) return "They had no open invitations to cancel.";
  return n === 1
    ? "The 1 open invitation they sent was cancelled."
    : `The ${n} open invitations they sent were cancelled.`;
}

function field(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  return typeof value === "string" ? value : undefined;
}

async function run(command: StaffCommand, caller: Caller, db: Db): Promise<StaffAnswer> {
  switch (command.intent) {
    case "invite": {
      await inviteStaff({ name: command.name, email: command.email, role: command.role }, caller, db);
      return done(
        "invite",
        "Invitation Sent",
        `${command.email} can set a password with the link for 72 hours.`,
      );
    }
    case "change-role": {
      const { invitationsRevoked } = await changeStaffRole(command.userId, command.role, caller, db);
      const revoked =
        invitationsRevoked === null
          ? ""
          : ` ${invitationsCancelled(invitationsRevoked)}`;
      return done(
        "change-role",
        "Role Changed",
        `The staff member is now ${STAFF_ROLE_LABELS[command.role]}.${revoked}`,
      );
    }
    case "deactivate": {
      const { invitationsRevoked } = await deactivateStaff(command.userId, caller, db);
      return done(
        "deactivate",
        "Staff Member Deactivated",
        `Every session they had has ended; they can no longer sign in. ${invitationsCancelled(invitationsRevoked)}`,
      );
    }
    case "reset-mfa": {
      const { passkeysRemoved } = await resetStaffMfa(command.userId, caller, db);
      return done(
        "reset-mfa",
        "Two-Factor Reset",
        `They will set up two-factor authentication again on their next staff page.${passkeysRemoved > 0 ? ` ${passkeysRemoved === 1 ? "Their passkey was" : `Their ${passkeysRemoved} passkeys were`} removed; they can add passkeys again once enrolled.` : ""}`,
      );
    }
    case "cancel-invitation":
      await cancelInvitation(command.invitationId, caller, db);
      return done(
        "cancel-invitation",
        "Invitation Cancelled",
        "The link no longer works.",
      );
  }
}

export async function staffAction(request: Request, caller: Caller, db: Db = getDb()): Promise<StaffAnswer> {
  const read = await readActionForm<StaffActionData>(
    request,
    (message) => refused(400, null, message).body,
    { unreadableAsEmpty: true },
  );
  if (!read.ok) return read.answer;
  const { form } = read;
  const intent = field(form, "intent");
  if (!intent || !(STAFF_INTENTS as readonly string[]).includes(intent))
    return refused(400, null, STAFF_MESSAGES.intent);
  const known = intent as StaffIntent;
  const parsed = STAFF_SCHEMAS[known].safeParse({
    intent,
    name: field(form, "name"),
    email: field(form, "email"),
    role: field(form, "role"),
    userId: field(form, "userId"),
    invitationId: field(form, "invitationId"),
  });
  if (!parsed.success) {
    return refused(
      400,
      known,
      parsed.error.issues[0]?.message ?? STAFF_MESSAGES.intent,
      issuesToFieldErrors(parsed.error),
    );
  }
  try {
    return await run(parsed.data, caller, db);
  } catch (error) {
    if (error instanceof AppError) return actionRefusal(error, { title: known ? FAILED[known] : "Action Failed", stamped: true }, { intent: known });
    throw error;
  }
}
