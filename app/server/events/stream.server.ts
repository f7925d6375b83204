import type { SessionUser } from "~/server/auth/session.server";
import { getEventBus, type BusMessage, type ChangeEvent } from "./bus.server";

/**
 * One server-sent-events stream per signed-in browser. Each change goes only to those entitled to
 * it: its owner, and admins (the admin views). A heartbeat every 25 s keeps proxies from closing
 * the connection and re-checks the session; the stream ends when its session is deleted
 * (sign-out, revocation, password reset) or no longer valid.
 */

export const HEARTBEAT_MS = 25_000;

export type StreamOptions = {
  heartbeatMs?: number;
  /** Re-checks the session on each heartbeat; false ends the stream. */
  stillValid?: () => Promise<boolean>;
};

const open = new Set<() => void>();

/** Ends every open stream (graceful shutdown): browsers reconnect to another instance. */
export function closeAllStreams(): void {
  for (const close of [...open]) close();
}

export function openStreamCount(): number {
  return open.size;
}

export function entitled(user: Pick<SessionUser, "id" | "isAdmin">, event: ChangeEvent): boolean {
  if (event.t === "session") return false;
  return event.owner === user.id || user.isAdmin;
}

/** What the browser receives for a change: no personal data, only what to refresh (and whose). */
function publicPayload(event: ChangeEvent) {
  return { table: event.t, op: event.op, id: event.id, owner: event.owner, ...(event.status ? { status: event.status } : {}) };
}

export function createEventStream(user: SessionUser, signal: AbortSignal, options: StreamOptions = {}): Response {
  const encoder = new TextEncoder();
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  let cleanup = () => {};

  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      const send = (text: string) => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          close();
        }
      };
      const close = () => {
        if (closed) return;
        closed = true;
        unsubscribe();
        clearInterval(heartbeat);
        open.delete(close);
        signal.removeEventListener("abort", close);
        try {
          controller.close();
        } catch {
          /* already closed */
        }
      };
      cleanup = close;

      const unsubscribe = getEventBus().subscribe((message: BusMessage) => {
        if (message.kind === "resync") {
          send(`event: resync\ndata: {}\n\n`);
          return;
        }
        const event = message.event;
        if (event.t === "session") {
          if (event.id === user.sessionId) close();
          return;
        }
        if (entitled(user, event)) send(`event: change\ndata: ${JSON.stringify(publicPayload(event))}\n\n`);
      });
      const heartbeat = setInterval(() => {
        send(`: heartbeat ${Date.now()}\n\n`);
        options.stillValid?.().then(
          (valid) => {
            if (!valid) close();
          },
          () => undefined,
        );
      }, heartbeatMs);
      heartbeat.unref?.();
      open.add(close);
      signal.addEventListener("abort", close);
      // The browser's own retry is ours to schedule (1, 2, 5, 10 s): tell EventSource to wait 1 s.
      send(`retry: 1000\nevent: ready\ndata: {}\n\n`);
    },
    cancel() {
      cleanup();
    },
  });

  return new Response(body, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      // no-transform: the compression middleware must not buffer the stream.
      "Cache-Control": "no-store, no-transform",
      "X-Accel-Buffering": "no",
    },
  });
}
