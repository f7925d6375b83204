import { requireUser } from "~/server/auth/session.server";
import { noStoreJson } from "~/server/http/action-answer.server";
import type { Route } from "./+types/data-download";

/** Issue 23: placeholder until Download My Data lands. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request);
  return noStoreJson({ ok: false, message: "Not Found" }, 404);
}
