import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SessionUser } from "~/server/auth/session.server";
import { EventBus, setEventBus, type ChangeEvent } from "~/server/events/bus.server";
import { closeAllStreams, createEventStream, openStreamCount, STREAMS_FULL_MESSAGE, type StreamLimits } from "~/server/events/stream.server";

/**
 * Issue 16, findings 5 and 7: the live-update stream carries other people's changes only to an admin
 * session that passed the second factor, and the number of open streams is capped per session, per
 * account and per instance.
 */

const LIMITS: StreamLimits = { perSession: 3, perUser: 5, perInstance: 8 };
let bus: EventBus;

beforeEach(() => {
  bus = new EventBus();
  setEventBus(bus);
});
afterEach(() => {
  closeAllStreams();
  setEventBus(undefined);
});

const user = (id: string, sessionId: string, extra: Partial<SessionUser> = {}): SessionUser => ({
  id,
  sessionId,
  name: id,
  email: `${id}@example.com`,
  isStaff: false,
  role: null,
  mfaVerified: false,
  ...extra,
});

/** Reads a stream's text as it arrives; `ended` turns true when the server closes it. */
function reader(res: Response) {
  const state = { text: "", ended: false };
  void (async () => {
    const r = res.body!.getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const { value, done } = await r.read();
      if (done) break;
      state.text += decoder.decode(value, { stream: true });
    }
    state.ended = true;
  })();
  return state;
}

const tick = (ms = 20) => new Promise((r) => setTimeout(r, ms));
const publish = (event: ChangeEvent) => (bus as unknown as { emit: (m: unknown) => void }).emit({ kind: "change", event });

describe("live-update stream limits", () => {
  it("a session over its cap keeps its newest streams; the oldest are closed", async () => {
    const alice = user("alice", "s1");
    const streams = Array.from({ length: 5 }, () => reader(createEventStream(alice, new AbortController().signal, { limits: LIMITS })));
    await tick();
    expect(openStreamCount({ sessionId: "s1" })).toBe(3);
    expect(streams.map((s) => s.ended)).toEqual([true, true, false, false, false]);
    // The closed ones are told why, so their tabs wait to be looked at before reconnecting.
    expect(streams.map((s) => s.text.includes("event: superseded"))).toEqual([true, true, false, false, false]);
  });

  it("an account over its cap across sessions keeps its newest streams", async () => {
    for (let i = 0; i < 9; i++) createEventStream(user("bob", `b${i}`), new AbortController().signal, { limits: LIMITS });
    expect(openStreamCount({ userId: "bob" })).toBe(5);
  });

  it("a full instance refuses a new stream with 503, a message and Retry-After", async () => {
    for (let i = 0; i < 8; i++) createEventStream(user(`u${i}`, `s${i}`), new AbortController().signal, { limits: LIMITS });
    const refused = createEventStream(user("late", "late"), new AbortController().signal, { limits: LIMITS });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("30");
    expect(await refused.json()).toEqual({ ok: false, message: STREAMS_FULL_MESSAGE });
    expect(openStreamCount()).toBe(8);
  });

  it("many streams of one account never hold more than its cap (19,853 were opened before)", () => {
    for (let i = 0; i < 2000; i++) createEventStream(user("greedy", "g"), new AbortController().signal, { limits: LIMITS });
    expect(openStreamCount({ userId: "greedy" })).toBe(3);
    expect(openStreamCount()).toBe(3);
  });
});

describe("what an admin stream carries", () => {
  const someoneElses: ChangeEvent = { t: "loan_applications", op: "UPDATE", id: "app-1", owner: "alice", status: "approved" };

  it("an admin session without the second factor receives no one else's changes, until it passes it", async () => {
    let verified = false;
    const admin = user("admin", "a1", { isStaff: true, mfaVerified: false });
    const stream = reader(
      createEventStream(admin, new AbortController().signal, {
        heartbeatMs: 30,
        refresh: async () => ({ id: "admin", isStaff: true, mfaVerified: verified }),
      }),
    );
    await tick();
    publish(someoneElses);
    await tick();
    expect(stream.text).not.toContain("app-1");

    verified = true;
    await tick(80); // a heartbeat looks the session up again
    publish(someoneElses);
    await tick();
    expect(stream.text).toContain('"id":"app-1"');
  });

  it("a verified admin whose role is taken away stops receiving others' changes at the next heartbeat", async () => {
    let isStaff = true;
    const stream = reader(
      createEventStream(user("admin", "a2", { isStaff: true, mfaVerified: true }), new AbortController().signal, {
        heartbeatMs: 30,
        refresh: async () => ({ id: "admin", isStaff, mfaVerified: true }),
      }),
    );
    publish({ ...someoneElses, id: "before" });
    isStaff = false;
    await tick(80);
    publish({ ...someoneElses, id: "after" });
    await tick();
    expect(stream.text).toContain('"id":"before"');
    expect(stream.text).not.toContain('"id":"after"');
  });

  it("a session that is gone at a heartbeat ends the stream", async () => {
    const stream = reader(createEventStream(user("carol", "c1"), new AbortController().signal, { heartbeatMs: 30, refresh: async () => null }));
    await tick(80);
    expect(stream.ended).toBe(true);
    expect(openStreamCount({ userId: "carol" })).toBe(0);
  });
});
