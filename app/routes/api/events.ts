import { getOptionalUser } from "~/server/auth/session.server";
import { createEventStream } from "~/server/events/stream.server";
import type { Route } from "./+types/events";

/** GET /api/events: the signed-in browser's live-update stream (server-sent events). */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await getOptionalUser(request);
  if (!user) {
    return Response.json({ ok: false, message: "Sign in to receive live updates." }, { status: 401, headers: { "Cache-Control": "no-store" } });
  }
  // The request's own headers (its cookie): each heartbeat asks the same questions as a page would.
  const headers = new Headers(request.headers);
  return createEventStream(user, request.signal, {
    refresh: async () => {
      const now = await getOptionalUser(new Request(request.url, { headers }));
      return now?.sessionId === user.sessionId ? now : null;
    },
  });
}
