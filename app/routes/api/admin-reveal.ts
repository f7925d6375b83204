import { ACCESS_DENIED_FOR_ROLE } from "~/domain/staff-permissions";
import { requireStaff } from "~/server/accounts/index.server";
import { revealSensitiveValue, revealThrottled } from "~/server/staff/index.server";
import { jsonAnswer, noStoreJson as json } from "~/server/platform/http/action-answer.server";
import { defineAction, methodNotAllowed } from "~/server/platform/http/define-route.server";
import { readJson, SMALL_JSON_MAX_BYTES } from "~/server/platform/http/read-body.server";
import type { Route } from "./+types/admin-reveal";
import { callerOf } from "~/server/platform/http/request-info.server";

/**
 * POST /api/admin/reveal {kind: 'ssn'|'account_number'|'routing_number', id}: one decrypted value for
 * an admin with a verified second factor, as JSON {value}, never cached. Errors are JSON
 * {title, message}: 401/403 instead of the page guards' redirects, 429 when throttled.
 */

/** The API's errors are {title, message}, its 405 too. */
const NOT_ALLOWED = { title: "Error", message: "Method Not Allowed" };

export const loader = () => methodNotAllowed(["POST"], NOT_ALLOWED);

/** requireStaff's redirects, as JSON statuses a fetch() caller can act on. */
async function adminOrResponse(request: Request) {
  try {
    return await requireStaff(request, "sensitive.reveal");
  } catch (error) {
    if (!(error instanceof Response)) throw error;
    if (error.status === 403) return json({ title: "Access Denied", message: ACCESS_DENIED_FOR_ROLE }, 403);
    const location = error.headers.get("location") ?? "";
    if (location.startsWith("/auth")) return json({ title: "Access Denied", message: "Please sign in again." }, 401);
    if (location.startsWith("/admin/mfa")) return json({ title: "Access Denied", message: "Verify your second factor first." }, 403);
    return json({ title: "Access Denied", message: "Access denied. Admin privileges required." }, 403);
  }
}

export const action = defineAction({
  methods: ["POST"],
  notAllowedBody: NOT_ALLOWED,
  guard: adminOrResponse,
  handle: async ({ request, context }: Route.ActionArgs, admin) => {
    if (admin instanceof Response) return admin;

    const throttled = await revealThrottled(admin);
    if (throttled) return jsonAnswer(throttled);

    let body: unknown = null;
    if ((request.headers.get("content-type") ?? "").includes("application/json")) {
      const read = await readJson(request, SMALL_JSON_MAX_BYTES);
      if (!read.ok && read.status === 413) return json({ title: "Error", message: read.message }, 413);
      body = read.ok ? read.value : null;
    }
    const result = await revealSensitiveValue(body, callerOf(admin, request, context));
    return jsonAnswer(result);
  },
});
