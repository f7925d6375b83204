import type http from "node:http";
import { describe, expect, it } from "vitest";
import { clientIp, isSecure } from "../../server/request-info";

const req = (headers: http.IncomingHttpHeaders, socket: { remoteAddress?: string; encrypted?: boolean } = { remoteAddress: "10.0.0.5" }) =>
  ({ headers, socket }) as unknown as http.IncomingMessage;

describe("clientIp", () => {
  it("uses the socket address unless the proxy is trusted", () => {
    expect(clientIp(req({ "x-forwarded-for": "203.0.113.9" }), false)).toBe("10.0.0.5");
    expect(clientIp(req({ "x-forwarded-for": "203.0.113.9" }), true)).toBe("203.0.113.9");
  });

  it("takes the address the proxy appended, not one the client wrote itself", () => {
    // The client sent "X-Forwarded-For: 1.2.3.4"; the proxy appended the real address.
    expect(clientIp(req({ "x-forwarded-for": "1.2.3.4, 198.51.100.7" }), true)).toBe("198.51.100.7");
    expect(clientIp(req({ "x-forwarded-for": ["1.2.3.4", "198.51.100.7"] }), true)).toBe("198.51.100.7");
    expect(clientIp(req({ "x-forwarded-for": " , " }), true)).toBe("10.0.0.5");
  });
});

describe("isSecure", () => {
  it("trusts X-Forwarded-Proto only from a trusted proxy", () => {
    expect(isSecure(req({ "x-forwarded-proto": "https" }), false)).toBe(false);
    expect(isSecure(req({ "x-forwarded-proto": "https" }), true)).toBe(true);
    expect(isSecure(req({ "x-forwarded-proto": "http" }), true)).toBe(false);
    expect(isSecure(req({}, { encrypted: true }), false)).toBe(true);
  });
});
