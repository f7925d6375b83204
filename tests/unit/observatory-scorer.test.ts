import { describe, expect, it } from "vitest";
import { gradeForScore, scoreRetrieval, type Cookie, type Headers, type Retrieval } from "../helpers/observatory";

// Known header sets and the results the published rules give them (mdn/mdn-http-observatory,
// src/grader/charts.js and src/analyzer/tests/*.js).

const SITE = "bank.example";
const GOOD_HEADERS: Headers = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy": "default-src 'self'; script-src 'self' 'nonce-abc'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  "strict-transport-security": "max-age=63072000; includeSubDomains",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "strict-origin-when-cross-origin",
  "cross-origin-resource-policy": "same-origin",
  "cross-origin-opener-policy": "same-origin",
};

type Overrides = {
  headers?: Headers;
  drop?: string[];
  body?: string;
  cookies?: Cookie[];
  httpRoute?: string[];
  cors?: Headers;
};

function site(o: Overrides = {}): Retrieval {
  const headers: Headers = { ...GOOD_HEADERS, ...o.headers };
  for (const name of o.drop ?? []) delete headers[name];
  const url = new URL(`https://${SITE}/`);
  const response = { url, status: 200, headers, body: o.body ?? '<html><script src="/app.js"></script></html>', verified: true };
  const route = (o.httpRoute ?? [`http://${SITE}/`, `https://${SITE}/`]).map((href) => ({ url: new URL(href), status: 301 }));
  return {
    hostname: SITE,
    auto: response,
    sessionUrl: url,
    http: response,
    https: response,
    httpRedirects: route,
    cookies: o.cookies ?? [],
    cors: { headers: o.cors ?? {}, requestOrigin: "https://http-observatory.security.mozilla.org" },
  };
}

function resultOf(r: Retrieval, test: string) {
  const found = scoreRetrieval(r).tests.find((t) => t.test === test);
  if (!found) throw new Error(`no ${test}`);
  return found;
}

describe("Observatory scoring rules", () => {
  it("scores a strict header set A+ with the published bonuses", () => {
    const score = scoreRetrieval(site());
    const byTest = Object.fromEntries(score.tests.map((t) => [t.test, `${t.result} ${t.modifier}`]));
    expect(byTest).toEqual({
      "content-security-policy": "csp-implemented-with-no-unsafe 5",
      cookies: "cookies-not-found 0",
      "cross-origin-embedder-policy": "coep-not-implemented 0",
      "cross-origin-opener-policy": "coop-implemented-with-same-origin 10",
      "cross-origin-resource-sharing": "cross-origin-resource-sharing-not-implemented 0",
      redirection: "redirection-to-https 0",
      "referrer-policy": "referrer-policy-private 5",
      "strict-transport-security": "hsts-implemented-max-age-at-least-six-months 0",
      "subresource-integrity": "sri-not-implemented-but-all-scripts-loaded-from-secure-origin 0",
      "x-content-type-options": "x-content-type-options-nosniff 0",
      "x-frame-options": "x-frame-options-implemented-via-csp 5",
      "cross-origin-resource-policy": "corp-implemented-with-same-origin 10",
    });
    expect(score).toMatchObject({ score: 135, grade: "A+" });
  });

  it("a missing CSP costs 25 and, below 90 before bonuses, no extra credit is given", () => {
    const score = scoreRetrieval(site({ drop: ["content-security-policy", "x-frame-options"] }));
    expect(resultOf(site({ drop: ["content-security-policy"] }), "content-security-policy")).toMatchObject({
      result: "csp-not-implemented",
      modifier: -25,
    });
    // -25 (CSP) -20 (no XFO, no frame-ancestors) = 55 uncurved: the +25 of bonuses are not counted.
    expect(score).toMatchObject({ score: 55, grade: "C" });
  });

  it("a report-only CSP is not a CSP", () => {
    const r = site({ drop: ["content-security-policy"], headers: { "content-security-policy-report-only": "default-src 'self'" } });
    expect(resultOf(r, "content-security-policy")).toMatchObject({ result: "csp-not-implemented-but-reporting-enabled", modifier: -25 });
  });

  it("reads the CSP: unsafe-inline scripts, nonce overrides, style-only, default-src 'none', duplicates", () => {
    const csp = (value: string) => resultOf(site({ headers: { "content-security-policy": value } }), "content-security-policy");
    expect(csp("default-src 'self'; script-src 'self' 'unsafe-inline'; object-src 'none'")).toMatchObject({
      result: "csp-implemented-with-unsafe-inline",
      modifier: -20,
    });
    expect(csp("default-src 'self'; script-src 'self' 'unsafe-inline' 'nonce-x'; object-src 'none'").result).toBe("csp-implemented-with-no-unsafe");
    expect(csp("default-src 'self'; style-src 'self' 'unsafe-inline'; object-src 'none'")).toMatchObject({
      result: "csp-implemented-with-unsafe-inline-in-style-src-only",
      modifier: 0,
    });
    expect(csp("default-src 'none'; script-src 'self'; form-action 'self'")).toMatchObject({
      result: "csp-implemented-with-no-unsafe-default-src-none",
      modifier: 10,
    });
    expect(csp("default-src 'self'; script-src 'self' 'unsafe-eval'").result).toBe("csp-implemented-with-unsafe-eval");
    expect(csp("default-src 'self'; img-src http:").result).toBe("csp-implemented-with-insecure-scheme-in-passive-content-only");
    expect(csp("default-src 'self'; default-src 'none'")).toMatchObject({ result: "csp-header-invalid", modifier: -25 });
    // Without object-src or default-src, plugins may load from anywhere.
    expect(csp("script-src 'self'").result).toBe("csp-implemented-with-unsafe-inline");
  });

  it("HSTS shorter than six months costs 10; missing costs 20", () => {
    expect(resultOf(site({ headers: { "strict-transport-security": "max-age=86400" } }), "strict-transport-security")).toMatchObject({
      result: "hsts-implemented-max-age-less-than-six-months",
      modifier: -10,
    });
    expect(resultOf(site({ drop: ["strict-transport-security"] }), "strict-transport-security").modifier).toBe(-20);
  });

  it("cookies: SameSite earns 5, a session cookie without HttpOnly costs 30, without Secure 40 (or 10 under HSTS)", () => {
    const cookie = (c: Partial<Cookie>): Cookie => ({ key: "pl.session_token", secure: true, httpOnly: true, sameSite: "lax", ...c });
    expect(resultOf(site({ cookies: [cookie({})] }), "cookies")).toMatchObject({ result: "cookies-secure-with-httponly-sessions-and-samesite", modifier: 5 });
    expect(resultOf(site({ cookies: [cookie({ sameSite: undefined })] }), "cookies").modifier).toBe(0);
    expect(resultOf(site({ cookies: [cookie({ httpOnly: false })] }), "cookies")).toMatchObject({ result: "cookies-session-without-httponly-flag", modifier: -30 });
    expect(resultOf(site({ cookies: [cookie({ secure: false })] }), "cookies").result).toBe("cookies-session-without-secure-flag-but-protected-by-hsts");
    expect(
      resultOf(site({ cookies: [cookie({ secure: false })], drop: ["strict-transport-security"] }), "cookies"),
    ).toMatchObject({ result: "cookies-session-without-secure-flag", modifier: -40 });
    // Non-session cookies need neither HttpOnly nor a session name.
    expect(resultOf(site({ cookies: [cookie({ key: "theme", httpOnly: false })] }), "cookies").modifier).toBe(5);
  });

  it("redirection: missing, via another http URL, and off-host are penalised", () => {
    const redirect = (...route: string[]) => resultOf(site({ httpRoute: route }), "redirection");
    expect(redirect(`http://${SITE}/`)).toMatchObject({ result: "redirection-missing", modifier: -20 });
    expect(redirect(`http://${SITE}/`, `http://www.${SITE}/`, `https://www.${SITE}/`).result).toBe("redirection-not-to-https-on-initial-redirection");
    expect(redirect(`http://${SITE}/`, `https://www.${SITE}/`)).toMatchObject({ result: "redirection-off-host-from-http", modifier: -5 });
    expect(redirect(`http://${SITE}/`, `https://${SITE}/`, `https://${SITE}/auth`).result).toBe("redirection-to-https");
  });

  it("CORS that reflects the origin with credentials costs 50", () => {
    const origin = "https://http-observatory.security.mozilla.org";
    const r = site({ cors: { "access-control-allow-origin": origin, "access-control-allow-credentials": "true" } });
    expect(resultOf(r, "cross-origin-resource-sharing")).toMatchObject({ modifier: -50, pass: false });
    expect(resultOf(site({ cors: { "access-control-allow-origin": "*" } }), "cross-origin-resource-sharing").modifier).toBe(0);
  });

  it("SRI, Referrer-Policy, X-Content-Type-Options, COOP/COEP/CORP values", () => {
    const external = '<script src="http://cdn.other.example/x.js"></script>';
    expect(resultOf(site({ body: external }), "subresource-integrity")).toMatchObject({ modifier: -50 });
    const withSri = '<script src="/a.js" integrity="sha384-x" crossorigin="anonymous"></script>';
    expect(resultOf(site({ body: withSri }), "subresource-integrity").modifier).toBe(5);
    expect(resultOf(site({ headers: { "referrer-policy": "unsafe-url" } }), "referrer-policy").modifier).toBe(-5);
    expect(resultOf(site({ body: '<meta name="referrer" content="unsafe-url">' }), "referrer-policy").result).toBe("referrer-policy-unsafe");
    expect(resultOf(site({ drop: ["x-content-type-options"] }), "x-content-type-options").modifier).toBe(-5);
    expect(resultOf(site({ headers: { "cross-origin-embedder-policy": "require-corp" } }), "cross-origin-embedder-policy").modifier).toBe(10);
    expect(resultOf(site({ headers: { "cross-origin-opener-policy": "bogus value" } }), "cross-origin-opener-policy").modifier).toBe(-5);
    expect(resultOf(site({ headers: { "cross-origin-resource-policy": "nope" } }), "cross-origin-resource-policy").modifier).toBe(-5);
  });

  it("grades by the published chart", () => {
    expect([100, 135, 99, 90, 85, 80, 70, 65, 60, 50, 45, 40, 30, 25, 20, -5].map((s) => gradeForScore(s).grade)).toEqual([
      "A+", "A+", "A", "A", "A-", "B+", "B", "B-", "C+", "C", "C-", "D+", "D", "D-", "F", "F",
    ]);
  });

  it("refuses a response the scanner would not score", () => {
    const r = site();
    expect(() => scoreRetrieval({ ...r, auto: { ...r.auto!, status: 404 } })).toThrow(/unexpected HTTP status code 404/);
  });
});
