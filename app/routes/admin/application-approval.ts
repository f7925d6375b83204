import { requireStaff } from "~/server/auth/session.server";
import { assertSameOrigin } from "~/server/http/origin.server";
import { noStoreJson } from "~/server/http/action-answer.server";
import type { Route } from "./+types/application-approval";

/** Issue 22: placeholder until the action lands (a helper fills it in). Action only. */
export function loader() {
  return noStoreJson({ ok: false, message: "Method Not Allowed" }, 405, { Allow: "POST" });
}

export async function action({ request }: Route.ActionArgs) {
  assertSameOrigin(request);
  await requireStaff(request, "applications.work");
  return noStoreJson({ ok: false, message: "Not Found" }, 404);
}
