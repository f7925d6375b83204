import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { errorToast, type Toast } from "~/domain/action-result";
import { STAFF_ROLE_LABELS, type StaffRole } from "~/domain/staff-permissions";
import { issuesToFieldErrors } from "~/domain/validation/field-errors";
import {
  acceptInvitationSchema,
  STAFF_MESSAGES,
  type AcceptInvitationActionData,
} from "~/domain/validation/staff";
import { writeAudit, type RequestInfo } from "~/server/platform/audit/audit.server";
import { accountIdWithEmail, deleteAccount, getAuth, markEmailVerified } from "~/server/accounts/index.server";
import { getDatabase, type Database } from "~/server/platform/db/client.server";
import { staffInvitations, userRoles } from "~/server/platform/db/schema.server";
import {
  readActionForm,
  type ServiceAnswer,
} from "~/server/platform/http/action-answer.server";
import { logFailure } from "~/server/platform/log/describe-error.server";
import {
  breachedPasswordMessage,
  BREACHED_PASSWORD_TITLE,
  checkBreachedPassword,
} from "~/server/platform/security/breached-password.server";
import {
  findOpenInvitation,
  hashInvitationToken,
  lockActiveInviter,
} from "./staff.server";

/**
 * The invitation link (/auth/invite/:token): the invited person sets a password and gets a
 * staff account with the invited role. The link works once, even when posted twice at the same moment:
 * Better Auth creates the account (the unique e-mail lets one of two parallel sign-ups through), then
 * ONE conditional UPDATE accepts the invitation (… WHERE token_hash = $1 AND accepted_at IS NULL AND
 * revoked_at IS NULL AND expires_at > now() RETURNING) in the same transaction as the role grant, after
 * re-checking (under a share lock on their role row) that the inviter is still an active admin. If that
 * finds nothing (cancelled, expired, or the inviter deactivated or demoted meanwhile) the new account is
 * deleted again, so no account without its role is left behind.
 */

export type InvitationView = {
  name: string;
  email: string;
  role: StaffRole;
  roleLabel: string;
  expiresAt: string;
};

/** What the page shows for a token, or null (unknown, used, cancelled and expired look alike: nothing leaks). */
export async function invitationForToken(
  token: string | undefined,
  database: Database = getDatabase(),
): Promise<InvitationView | null> {
  const found = token ? await findOpenInvitation(token, database.db) : null;
  if (!found) return null;
  return {
    name: found.name,
    email: found.email,
    role: found.role,
    roleLabel: STAFF_ROLE_LABELS[found.role],
    expiresAt: found.expiresAt.toISOString(),
  };
}

export const SET_PASSWORD_FAILED = "Could Not Set Password";

export type AcceptAnswer =
  | { ok: true; userId: string; role: StaffRole; headers: Headers }
  | { ok: false; status: number; body: AcceptInvitationActionData };

function refuse(
  status: number,
  message: string,
  title = SET_PASSWORD_FAILED,
  fieldErrors?: Record<string, string[]>,
): AcceptAnswer {
  const toast: Toast = errorToast(title, message);
  return {
    ok: false,
    status,
    body: { ok: false, toast, ...(fieldErrors ? { fieldErrors } : {}) },
  };
}

/** Accepts the invitation behind `token` with the posted password; on success the sign-up's session cookie headers. */
export async function acceptInvitation(
  token: string | undefined,
  input: { password: unknown; confirmPassword: unknown },
  meta: { headers?: Headers; request?: RequestInfo } = {},
  database: Database = getDatabase(),
): Promise<AcceptAnswer> {
  const invitation = token
    ? await findOpenInvitation(token, database.db)
    : null;
  if (!invitation || !token) return refuse(410, STAFF_MESSAGES.linkInvalid);
  const parsed = acceptInvitationSchema.safeParse(input);
  if (!parsed.success) {
    return refuse(
      400,
      parsed.error.issues[0]?.message ?? STAFF_MESSAGES.confirmPassword,
      SET_PASSWORD_FAILED,
      issuesToFieldErrors(parsed.error),
    );
  }
  const breached = await checkBreachedPassword(parsed.data.password);
  if (breached.status === "breached")
    return refuse(
      400,
      breachedPasswordMessage(breached.count),
      BREACHED_PASSWORD_TITLE,
      { password: [breachedPasswordMessage(breached.count)] },
    );

  const db = database.db;
  // Someone signed up with the address after the invitation was sent (or a parallel post won).
  if (await accountIdWithEmail(invitation.email.toLowerCase(), db)) return refuse(410, STAFF_MESSAGES.linkInvalid);

  let created: { userId: string; headers: Headers };
  try {
    const result = await getAuth(database).api.signUpEmail({
      body: {
        name: invitation.name,
        email: invitation.email,
        password: parsed.data.password,
      },
      headers: meta.headers ?? new Headers(),
      returnHeaders: true,
    });
    created = { userId: result.response.user.id, headers: result.headers };
  } catch {
    // The parallel post created the account a moment earlier (the unique e-mail refused this one).
    return refuse(410, STAFF_MESSAGES.linkInvalid);
  }

  try {
    const accepted = await db.transaction(async (tx) => {
      // The inviter must still be an active admin now, not only when the link was sent.
      if (!(await lockActiveInviter(tx, invitation.invitedBy))) return null;
      const [row] = await tx
        .update(staffInvitations)
        .set({ acceptedAt: sql`now()`, acceptedUserId: created.userId })
        .where(
          and(
            eq(staffInvitations.tokenHash, hashInvitationToken(token)),
            eq(staffInvitations.invitedBy, invitation.invitedBy!),
            isNull(staffInvitations.acceptedAt),
            isNull(staffInvitations.revokedAt),
            gt(staffInvitations.expiresAt, sql`now()`),
          ),
        )
        .returning({
          id: staffInvitations.id,
          role: staffInvitations.role,
          email: staffInvitations.email,
          invitedBy: staffInvitations.invitedBy,
        });
      if (!row) return null;
      await tx
        .insert(userRoles)
        .values({ userId: created.userId, role: row.role });
      // The link came to this address: it is proven.
      await markEmailVerified(created.userId, tx);
      await writeAudit(tx, {
        actor: { id: created.userId, name: invitation.name, email: row.email },
        action: "staff.invite_accept",
        table: "staff_invitations",
        recordId: row.id,
        details: { role: row.role, invitedBy: row.invitedBy },
        request: meta.request,
      });
      return row;
    });
    if (accepted)
      return {
        ok: true,
        userId: created.userId,
        role: accepted.role,
        headers: created.headers,
      };
  } catch (error) {
    logFailure("staff", "invitation accept", error);
  }
  // Cancelled, expired or failed between the sign-up and the acceptance: the account goes again.
  await deleteAccount(created.userId, db).catch((error: unknown) =>
      logFailure("staff", "invitation cleanup", error),
    );
  return refuse(410, STAFF_MESSAGES.linkInvalid);
}

/** POST /auth/invite/:token after the origin check: reads the size-limited form and accepts. */
export async function acceptInvitationAction(
  request: Request,
  token: string | undefined,
  info: RequestInfo = {},
  database: Database = getDatabase(),
): Promise<AcceptAnswer> {
  const read = await readActionForm<AcceptInvitationActionData>(
    request,
    (message) => ({
      ok: false,
      toast: errorToast(SET_PASSWORD_FAILED, message),
    }),
    {
      unreadableAsEmpty: true,
    },
  );
  if (!read.ok)
    return { ok: false, status: read.answer.status, body: read.answer.body };
  return acceptInvitation(
    token,
    {
      password: read.form.get("password") ?? undefined,
      confirmPassword: read.form.get("confirmPassword") ?? undefined,
    },
    { headers: request.headers, request: info },
    database,
  );
}

export type { ServiceAnswer };
