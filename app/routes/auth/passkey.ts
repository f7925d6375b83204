import { requireUser } from "~/server/auth/session.server";
import { assertSameOrigin } from "~/server/http/origin.server";
import { noStoreJson } from "~/server/http/action-answer.server";
import type { Route } from "./+types/passkey";

/** Issue 23: placeholder until a helper lands this action. */
export function loader() {
  return noStoreJson({ ok: false, message: "Method Not Allowed" }, 405, { Allow: "POST" });
}

export async function action({ request }: Route.ActionArgs) {
  assertSameOrigin(request);
  await requireUser(request);
  return noStoreJson({ ok: false, message: "Not Found" }, 404);
}
