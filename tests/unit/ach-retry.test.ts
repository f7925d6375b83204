import { describe, expect, it } from "vitest";
import { retryDeadline, retryPlan, retryReference } from "~/domain/ach-retry";
import { ACH_RETRY_LIMIT } from "~/domain/ach-returns";
import { isBankingDay } from "~/domain/banking-days";
import { addDays } from "~/domain/dates";

/** The retry rule for debits returned for funds: five banking days after the return, at most twice, within 180 days. */
describe("retryPlan", () => {
  it("waits five banking days after the return, skipping weekends", () => {
    // Friday 2026-03-06 + 5 banking days = Friday 2026-03-13.
    expect(retryPlan("2026-03-06", "2026-03-04", 0)).toEqual({ day: "2026-03-13", retryNumber: 1 });
  });

  it("skips Federal Reserve holidays (Thanksgiving 2026-11-26)", () => {
    const plan = retryPlan("2026-11-23", "2026-11-20", 1);
    expect(plan).toEqual({ day: "2026-12-01", retryNumber: 2 });
  });

  it("is never the return day and always a banking day", () => {
    for (let i = 0; i < 400; i++) {
      const returned = addDays("2026-01-01", i);
      const plan = retryPlan(returned, returned, 0);
      expect(plan.day).not.toBeNull();
      expect(plan.day! > returned).toBe(true);
      expect(isBankingDay(plan.day!)).toBe(true);
    }
  });

  it("allows at most two retries of the original", () => {
    expect(retryPlan("2026-03-06", "2026-03-04", 1)).toMatchObject({ retryNumber: 2 });
    expect(retryPlan("2026-03-06", "2026-03-04", ACH_RETRY_LIMIT)).toEqual({ day: null, reason: "limit" });
    expect(retryPlan("2026-03-06", "2026-03-04", 5)).toEqual({ day: null, reason: "limit" });
  });

  it("allows none whose day falls more than 180 days after the original's effective date", () => {
    expect(retryDeadline("2026-01-05")).toBe("2026-07-04");
    // Returned on 2026-06-29 (Mon): + 5 banking days = 2026-07-06, past the deadline.
    expect(retryPlan("2026-06-29", "2026-01-05", 0)).toEqual({ day: null, reason: "window" });
    // Returned on 2026-06-19: the retry day 2026-06-26 is inside.
    expect(retryPlan("2026-06-19", "2026-01-05", 0)).toEqual({ day: "2026-06-26", retryNumber: 1 });
  });

  it("names the retry after the original", () => {
    expect(retryReference("AUTO-ABCD2345", 1)).toBe("AUTO-ABCD2345-R1");
    expect(retryReference("WEB-ABCD2345", 2)).toBe("WEB-ABCD2345-R2");
  });
});
