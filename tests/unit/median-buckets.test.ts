import { describe, expect, it } from "vitest";
import { middleBuckets } from "~/server/staff/pipeline-report.server";

/**
 * Decision 0055: the reports page's median is the display bucket of the middle positions, found from
 * counts per bucket. Positions are 0-based: lo = floor((N - 1) / 2), hi = ceil((N - 1) / 2).
 */
describe("middleBuckets", () => {
  const b = (bucket: string, n: number) => ({ bucket, n });

  it("an odd count: both middles are the middle decision's bucket", () => {
    // Five decisions: positions 0 | 1 2 | 3 4 → the middle (2) is in 1.1.
    expect(middleBuckets(5, 0, [b("0.4", 1), b("1.1", 2), b("7.0", 2)])).toEqual({ lo: "1.1", hi: "1.1" });
    expect(middleBuckets(1, 0, [b("0.1", 1)])).toEqual({ lo: "0.1", hi: "0.1" });
  });

  it("an even count split exactly at a bucket edge: two buckets; one position further: one", () => {
    expect(middleBuckets(4, 0, [b("1.0", 2), b("2.0", 2)])).toEqual({ lo: "1.0", hi: "2.0" });
    expect(middleBuckets(4, 0, [b("1.0", 1), b("2.0", 3)])).toEqual({ lo: "2.0", hi: "2.0" });
    expect(middleBuckets(2, 0, [b("-0.3", 1), b("0.1", 1)])).toEqual({ lo: "-0.3", hi: "0.1" });
  });

  it("the buckets of the middle's whole days, after the decisions of the whole days below them", () => {
    // 100 decisions, 48 in whole days below: positions 49 and 50 are the 2nd and 3rd of these buckets.
    expect(middleBuckets(100, 48, [b("3.0", 2), b("3.4", 5)])).toEqual({ lo: "3.0", hi: "3.4" });
    expect(middleBuckets(100, 48, [b("3.0", 3), b("3.4", 5)])).toEqual({ lo: "3.0", hi: "3.0" });
  });

  it("refuses counts that do not reach the middle (a broken rollup), rather than show a wrong median", () => {
    expect(() => middleBuckets(100, 10, [b("3.0", 5)])).toThrow(/position 49 of 100/);
  });
});
