import { describe, expect, it } from "vitest";
import { reconnectDelay } from "~/components/live/use-live-updates";
import { entitled } from "~/server/platform/events/stream.server";

describe("live events", () => {
  const change = (owner: string, t = "loan_applications" as const) => ({ t, op: "UPDATE" as const, id: "x", owner });

  it("go to the owner and to admins who passed the second factor, never to another applicant", () => {
    expect(entitled({ id: "alice", isStaff: false, mfaVerified: false }, change("alice"))).toBe(true);
    expect(entitled({ id: "bob", isStaff: false, mfaVerified: false }, change("alice"))).toBe(false);
    expect(entitled({ id: "admin", isStaff: true, mfaVerified: true }, change("alice"))).toBe(true);
  });

  it("do not go to an admin session that has not passed the second factor (other than the admin's own)", () => {
    expect(entitled({ id: "admin", isStaff: true, mfaVerified: false }, change("alice"))).toBe(false);
    expect(entitled({ id: "admin", isStaff: true, mfaVerified: false }, change("admin"))).toBe(true);
  });

  it("never forward session events", () => {
    expect(entitled({ id: "alice", isStaff: true, mfaVerified: true }, { t: "session", op: "DELETE", id: "s", owner: "alice" })).toBe(false);
  });

  it("reconnect after 1, 2, 5, 10 s, then every 10 s", () => {
    expect([0, 1, 2, 3, 4, 9].map(reconnectDelay)).toEqual([1000, 2000, 5000, 10_000, 10_000, 10_000]);
  });
});
