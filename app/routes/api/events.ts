import { recheckSessions } from "~/server/accounts/session-recheck.server";
import { getOptionalUser } from "~/server/accounts/session.server";
import { getConfig } from "~/server/platform/config.server";
import { createEventStream, STREAM_LIMITS } from "~/server/platform/events/stream.server";
import type { Route } from "./+types/events";

/** GET /api/events: the signed-in browser's live-update stream (server-sent events). */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await getOptionalUser(request);
  if (!user) {
    return Response.json({ ok: false, message: "Sign in to receive live updates." }, { status: 401, headers: { "Cache-Control": "no-store" } });
  }
  // React Router answers HEAD without the body it was given: a stream opened for it would never end.
  if (request.method === "HEAD") return new Response(null, { headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store" } });
  // Heartbeats look the sessions up again together, a slot of streams per query (decision 0046).
  return createEventStream(user, request.signal, {
    refresh: recheckSessions,
    limits: { ...STREAM_LIMITS, perInstance: getConfig().eventStreamsMax },
  });
}
