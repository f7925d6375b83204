import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SessionUser } from "~/server/accounts/session.server";
import { EventBus, setEventBus, type ChangeEvent } from "~/server/platform/events/bus.server";
import { closeAllStreams, createEventStream, openStreamCount, STREAMS_FULL_MESSAGE, type StreamLimits } from "~/server/platform/events/stream.server";

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
        refresh: async (ids) => new Map(ids.map((id) => [id, { id: "admin", isStaff: true, mfaVerified: verified }])),
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
        refresh: async (ids) => new Map(ids.map((id) => [id, { id: "admin", isStaff, mfaVerified: true }])),
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
    const stream = reader(createEventStream(user("carol", "c1"), new AbortController().signal, { heartbeatMs: 30, refresh: async () => new Map() }));
    await tick(80);
    expect(stream.ended).toBe(true);
    expect(openStreamCount({ userId: "carol" })).toBe(0);
  });
});

describe("10,000 streams an instance (decision 0046)", () => {
  it("heartbeats look their sessions up together, and only the revoked session's stream ends", async () => {
    const asked: string[][] = [];
    const revoked = new Set(["s-2"]);
    const refresh = async (ids: readonly string[]) => {
      asked.push([...ids]);
      return new Map(ids.filter((id) => !revoked.has(id)).map((id) => [id, { id: `u-${id}`, isStaff: false, mfaVerified: false }]));
    };
    const streams = Array.from({ length: 60 }, (_, i) =>
      reader(createEventStream(user(`u-s-${i}`, `s-${i}`), new AbortController().signal, { heartbeatMs: 50, refresh })),
    );
    await tick(150);
    expect(streams[2]!.ended).toBe(true);
    expect(streams.filter((s) => s.ended)).toHaveLength(1);
    expect(openStreamCount()).toBe(59);
    // Fewer lookups than streams: each tick asks about all the sessions that are due.
    const firstRound = asked.flat().slice(0, 60);
    expect(new Set(firstRound).size).toBe(60);
    expect(asked.length).toBeLessThan(60 * 3);
    expect(Math.max(...asked.map((ids) => ids.length))).toBeGreaterThan(1);
    // Every open stream got heartbeats.
    expect(streams.filter((s) => !s.ended).every((s) => s.text.includes(": heartbeat"))).toBe(true);
  });

  it("a stream whose account now belongs to someone else (a reused session id) ends", async () => {
    const stream = reader(
      createEventStream(user("dave", "d1"), new AbortController().signal, {
        heartbeatMs: 30,
        refresh: async (ids) => new Map(ids.map((id) => [id, { id: "mallory", isStaff: true, mfaVerified: true }])),
      }),
    );
    await tick(80);
    expect(stream.ended).toBe(true);
  });

  it("a change reaches its owner's streams and every verified admin's stream once, and no one else", async () => {
    const owner = Array.from({ length: 3 }, () => reader(createEventStream(user("erin", "e1"), new AbortController().signal)));
    const admins = Array.from({ length: 4 }, (_, i) =>
      reader(createEventStream(user(`adm${i}`, `adm${i}`, { isStaff: true, mfaVerified: true }), new AbortController().signal)),
    );
    const unverified = reader(createEventStream(user("adm-x", "adm-x", { isStaff: true }), new AbortController().signal));
    const other = reader(createEventStream(user("frank", "f1"), new AbortController().signal));
    const verifiedOwnerAdmin = reader(createEventStream(user("erin", "e2", { isStaff: true, mfaVerified: true }), new AbortController().signal));
    publish({ t: "loan_applications", op: "UPDATE", id: "app-9", owner: "erin", status: "approved" });
    await tick();
    for (const s of [...owner, ...admins, verifiedOwnerAdmin]) expect(s.text.match(/"id":"app-9"/g)).toHaveLength(1);
    expect(unverified.text).not.toContain("app-9");
    expect(other.text).not.toContain("app-9");
  });

  it("a session deleted anywhere ends that session's streams at once, not its account's other sessions", async () => {
    const a = reader(createEventStream(user("gina", "g1"), new AbortController().signal));
    const b = reader(createEventStream(user("gina", "g2"), new AbortController().signal));
    publish({ t: "session", op: "DELETE", id: "g1", owner: "gina" });
    await tick();
    expect(a.ended).toBe(true);
    expect(b.ended).toBe(false);
    expect(openStreamCount({ userId: "gina" })).toBe(1);
  });
});
