import { requireStaff } from "~/server/auth/session.server";
import { noStoreJson } from "~/server/http/action-answer.server";
import type { Route } from "./+types/export-applications";

/** Issue 22: placeholder until the export lands (a helper fills it in). */
export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, "staff.read");
  return noStoreJson({ ok: false, message: "Not Found" }, 404);
}
