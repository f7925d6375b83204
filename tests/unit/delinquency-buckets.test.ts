import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addDays } from "~/domain/dates";
import { DELINQUENCY_BUCKET_KEYS, DELINQUENCY_BUCKETS, delinquencyBucket } from "~/domain/delinquency";
import { bucketDueDates, formatShare, monthEndsBefore, nextWorseBucket, previousMonthEnd, readBucketParam } from "~/domain/delinquency-ranges";
import { daysBetween } from "~/domain/loan-schedule";

/** The bucket rules (decision 0096): day edges, the due-date ranges SQL reads, the ?bucket= parameter, month ends. */

describe("delinquency buckets", () => {
  it("puts each edge day in its bucket", () => {
    const edges: [number, string][] = [
      [-30, "current"],
      [0, "current"],
      [1, "1-29"],
      [29, "1-29"],
      [30, "30-59"],
      [59, "30-59"],
      [60, "60-89"],
      [89, "60-89"],
      [90, "90-119"],
      [119, "90-119"],
      [120, "120+"],
      [5000, "120+"],
    ];
    for (const [days, bucket] of edges) expect(delinquencyBucket(days), `${days} days`).toBe(bucket);
  });

  it("the buckets cover every day once, in order", () => {
    for (let i = 1; i < DELINQUENCY_BUCKETS.length; i++) expect(DELINQUENCY_BUCKETS[i]!.minDays).toBe(DELINQUENCY_BUCKETS[i - 1]!.maxDays! + 1);
    expect(DELINQUENCY_BUCKETS.at(-1)!.maxDays).toBeNull();
  });

  it("a loan's due date is in its bucket's due-date range, and in no other (any day, any as-of day)", () => {
    fc.assert(
      fc.property(fc.integer({ min: -400, max: 4000 }), fc.integer({ min: 0, max: 3650 }), (days, offset) => {
        const asOf = addDays("2024-01-01", offset);
        const due = addDays(asOf, -days);
        expect(daysBetween(due, asOf)).toBe(days);
        const inRange = DELINQUENCY_BUCKET_KEYS.filter((bucket) => {
          const { from, through } = bucketDueDates(bucket, asOf);
          return (from === null || due >= from) && (through === null || due <= through);
        });
        expect(inRange).toEqual([delinquencyBucket(days)]);
      }),
    );
  });

  it("reads ?bucket=: a bucket, nothing, or a notice that names the value without control characters", () => {
    expect(readBucketParam("30-59")).toEqual({ bucket: "30-59", notice: null });
    expect(readBucketParam("120+")).toEqual({ bucket: "120+", notice: null });
    expect(readBucketParam(null)).toEqual({ bucket: null, notice: null });
    expect(readBucketParam("")).toEqual({ bucket: null, notice: null });
    const odd = readBucketParam("toString\u0000\u202e" + "x".repeat(50));
    expect(odd.bucket).toBeNull();
    expect(odd.notice).toBe('There is no days-past-due range "toStringxxxxxxxxxxxx": showing every range.');
    expect(readBucketParam("30-60").bucket).toBeNull();
  });

  it("the next worse bucket, month ends and shares", () => {
    expect(nextWorseBucket("current")).toBe("1-29");
    expect(nextWorseBucket("90-119")).toBe("120+");
    expect(nextWorseBucket("120+")).toBeNull();
    expect(previousMonthEnd("2026-03-01")).toBe("2026-02-28");
    expect(previousMonthEnd("2024-03-31")).toBe("2024-02-29");
    expect(previousMonthEnd("2026-01-15")).toBe("2025-12-31");
    expect(monthEndsBefore("2026-02-10", 3)).toEqual(["2026-01-31", "2025-12-31", "2025-11-30"]);
    expect(formatShare(1, 8)).toBe("12.5 %");
    expect(formatShare(0, 3)).toBe("0.0 %");
    expect(formatShare(2, 3)).toBe("66.7 %");
    expect(formatShare(1, 0)).toBe("—");
  });
});
