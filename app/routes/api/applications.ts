import { APPLICATION_MESSAGES } from "~/domain/validation/application";
import { logFailure } from "~/server/platform/log/describe-error.server";
import { SsnProcessingFailed, submissionThrottled, submitApplication } from "~/server/applications/submit.server";
import { parseSubmission, SubmissionRejected, type ParsedSubmission } from "~/server/applications/upload-parser.server";
import { getOptionalUser } from "~/server/accounts/session.server";
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from "~/server/platform/db/unavailable.server";
import { jsonAnswer, noStoreJson as json } from "~/server/platform/http/action-answer.server";
import { assertSameOrigin } from "~/server/platform/http/origin.server";
import type { Route } from "./+types/applications";

/**
 * POST /api/applications: the wizard's one submission (multipart, sent with upload progress).
 * Answers JSON: 201 {ok, applicationId}, 200 for a repeated submission, 4xx {ok:false, step, field,
 * message} naming what to fix, 401 for no session, 503 when storage or the database fails.
 */

export function loader() {
  return json({ ok: false, message: "Method Not Allowed" }, 405, { Allow: "POST" });
}

export async function action({ request }: Route.ActionArgs) {
  assertSameOrigin(request);
  const user = await getOptionalUser(request);
  if (!user) return json({ ok: false, message: APPLICATION_MESSAGES.signIn }, 401);

  const throttled = await submissionThrottled(user);
  if (throttled) return jsonAnswer(throttled);

  let submission: ParsedSubmission | undefined;
  try {
    submission = await parseSubmission(request);
    const result = await submitApplication(user, submission);
    return json({ ok: true, applicationId: result.applicationId, duplicate: result.duplicate }, result.duplicate ? 200 : 201);
  } catch (error) {
    if (error instanceof SubmissionRejected) return json({ ok: false, ...error.problem }, error.status);
    if (error instanceof SsnProcessingFailed) return json({ ok: false, step: 1, field: "ssn", message: error.message }, 503);
    if (isDatabaseUnavailable(error)) {
      logFailure("apply", "submission failed, database unavailable", error, { user: user.id });
      return json({ ok: false, message: DATABASE_UNAVAILABLE_MESSAGE }, 503, { "Retry-After": "5" });
    }
    // Never the error itself: a failed insert's message repeats every submitted value.
    logFailure("apply", "submission failed", error, { user: user.id });
    return json({ ok: false, message: APPLICATION_MESSAGES.submitFailed }, 503);
  } finally {
    await submission?.dispose?.().catch((error: unknown) => console.error(`[apply] could not remove spooled upload: ${(error as Error).message}`));
  }
}
