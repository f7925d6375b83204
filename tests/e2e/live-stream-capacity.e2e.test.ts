import { beforeAll, describe, expect, it } from "vitest";
import { signUpOverHttp } from "../helpers/applicants";
import { openEventStream } from "./helpers/sse";
import { e2eStackForFile } from "./helpers/stack";

/**
 * Decision 0046: an instance holds EVENT_STREAMS_MAX live-update streams; past it a browser is told to
 * come back later (503, Retry-After and a message), and a stream that ends frees its place.
 */

describe("an instance's live-update streams are capped by EVENT_STREAMS_MAX", () => {
  const stack = e2eStackForFile({ browser: false, env: { TRUST_PROXY: "true", EVENT_STREAMS_MAX: "2" } });
  let cookie: string;

  beforeAll(async () => {
    cookie = await signUpOverHttp(stack.url, stack.sink, "capacity@example.com", "198.18.4.1");
  });

  /** A stream, once the server has seen earlier ones end (it learns of a closed socket a moment later). */
  async function openWhenFree() {
    for (const deadline = Date.now() + 5000; ; ) {
      const stream = await openEventStream(`${stack.url}/api/events`, cookie);
      if (stream.status !== 503 || Date.now() > deadline) return stream;
      await stream.close();
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it("a HEAD request holds no place", async () => {
    for (let i = 0; i < 3; i++) {
      const head = await fetch(`${stack.url}/api/events`, { method: "HEAD", headers: { cookie } });
      expect(head.status).toBe(200);
    }
    const streams = [await openWhenFree(), await openWhenFree()];
    try {
      expect(streams.map((s) => s.status)).toEqual([200, 200]);
      await Promise.all(streams.map((s) => s.waitFor((e) => e.event === "ready")));
    } finally {
      await Promise.all(streams.map((s) => s.close()));
    }
  });

  it("answers 503 with Retry-After at the cap, and takes a stream again once one ends", async () => {
    const first = await openWhenFree();
    const second = await openWhenFree();
    try {
      await Promise.all([first.waitFor((e) => e.event === "ready"), second.waitFor((e) => e.event === "ready")]);
      const refused = await fetch(`${stack.url}/api/events`, { headers: { cookie } });
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("30");
      expect((await refused.json()).message).toMatch(/reconnect by itself/);

      await first.close();
      const again = await openWhenFree();
      expect(again.status).toBe(200);
      await again.waitFor((e) => e.event === "ready");
      await again.close();
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });
});
