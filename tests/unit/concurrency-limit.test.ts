import { describe, expect, it } from "vitest";
import { createLimit } from "~/server/platform/uploads/concurrency-limit.server";

describe("concurrency limit", () => {
  it("never runs more than the limit at once, runs every task, in arrival order, and survives failures", async () => {
    const limit = createLimit(3);
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        limit(async () => {
          started.push(i);
          running++;
          peak = Math.max(peak, running);
          await new Promise((r) => setTimeout(r, 2 + (i % 4)));
          running--;
          if (i % 5 === 0) throw new Error(`task ${i} failed`);
          return i;
        }),
      ),
    );
    expect(peak).toBe(3);
    expect(started).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(results.filter((r) => r.status === "rejected")).toHaveLength(4);
    expect(results.filter((r) => r.status === "fulfilled").map((r) => (r as PromiseFulfilledResult<number>).value)).toHaveLength(16);
    // The places are all free again: a new burst runs three at once immediately.
    let burst = 0;
    await Promise.all(Array.from({ length: 3 }, () => limit(async () => void burst++)));
    expect(burst).toBe(3);
  });
});
