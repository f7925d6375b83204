import { desc, eq } from "drizzle-orm";
import { errorToast } from "~/domain/action-result";
import {
  ACCOUNT_DATA_FAILED,
  ACCOUNT_DATA_MESSAGES,
  ACCOUNT_DATA_TOASTS,
  closeAccountSchema,
  requestExportSchema,
  storageCapMessage,
  type AccountDataActionData,
  type AccountDataIntent,
} from "~/domain/validation/account-data";
import type { AccountDataView } from "~/domain/views/account";
import type { AuditActor, Caller } from "~/server/platform/audit/audit.server";
import { getConfig } from "~/server/platform/config.server";
import { getDb, type DbOrTx } from "~/server/platform/db/client.server";
import { dataExports } from "~/server/platform/db/schema.server";
import type { ServiceAnswer } from "~/server/platform/http/action-answer.server";
import { readAccountForm } from "./account-form.server";
import { logFailure } from "~/server/platform/log/describe-error.server";
import { getStorage } from "~/server/platform/storage/storage.server";
import { closeAccount, loadClosureView } from "./account-closure.server";
import { requestDataExport, STORAGE_CAP_ERROR } from "./data-export.server";
import { AppError, actionRefusal } from "~/server/platform/http/app-error.server";

/** The account page's data section: the newest Download My Data request (a ready link past its day is expired; a request refused by the storage cap says so). */
export async function loadAccountData(userId: string, db: DbOrTx = getDb(), now: Date = new Date()): Promise<AccountDataView> {
  const [latest] = await db
    .select({ status: dataExports.status, requestedAt: dataExports.requestedAt, expiresAt: dataExports.expiresAt, error: dataExports.error })
    .from(dataExports)
    .where(eq(dataExports.userId, userId))
    .orderBy(desc(dataExports.requestedAt))
    .limit(1);
  const closure = await loadClosureView(db, userId);
  if (!latest) return { latestExport: null, closure };
  const expired = latest.status === "ready" && latest.expiresAt !== null && latest.expiresAt <= now;
  // A pending request's expires_at is its builder's claim, not a link's end: only a ready file shows one.
  const expiresAt = latest.status === "ready" ? (latest.expiresAt?.toISOString() ?? null) : null;
  const message = latest.status === "failed" && latest.error?.startsWith(STORAGE_CAP_ERROR) ? storageCapMessage(getConfig().personStorageCapBytes) : undefined;
  return {
    latestExport: { status: expired ? "expired" : latest.status, requestedAt: latest.requestedAt.toISOString(), expiresAt, ...(message ? { message } : {}) },
    closure,
  };
}

/** A password, a confirmation word and an intent fit in far less; anything bigger is not our form. */
export const ACCOUNT_DATA_MAX_BYTES = 2048;

export type AccountDataAnswer = ServiceAnswer<AccountDataActionData>;

function refusal(status: number, intent: AccountDataIntent | null, message: string, fieldErrors?: AccountDataActionData["fieldErrors"], retryAfterSeconds?: number): AccountDataAnswer {
  const title = intent ? ACCOUNT_DATA_FAILED[intent] : "Could not complete the request";
  const body: AccountDataActionData = { ok: false, intent, toast: errorToast(title, message), at: Date.now() };
  if (fieldErrors) body.fieldErrors = fieldErrors;
  return retryAfterSeconds ? { status, body, headers: { "Retry-After": String(retryAfterSeconds) } } : { status, body };
}

/**
 * POST /account/data (the route checked the origin and the signed-in user): intent=request-export or
 * intent=close-account. Bad input 400, a wrong password 400 on its field, a conflict 409, never a 500.
 */
export async function accountDataAction(request: Request, caller: Caller<AuditActor & { isStaff: boolean }>): Promise<AccountDataAnswer> {
  const { actor } = caller;
  const read = await readAccountForm(request, ACCOUNT_DATA_MAX_BYTES, (message): AccountDataActionData => refusal(400, null, message).body);
  if (!read.ok) return read.answer;
  const { form, intent } = read;
  // Staff accounts are not closed or exported here (their records are the lender's, not a customer's).
  if (actor.isStaff) return refusal(403, null, "This is for applicants' own accounts.");
  try {
    if (intent === "request-export") {
      if (!requestExportSchema.safeParse({ intent }).success) return refusal(400, null, ACCOUNT_DATA_MESSAGES.intent);
      await requestDataExport(getDb(), getStorage(), actor, caller.request);
      return { status: 202, body: { ok: true, intent, toast: ACCOUNT_DATA_TOASTS.exportRequested, at: Date.now() } };
    }
    if (intent === "close-account") {
      const parsed = closeAccountSchema.safeParse({ intent, password: form.get("password") ?? undefined, confirmation: form.get("confirmation") ?? undefined });
      if (!parsed.success) {
        const fieldErrors: Record<string, string[]> = {};
        for (const issue of parsed.error.issues) {
          const key = String(issue.path[0] ?? "form");
          (fieldErrors[key] ??= []).push(issue.message);
        }
        return refusal(400, intent, Object.values(fieldErrors)[0]?.[0] ?? ACCOUNT_DATA_MESSAGES.intent, fieldErrors);
      }
      await closeAccount(getDb(), getStorage(), parsed.data.password, caller);
      return { status: 200, body: { ok: true, intent, toast: ACCOUNT_DATA_TOASTS.closed, at: Date.now(), redirectTo: "/auth" } };
    }
    return refusal(400, null, ACCOUNT_DATA_MESSAGES.intent);
  } catch (error) {
    const which = intent === "close-account" ? "close-account" : "request-export";
    if (error instanceof AppError) return actionRefusal(error, { title: ACCOUNT_DATA_FAILED[which], stamped: true }, { intent: which });
    logFailure("account", `${which} failed`, error);
    return refusal(503, which, ACCOUNT_DATA_MESSAGES.failed);
  }
}
