import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_REDIRECT_LENGTH, safeRedirectPath } from "~/server/platform/http/safe-redirect.server";

/**
 * Open-redirect guard (issue 16, finding 2). The property: whatever string an attacker puts in
 * `redirectTo`, the answer is the fallback or a path that a browser resolves to our own origin, and
 * it is a valid HTTP header value (so setting it as Location never throws).
 */

const SITE = "https://loans.example.com";
const FALLBACK = "/dashboard";

function staysOnSite(result: string): void {
  // A browser resolves Location against the page's URL; it must land on the same origin.
  expect(new URL(result, SITE).origin).toBe(SITE);
  expect(result.startsWith("/")).toBe(true);
  expect(result.startsWith("//")).toBe(false);
  // eslint-disable-next-line no-control-regex -- control characters are what must not appear
  expect(result).not.toMatch(/[\\\s\u0000-\u001f\u007f]/);
  expect(() => new Headers({ Location: result })).not.toThrow();
}

describe("safeRedirectPath", () => {
  it("keeps ordinary paths of this site, with their query", () => {
    expect(safeRedirectPath("/admin")).toBe("/admin");
    expect(safeRedirectPath("/apply?loanType=personal&amount=5000")).toBe("/apply?loanType=personal&amount=5000");
    expect(safeRedirectPath("/admin/monitoring?hours=6", "/admin")).toBe("/admin/monitoring?hours=6");
  });

  it.each([
    ["/\t/evil.example/x"],
    ["/%09/evil.example/x".replace("%09", "\t")],
    ["/\r\n/evil.example"],
    ["/\n/evil.example"],
    ["/\\evil.example"],
    ["/\\/evil.example"],
    ["//evil.example"],
    ["///evil.example"],
    ["/./\\evil.example"],
    ["/.//evil.example"],
    ["/..//evil.example"],
    ["https://evil.example/"],
    ["javascript:alert(1)"],
    [" /evil"],
    ["/\u0000/evil.example"],
    ["/\u3000/evil.example"],
    ["/\u00a0/evil.example"],
    ["/\ufeff/evil.example"],
    ["evil.example"],
    [""],
    ["/" + "a".repeat(MAX_REDIRECT_LENGTH)],
  ])("refuses %j", (target) => {
    expect(safeRedirectPath(target, FALLBACK)).toBe(FALLBACK);
  });

  it("percent-encodes characters outside ASCII instead of passing them into a header", () => {
    const result = safeRedirectPath("/dashboard?name=Zoë—✓", FALLBACK);
    expect(result).toBe("/dashboard?name=Zo%C3%AB%E2%80%94%E2%9C%93");
    staysOnSite(result);
  });

  it("never returns a target off the site or one that cannot be a header value (any string)", () => {
    const pieces = fc.constantFrom("/", "//", "\\", "\t", "\r", "\n", ".", "..", "%2f", "%09", "evil.example", "@", ":", "?", "#", "\u3000", "\u0000", "é", "https:");
    const crafted = fc.array(pieces, { maxLength: 8 }).map((parts) => parts.join(""));
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: "binary", maxLength: 80 }), crafted, crafted.map((s) => `/${s}`)), (target) => {
        const result = safeRedirectPath(target, FALLBACK);
        if (result !== FALLBACK) staysOnSite(result);
      }),
      { numRuns: 5000 },
    );
  });
});
