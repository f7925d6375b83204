import { getAuth } from "~/server/auth/auth.server";
import { getOptionalUser } from "~/server/auth/session.server";
import { createEventStream } from "~/server/events/stream.server";
import type { Route } from "./+types/events";

/** GET /api/events: the signed-in browser's live-update stream (server-sent events). */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await getOptionalUser(request);
  if (!user) {
    return Response.json({ ok: false, message: "Sign in to receive live updates." }, { status: 401, headers: { "Cache-Control": "no-store" } });
  }
  const headers = new Headers(request.headers);
  return createEventStream(user, request.signal, {
    stillValid: async () => {
      const session = await getAuth().api.getSession({ headers }).catch(() => null);
      return session?.session.id === user.sessionId;
    },
  });
}
