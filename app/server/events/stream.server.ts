import type { SessionUser } from "~/server/auth/session.server";
import { getEventBus, type BusMessage, type ChangeEvent } from "./bus.server";

/**
 * One server-sent-events stream per signed-in browser. Each change goes only to those entitled to
 * it: its owner, and admins whose session passed the second factor (the admin views). A heartbeat
 * every 25 s keeps proxies from closing the connection and looks the session up again: the stream
 * ends when its session is gone (sign-out, revocation, password reset), and a role taken away or a
 * second factor passed since the stream opened takes effect then. The stream also ends at once when
 * its session is deleted anywhere (a `session` change).
 *
 * Streams are capped (one account once held 19,853 open streams, 1.1 GB and 15,607 file descriptors):
 * a session or an account over its cap gets its new stream and loses its oldest one (a forgotten tab,
 * not the page in front of the person), which is told `superseded` so that it reconnects only when
 * its tab is looked at again rather than take a stream back from another tab; an instance at its cap refuses new streams with a 503 and
 * Retry-After, and the browser tries again later. The caps count this instance's streams only.
 */

export const HEARTBEAT_MS = 25_000;

export const STREAM_LIMITS = {
  /** A browser keeps one stream per open tab; more than this from one session is not a person. */
  perSession: 6,
  /** Several devices of one applicant or admin. */
  perUser: 12,
  /** About 40 KB each (measured): 2,000 streams are ~80 MB of one instance's memory. */
  perInstance: 2000,
} as const;
export type StreamLimits = { perSession: number; perUser: number; perInstance: number };

export const STREAMS_FULL_MESSAGE = "Live updates are busy on this server. The page will reconnect by itself shortly.";

type Access = Pick<SessionUser, "id" | "isStaff" | "mfaVerified">;

export type StreamOptions = {
  heartbeatMs?: number;
  /**
   * Looks the session up again on each heartbeat: null ends the stream (signed out, revoked, deleted);
   * otherwise the user's current role and second factor decide what the stream carries from then on.
   * A rejection (the database is briefly unreachable) keeps the stream as it is.
   */
  refresh?: () => Promise<Access | null>;
  limits?: StreamLimits;
};

/** `supersede` tells the browser why the stream ends (so it waits until its tab is looked at again), then closes it. */
type OpenStream = { userId: string; sessionId: string; close: () => void; supersede: () => void };

/** Open streams in the order they were opened (a Set iterates in insertion order: oldest first). */
const open = new Set<OpenStream>();

/** Ends every open stream (graceful shutdown): browsers reconnect to another instance. */
export function closeAllStreams(): void {
  for (const stream of [...open]) stream.close();
}

export function openStreamCount(filter: { userId?: string; sessionId?: string } = {}): number {
  let n = 0;
  for (const s of open) if ((!filter.userId || s.userId === filter.userId) && (!filter.sessionId || s.sessionId === filter.sessionId)) n += 1;
  return n;
}

export function entitled(user: Access, event: ChangeEvent): boolean {
  if (event.t === "session") return false;
  // An admin's stream carries other people's changes only once this session passed the second factor,
  // the same rule as the admin pages (FTC Safeguards Rule 314.4(c)(5)).
  return event.owner === user.id || (user.isStaff && user.mfaVerified);
}

/** Ends the oldest streams matching `same` until fewer than `cap` remain. */
function makeRoom(cap: number, same: (s: OpenStream) => boolean): void {
  let count = 0;
  for (const s of open) if (same(s)) count += 1;
  for (const s of [...open]) {
    if (count < cap) return;
    if (same(s)) {
      s.supersede();
      count -= 1;
    }
  }
}

/** What the browser receives for a change: no personal data, only what to refresh (and whose). */
function publicPayload(event: ChangeEvent) {
  return {
    table: event.t,
    op: event.op,
    id: event.id,
    owner: event.owner,
    ...(event.status ? { status: event.status } : {}),
    ...(event.app ? { applicationId: event.app } : {}),
  };
}

/**
 * Makes room for one more stream of `user` (closing their oldest over the caps); false when the
 * instance is full even so.
 */
export function admitStream(user: Pick<SessionUser, "id" | "sessionId">, limits: StreamLimits = STREAM_LIMITS): boolean {
  makeRoom(limits.perSession, (s) => s.sessionId === user.sessionId);
  makeRoom(limits.perUser, (s) => s.userId === user.id);
  return open.size < limits.perInstance;
}

export function createEventStream(user: SessionUser, signal: AbortSignal, options: StreamOptions = {}): Response {
  if (!admitStream(user, options.limits)) {
    return Response.json(
      { ok: false, message: STREAMS_FULL_MESSAGE },
      { status: 503, headers: { "Cache-Control": "no-store", "Retry-After": "30" } },
    );
  }
  const access: Access = { id: user.id, isStaff: user.isStaff, mfaVerified: user.mfaVerified };
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
        open.delete(entry);
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
        if (entitled(access, event)) send(`event: change\ndata: ${JSON.stringify(publicPayload(event))}\n\n`);
      });
      const heartbeat = setInterval(() => {
        send(`: heartbeat ${Date.now()}\n\n`);
        options.refresh?.().then(
          (now) => {
            if (!now) return close();
            access.isStaff = now.isStaff;
            access.mfaVerified = now.mfaVerified;
          },
          () => undefined,
        );
      }, heartbeatMs);
      heartbeat.unref?.();
      const supersede = () => {
        send(`event: superseded\ndata: {}\n\n`);
        close();
      };
      const entry: OpenStream = { userId: user.id, sessionId: user.sessionId, close, supersede };
      open.add(entry);
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
