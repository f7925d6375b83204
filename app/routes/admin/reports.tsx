import { data } from "react-router";
import { requireStaff } from "~/server/auth/session.server";
import type { Route } from "./+types/reports";

/** Issue 22: placeholder until the page lands (a helper fills it in). */
export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, "staff.read");
  throw data(null, { status: 404 });
}

export default function Placeholder() {
  return null;
}
