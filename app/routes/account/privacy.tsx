import { data } from "react-router";
import { requireUser } from "~/server/auth/session.server";
import type { Route } from "./+types/privacy";

/** Issue 23: placeholder until a helper lands this page. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request);
  throw data(null, { status: 404 });
}

export default function Placeholder() {
  return null;
}
