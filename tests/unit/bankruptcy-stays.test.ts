import { describe, expect, it } from "vitest";
import { stayCovers } from "~/domain/bankruptcy-stays";

describe("stayCovers", () => {
  const ended = { from: "2026-03-01", through: "2026-04-15" };
  const open = { from: "2026-06-10", through: null };

  it("covers the filing day, the end day and the days between; not the day before or after", () => {
    expect(stayCovers("2026-03-01", [ended])).toBe(true);
    expect(stayCovers("2026-04-15", [ended])).toBe(true);
    expect(stayCovers("2026-03-20", [ended])).toBe(true);
    expect(stayCovers("2026-02-28", [ended])).toBe(false);
    expect(stayCovers("2026-04-16", [ended])).toBe(false);
  });

  it("a stay still in force covers every day from its filing; no stay covers nothing", () => {
    expect(stayCovers("2026-06-09", [open])).toBe(false);
    expect(stayCovers("2030-01-01", [open])).toBe(true);
    expect(stayCovers("2026-05-01", [ended, open])).toBe(false);
    expect(stayCovers("2026-07-01", [ended, open])).toBe(true);
    expect(stayCovers("2026-03-05", [])).toBe(false);
  });
});
