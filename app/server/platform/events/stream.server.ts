import type { SessionUser } from "~/server/accounts/session.server";
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
 *
 * Built for 10,000 streams an instance (decision 0046): one bus subscription for all of them, a change
 * finds its recipients by owner and among the verified admins (no scan of every stream), is encoded
 * once for all, and the heartbeats share one timer wheel that looks the due sessions up in one query.
 */

export const HEARTBEAT_MS = 25_000;

/** The heartbeat period is cut in this many slots; each tick serves one slot (1 s apart at 25 s). */
const WHEEL_SLOTS = 25;

export const STREAM_LIMITS = {
  /** A browser keeps one stream per open tab; more than this from one session is not a person. */
  perSession: 6,
  /** Several devices of one applicant or admin. */
  perUser: 12,
  /** The default of EVENT_STREAMS_MAX (config.server.ts): about 30 KB each, see decision 0046. */
  perInstance: 10_000,
} as const;
export type StreamLimits = { perSession: number; perUser: number; perInstance: number };

export const STREAMS_FULL_MESSAGE = "Live updates are busy on this server. The page will reconnect by itself shortly.";

type Access = Pick<SessionUser, "id" | "isStaff" | "mfaVerified">;

/**
 * Looks many sessions up again at once (one heartbeat slot): a session missing from the answer ends its
 * streams (signed out, revoked, deleted); otherwise the user's current role and second factor decide
 * what the stream carries from then on. A rejection (the database is briefly unreachable) keeps the
 * streams as they are.
 */
export type SessionRefresher = (sessionIds: readonly string[]) => Promise<ReadonlyMap<string, Access>>;

export type StreamOptions = {
  heartbeatMs?: number;
  refresh?: SessionRefresher;
  limits?: StreamLimits;
};

type OpenStream = {
  userId: string;
  sessionId: string;
  access: Access;
  refresh: SessionRefresher | undefined;
  send: (bytes: Uint8Array) => void;
  close: () => void;
  /** Tells the browser why the stream ends (so it waits until its tab is looked at again), then closes it. */
  supersede: () => void;
};

const encoder = new TextEncoder();
const READY = encoder.encode(`retry: 1000\nevent: ready\ndata: {}\n\n`);
const RESYNC = encoder.encode(`event: resync\ndata: {}\n\n`);
const SUPERSEDED = encoder.encode(`event: superseded\ndata: {}\n\n`);

/** Where a stream's bytes go: its Response's body, or the socket itself (takeDirectWriter). */
type Sink = { write: (bytes: Uint8Array) => void; end: () => void };

/** The part of Node's ServerResponse a stream written directly needs. */
export type DirectOut = {
  write(bytes: Uint8Array): unknown;
  end(): unknown;
  once(event: "close", listener: () => void): unknown;
  readonly writableLength: number;
};

/** About 3,000 changes a browser has not read yet. */
const MAX_BACKLOG_BYTES = 512 * 1024;

const direct = new WeakMap<Response, (out: DirectOut) => void>();

/**
 * For the Node server (server/fetch-bridge.ts): writes an event stream's bytes straight to the
 * response rather than through the web stream of its body and Readable.fromWeb, which at 10,000
 * streams cost a third of a second of promise hand-offs before the first browser saw a change
 * (decision 0046). Undefined for any other response; taken once.
 */
export function takeDirectWriter(response: Response): ((out: DirectOut) => void) | undefined {
  const writer = direct.get(response);
  direct.delete(response);
  return writer;
}

/** Every open stream, oldest first (a Set iterates in insertion order), and the same by session and by account. */
const open = new Set<OpenStream>();
const bySession = new Map<string, Set<OpenStream>>();
const byUser = new Map<string, Set<OpenStream>>();
/** Streams that carry everyone's changes: admin sessions that passed the second factor. */
const watchers = new Set<OpenStream>();
let unsubscribeBus: (() => void) | undefined;

/** Ends every open stream (graceful shutdown): browsers reconnect to another instance. */
export function closeAllStreams(): void {
  for (const stream of [...open]) stream.close();
}

export function openStreamCount(filter: { userId?: string; sessionId?: string } = {}): number {
  if (filter.sessionId) {
    const streams = bySession.get(filter.sessionId);
    if (!streams) return 0;
    return filter.userId ? [...streams].filter((s) => s.userId === filter.userId).length : streams.size;
  }
  if (filter.userId) return byUser.get(filter.userId)?.size ?? 0;
  return open.size;
}

export function entitled(user: Access, event: ChangeEvent): boolean {
  if (event.t === "session") return false;
  // An admin's stream carries other people's changes only once this session passed the second factor,
  // the same rule as the admin pages (FTC Safeguards Rule 314.4(c)(5)).
  return event.owner === user.id || (user.isStaff && user.mfaVerified);
}

const seesEveryone = (access: Access) => access.isStaff && access.mfaVerified;

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

/** One bus subscription for all streams: a change is encoded once and written to its recipients only. */
function deliver(message: BusMessage): void {
  if (message.kind === "resync") {
    for (const stream of [...open]) stream.send(RESYNC);
    return;
  }
  const event = message.event;
  if (event.t === "session") {
    for (const stream of [...(bySession.get(event.id) ?? [])]) stream.close();
    return;
  }
  const bytes = encoder.encode(`event: change\ndata: ${JSON.stringify(publicPayload(event))}\n\n`);
  for (const stream of byUser.get(event.owner) ?? []) if (entitled(stream.access, event)) queue(stream, bytes);
  for (const stream of watchers) if (stream.userId !== event.owner) queue(stream, bytes);
}

/**
 * Changes delivered together are written together: one transaction raises several (an approval: the
 * application, its timeline entries), which arrive in one read of the LISTEN connection; one write a
 * stream rather than one per change is a third of the work at 10,000 streams.
 */
const queued = new Map<OpenStream, Uint8Array[]>();
let flushScheduled = false;

function queue(stream: OpenStream, bytes: Uint8Array): void {
  const chunks = queued.get(stream);
  if (chunks) chunks.push(bytes);
  else queued.set(stream, [bytes]);
  if (!flushScheduled) {
    flushScheduled = true;
    setImmediate(flush);
  }
}

function flush(): void {
  flushScheduled = false;
  const due = [...queued];
  queued.clear();
  // A stream closed meanwhile (its session deleted in the same batch) ignores what it is sent.
  for (const [stream, chunks] of due) stream.send(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
}

function addTo<K>(map: Map<K, Set<OpenStream>>, key: K, stream: OpenStream): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(stream);
}

function removeFrom<K>(map: Map<K, Set<OpenStream>>, key: K, stream: OpenStream): void {
  const set = map.get(key);
  if (!set) return;
  set.delete(stream);
  if (set.size === 0) map.delete(key);
}

function register(stream: OpenStream): void {
  if (open.size === 0) unsubscribeBus = getEventBus().subscribe(deliver);
  open.add(stream);
  addTo(bySession, stream.sessionId, stream);
  addTo(byUser, stream.userId, stream);
  if (seesEveryone(stream.access)) watchers.add(stream);
}

function unregister(stream: OpenStream): void {
  if (!open.delete(stream)) return;
  removeFrom(bySession, stream.sessionId, stream);
  removeFrom(byUser, stream.userId, stream);
  watchers.delete(stream);
  if (open.size === 0) {
    unsubscribeBus?.();
    unsubscribeBus = undefined;
  }
}

function updateAccess(stream: OpenStream, now: Access): void {
  stream.access.isStaff = now.isStaff;
  stream.access.mfaVerified = now.mfaVerified;
  if (seesEveryone(stream.access)) watchers.add(stream);
  else watchers.delete(stream);
}

/**
 * The heartbeats of all streams with the same period: one timer, ticking WHEEL_SLOTS times a period,
 * each tick serving the streams of one slot, so that 10,000 streams are 400 heartbeats and one session
 * query a second rather than 10,000 timers and 10,000 queries at once.
 */
class HeartbeatWheel {
  private slots = Array.from({ length: WHEEL_SLOTS }, () => new Set<OpenStream>());
  private slotOf = new Map<OpenStream, number>();
  private cursor = 0;
  private next = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly periodMs: number) {}

  add(stream: OpenStream): void {
    // Round robin: streams opened together (every browser reconnecting after a restart) spread evenly.
    const slot = this.next;
    this.next = (this.next + 1) % WHEEL_SLOTS;
    this.slots[slot]!.add(stream);
    this.slotOf.set(stream, slot);
    if (!this.timer) {
      this.timer = setInterval(() => this.tick(), Math.max(1, Math.round(this.periodMs / WHEEL_SLOTS)));
      this.timer.unref?.();
    }
  }

  remove(stream: OpenStream): void {
    const slot = this.slotOf.get(stream);
    if (slot === undefined) return;
    this.slotOf.delete(stream);
    this.slots[slot]!.delete(stream);
    if (this.slotOf.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private tick(): void {
    const due = [...this.slots[this.cursor]!];
    this.cursor = (this.cursor + 1) % WHEEL_SLOTS;
    if (due.length === 0) return;
    const beat = encoder.encode(`: heartbeat ${Date.now()}\n\n`);
    const byRefresher = new Map<SessionRefresher, OpenStream[]>();
    for (const stream of due) {
      stream.send(beat);
      if (!stream.refresh) continue;
      let group = byRefresher.get(stream.refresh);
      if (!group) byRefresher.set(stream.refresh, (group = []));
      group.push(stream);
    }
    for (const [refresh, streams] of byRefresher) {
      refresh(streams.map((s) => s.sessionId)).then(
        (found) => {
          for (const stream of streams) {
            if (!open.has(stream)) continue;
            const now = found.get(stream.sessionId);
            if (now?.id === stream.userId) updateAccess(stream, now);
            else stream.close();
          }
        },
        () => undefined,
      );
    }
  }
}

const wheels = new Map<number, HeartbeatWheel>();
function wheelFor(periodMs: number): HeartbeatWheel {
  let wheel = wheels.get(periodMs);
  if (!wheel) wheels.set(periodMs, (wheel = new HeartbeatWheel(periodMs)));
  return wheel;
}

/** Ends the oldest of `streams` until fewer than `cap` remain. */
function makeRoom(cap: number, streams: Set<OpenStream> | undefined): void {
  if (!streams) return;
  // Superseding a stream removes it from the set being read: iterate a copy, oldest first.
  for (const stream of [...streams]) {
    if (streams.size < cap) return;
    stream.supersede();
  }
}

/**
 * Makes room for one more stream of `user` (closing their oldest over the caps); false when the
 * instance is full even so.
 */
export function admitStream(user: Pick<SessionUser, "id" | "sessionId">, limits: StreamLimits = STREAM_LIMITS): boolean {
  makeRoom(limits.perSession, bySession.get(user.sessionId));
  makeRoom(limits.perUser, byUser.get(user.id));
  return open.size < limits.perInstance;
}

export function createEventStream(user: SessionUser, signal: AbortSignal, options: StreamOptions = {}): Response {
  if (!admitStream(user, options.limits)) {
    return Response.json(
      { ok: false, message: STREAMS_FULL_MESSAGE },
      { status: 503, headers: { "Cache-Control": "no-store", "Retry-After": "30" } },
    );
  }
  const wheel = wheelFor(options.heartbeatMs ?? HEARTBEAT_MS);
  let closed = false;
  let sink: Sink | undefined;
  /** What was sent before the server took the response (the `ready` event, rarely more). */
  const pending: Uint8Array[] = [];
  const send = (bytes: Uint8Array) => {
    if (closed) return;
    if (!sink) {
      pending.push(bytes);
      return;
    }
    try {
      sink.write(bytes);
    } catch {
      close();
    }
  };
  const close = () => {
    if (closed) return;
    closed = true;
    unregister(stream);
    wheel.remove(stream);
    signal.removeEventListener("abort", close);
    sink?.end();
  };
  const attach = (to: Sink) => {
    if (sink) return;
    sink = to;
    for (const bytes of pending.splice(0)) to.write(bytes);
    if (closed) to.end();
  };
  const stream: OpenStream = {
    userId: user.id,
    sessionId: user.sessionId,
    access: { id: user.id, isStaff: user.isStaff, mfaVerified: user.mfaVerified },
    refresh: options.refresh,
    send,
    close,
    supersede: () => {
      send(SUPERSEDED);
      close();
    },
  };
  register(stream);
  wheel.add(stream);
  signal.addEventListener("abort", close);
  // The browser's own retry is ours to schedule (1, 2, 5, 10 s): tell EventSource to wait 1 s.
  send(READY);

  // highWaterMark 0: nothing is pulled (and the web stream takes no bytes) until something reads the
  // body, which the Node server never does for a stream it writes to the socket itself.
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        attach({
          write: (bytes) => controller.enqueue(bytes),
          end: () => {
            try {
              controller.close();
            } catch {
              /* already closed */
            }
          },
        });
      },
      cancel() {
        close();
      },
    },
    { highWaterMark: 0 },
  );

  const response = new Response(body, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      // no-transform: the compression middleware must not buffer the stream.
      "Cache-Control": "no-store, no-transform",
      "X-Accel-Buffering": "no",
    },
  });
  direct.set(response, (out) => {
    out.once("close", close);
    attach({
      write: (bytes) => {
        // A browser that stopped reading: end its stream rather than hold its backlog (it reconnects).
        if (out.writableLength > MAX_BACKLOG_BYTES) close();
        else out.write(bytes);
      },
      end: () => out.end(),
    });
  });
  return response;
}
