import { describe, expect, it } from "vitest";
import { localClock, localTimeText, STATE_TIME_ZONES, timeZoneOfState, withinContactHours } from "~/domain/contact-hours";
import { US_STATES } from "~/domain/validation/application-constants";

/** Contact hours (decision 0098): every state the application offers has a zone, and the window's edges. */
describe("contact hours", () => {
  it("gives every state the application accepts a real IANA zone", () => {
    for (const state of US_STATES) {
      const zone = timeZoneOfState(state);
      expect(zone, state).not.toBeNull();
      // Intl refuses an unknown zone: a typo in the table fails here.
      expect(() => localClock(new Date(), zone!), state).not.toThrow();
    }
    expect(Object.keys(STATE_TIME_ZONES)).toContain("DC");
    expect(timeZoneOfState(null)).toBeNull();
    expect(timeZoneOfState("__proto__")).toBeNull();
  });

  it("is open from 8:00 to 20:59 local time, in Hawaii and Alaska too", () => {
    // Honolulu is UTC-10 all year: 18:00Z is 8:00, 06:59Z is 20:59, 07:00Z is 21:00.
    expect(withinContactHours(new Date("2026-07-01T17:59:00Z"), "Pacific/Honolulu")).toBe(false);
    expect(withinContactHours(new Date("2026-07-01T18:00:00Z"), "Pacific/Honolulu")).toBe(true);
    expect(withinContactHours(new Date("2026-07-02T06:59:00Z"), "Pacific/Honolulu")).toBe(true);
    expect(withinContactHours(new Date("2026-07-02T07:00:00Z"), "Pacific/Honolulu")).toBe(false);
    // Anchorage in summer is UTC-8: 16:00Z is 8:00.
    expect(withinContactHours(new Date("2026-07-01T16:00:00Z"), "America/Anchorage")).toBe(true);
    expect(withinContactHours(new Date("2026-07-01T15:59:00Z"), "America/Anchorage")).toBe(false);
    expect(localTimeText(new Date("2026-12-07T20:05:00Z"), "America/Chicago")).toBe("2:05 PM CST");
  });
});
