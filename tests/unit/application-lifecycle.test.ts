import { describe, expect, it } from "vitest";
import {
  APPLICATION_TRANSITIONS,
  canTransition,
  eventsFrom,
  fromStatuses,
  INITIAL_APPLICATION_STATUS,
  isOpenForReview,
  isCurrentLoan,
  isDecided,
  mayMake,
  terminalStatuses,
  transitionFor,
} from "~/domain/application-lifecycle";
import { APPLICATION_STATUSES, DECIDED_APPLICATION_STATUSES } from "~/domain/enums";

describe("the application status lifecycle", () => {
  it("starts pending; staff start the review; decided (or closed as incomplete) from pending or under review, once", () => {
    expect(INITIAL_APPLICATION_STATUS).toBe("pending");
    expect(transitionFor("submit")).toMatchObject({ from: [null], to: "pending", by: "applicant" });
    expect(transitionFor("start-review")).toMatchObject({ from: ["pending"], to: "under_review", by: "verified-admin" });
    expect(transitionFor("approve")).toMatchObject({ from: ["pending", "under_review"], to: "approved", by: "verified-admin" });
    expect(transitionFor("deny")).toMatchObject({ from: ["pending", "under_review"], to: "denied", by: "verified-admin" });
    expect(transitionFor("close-incomplete")).toMatchObject({ from: ["pending", "under_review"], to: "incomplete", by: "verified-admin" });
    expect(fromStatuses("approve")).toEqual(["pending", "under_review"]);
    expect(eventsFrom("pending", "verified-admin").sort()).toEqual(["approve", "close-incomplete", "deny", "start-review"]);
    expect(eventsFrom("under_review", "verified-admin").sort()).toEqual(["approve", "close-incomplete", "deny"]);
    expect(eventsFrom("pending").sort()).toEqual(["approve", "close-incomplete", "deny", "start-review", "withdraw"]);
    expect(canTransition("under_review", "start-review")).toBe(false);
    for (const decided of ["approved", "denied", "incomplete", "withdrawn"] as const) {
      expect(eventsFrom(decided)).toEqual([]);
      expect(canTransition(decided, "approve")).toBe(false);
      expect(canTransition(decided, "deny")).toBe(false);
      expect(isOpenForReview(decided)).toBe(false);
    }
    expect(isOpenForReview("pending")).toBe(true);
    expect(isOpenForReview("under_review")).toBe(true);
    expect(canTransition(null, "submit")).toBe(true);
    expect(canTransition("pending", "submit")).toBe(false);
  });

  it("lets the applicant withdraw while pending or under review, once; withdrawn is terminal but not a decision", () => {
    expect(transitionFor("withdraw")).toMatchObject({ from: ["pending", "under_review"], to: "withdrawn", by: "applicant" });
    expect(canTransition("pending", "withdraw")).toBe(true);
    expect(canTransition("under_review", "withdraw")).toBe(true);
    for (const closed of ["approved", "denied", "incomplete", "withdrawn"] as const) expect(canTransition(closed, "withdraw")).toBe(false);
    expect(terminalStatuses()).toContain("withdrawn");
    expect(isDecided("withdrawn")).toBe(false);
    expect(mayMake("withdraw", { isStaff: false, mfaVerified: false })).toBe(true);
    expect(mayMake("withdraw", { isStaff: true, mfaVerified: true })).toBe(false);
  });

  it("has one transition per event, between known states", () => {
    const events = APPLICATION_TRANSITIONS.map((t) => t.event);
    expect(new Set(events).size).toBe(events.length);
    for (const t of APPLICATION_TRANSITIONS) {
      expect(APPLICATION_STATUSES).toContain(t.to);
      for (const from of t.from) if (from !== null) expect(APPLICATION_STATUSES).toContain(from);
    }
  });

  it("agrees with the database's list of decided statuses", () => {
    for (const status of DECIDED_APPLICATION_STATUSES) {
      expect(isDecided(status)).toBe(true);
      expect(terminalStatuses()).toContain(status);
    }
    expect(isDecided("pending")).toBe(false);
    expect(isDecided("under_review")).toBe(false);
  });

  it("lets only an admin with a verified second factor decide", () => {
    expect(mayMake("approve", { isStaff: true, mfaVerified: true })).toBe(true);
    expect(mayMake("deny", { isStaff: true, mfaVerified: true })).toBe(true);
    expect(mayMake("approve", { isStaff: true, mfaVerified: false })).toBe(false);
    expect(mayMake("deny", { isStaff: false, mfaVerified: true })).toBe(false);
    expect(mayMake("submit", { isStaff: false, mfaVerified: false })).toBe(true);
    expect(mayMake("start-review", { isStaff: true, mfaVerified: false })).toBe(false);
    expect(mayMake("close-incomplete", { isStaff: false, mfaVerified: true })).toBe(false);
  });

  it("counts active and approved loans as current", () => {
    expect(isCurrentLoan("active")).toBe(true);
    expect(isCurrentLoan("approved")).toBe(true);
    expect(isCurrentLoan("paid_off")).toBe(false);
    expect(isCurrentLoan("closed")).toBe(false);
  });
});
