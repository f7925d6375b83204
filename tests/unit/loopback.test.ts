import { describe, expect, it } from "vitest";
import { isLocalRequest, isLoopbackAddress } from "~/server/platform/http/loopback.server";

describe("isLoopbackAddress", () => {
  it("knows 127.0.0.0/8, ::1 and IPv4-mapped loopback", () => {
    for (const ip of ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1", "0:0:0:0:0:0:0:1"]) expect(isLoopbackAddress(ip), ip).toBe(true);
  });
  it("refuses everything else, including look-alikes", () => {
    for (const ip of ["203.0.113.9", "10.0.0.1", "::ffff:10.0.0.1", "127.0.0.1.evil", "1270.0.0.1", "127.0.0.256", "::2", "unknown", "", "localhost"]) {
      expect(isLoopbackAddress(ip), ip).toBe(false);
    }
  });
});

describe("isLocalRequest", () => {
  const request = (headers: Record<string, string> = {}) => new Request("http://localhost/dev/mailbox", { headers });
  it("takes a loopback client without forwarding headers for a local one", () => {
    expect(isLocalRequest(request(), "127.0.0.1", false)).toBe(true);
  });
  it("does not take a request a proxy on this machine forwarded for a local one", () => {
    expect(isLocalRequest(request({ "x-forwarded-for": "203.0.113.9" }), "127.0.0.1", false)).toBe(false);
    expect(isLocalRequest(request({ forwarded: "for=203.0.113.9" }), "127.0.0.1", false)).toBe(false);
  });
  it("with TRUST_PROXY judges the address the proxy reported", () => {
    expect(isLocalRequest(request({ "x-forwarded-for": "203.0.113.9" }), "203.0.113.9", true)).toBe(false);
    expect(isLocalRequest(request({ "x-forwarded-for": "127.0.0.1" }), "127.0.0.1", true)).toBe(true);
  });
});
