/**
 * The MDN HTTP Observatory's scoring rules, encoded for our tests (its scanner cannot be installed
 * here: its install step downloads the HSTS preload and TLD lists).
 *
 * Source read: github.com/mdn/mdn-http-observatory at commit 94042bbfbf9f1af722ad9114ada6d271dcb525b9
 * (ALGORITHM_VERSION 6): src/analyzer/tests/*.js (one function below per test, same result names),
 * src/analyzer/cspParser.js, src/grader/charts.js (SCORE_TABLE modifiers, GRADE_CHART,
 * MINIMUM_SCORE_FOR_EXTRA_CREDIT) and src/scanner/index.js (how results add up). Written from that
 * reading, not copied.
 *
 * Where this differs, and why it does not matter for our pages:
 * - No HSTS preload list: nothing counts as preloaded (our hosts are not; preloading only adds points).
 * - Multiple CSP policies are combined by exact intersection of sources (the scanner also lets a
 *   path-prefix match survive); we send one policy.
 * - "Same second-level domain" for SRI is the last two host labels (the scanner uses the public suffix
 *   list); all our scripts are relative URLs, which the scanner treats as same-origin either way.
 * - HTML is scanned with a tag regex, enough for <script src> and <meta http-equiv> in server HTML.
 */

export type Headers = Record<string, string | string[] | undefined>;

export type RetrievedResponse = {
  url: URL;
  status: number;
  headers: Headers;
  body: string;
  /** false when the certificate chain did not verify (the scanner then retries without verifying). */
  verified: boolean;
};

export type Cookie = { key: string; secure: boolean; httpOnly: boolean; sameSite: string | undefined };

/** What the scanner's retriever collects for one site and path (src/retriever/retriever.js). */
export type Retrieval = {
  /** The scanned host name (the scanner's `site`). */
  hostname: string;
  /** Final response of the https:// session (or of the http:// one when https is unreachable). */
  auto: RetrievedResponse | null;
  /** The URL the `auto` session started from; its protocol decides the "secure site" checks. */
  sessionUrl: URL;
  /** Final responses of the http:// and https:// sessions, after following redirects. */
  http: RetrievedResponse | null;
  https: RetrievedResponse | null;
  /** Every URL the http:// session visited, the first request included. */
  httpRedirects: { url: URL; status: number }[];
  /** The `auto` session's cookie jar after its redirects: the last cookie per name and path. */
  cookies: Cookie[];
  /** The preflight (OPTIONS with Origin and Access-Control-Request-Method) on the final URL. */
  cors: { headers: Headers; requestOrigin: string } | null;
};

export type TestResult = { test: string; result: string; modifier: number; pass: boolean; note?: string };
export type Score = { score: number; grade: string; tests: TestResult[] };

/** charts.js SCORE_TABLE: result name → score modifier. */
export const SCORE_MODIFIERS: Readonly<Record<string, number>> = {
  "csp-implemented-with-no-unsafe-default-src-none": 10,
  "csp-implemented-with-no-unsafe": 5,
  "csp-implemented-with-unsafe-inline-in-style-src-only": 0,
  "csp-implemented-with-insecure-scheme-in-passive-content-only": -10,
  "csp-implemented-with-unsafe-eval": -10,
  "csp-implemented-with-unsafe-inline": -20,
  "csp-implemented-with-insecure-scheme": -20,
  "csp-header-invalid": -25,
  "csp-not-implemented": -25,
  "csp-not-implemented-but-reporting-enabled": -25,
  "csp-implemented-but-duplicate-directives": 0,
  "cookies-secure-with-httponly-sessions-and-samesite": 5,
  "cookies-secure-with-httponly-sessions": 0,
  "cookies-not-found": 0,
  "cookies-without-secure-flag-but-protected-by-hsts": -5,
  "cookies-session-without-secure-flag-but-protected-by-hsts": -10,
  "cookies-without-secure-flag": -20,
  "cookies-samesite-flag-invalid": -20,
  "cookies-anticsrf-without-samesite-flag": -20,
  "cookies-session-without-httponly-flag": -30,
  "cookies-session-without-secure-flag": -40,
  "cross-origin-resource-sharing-not-implemented": 0,
  "cross-origin-resource-sharing-implemented-with-public-access": 0,
  "cross-origin-resource-sharing-implemented-with-restricted-access": 0,
  "cross-origin-resource-sharing-implemented-with-universal-access": -50,
  "redirection-all-redirects-preloaded": 0,
  "redirection-to-https": 0,
  "redirection-not-needed-no-http": 0,
  "redirection-off-host-from-http": -5,
  "redirection-not-to-https-on-initial-redirection": -10,
  "redirection-not-to-https": -20,
  "redirection-missing": -20,
  "redirection-invalid-cert": -20,
  "referrer-policy-private": 5,
  "referrer-policy-not-implemented": 0,
  "referrer-policy-unsafe": -5,
  "referrer-policy-header-invalid": -5,
  "hsts-preloaded": 5,
  "hsts-implemented-max-age-at-least-six-months": 0,
  "hsts-implemented-max-age-less-than-six-months": -10,
  "hsts-not-implemented": -20,
  "hsts-header-invalid": -20,
  "hsts-not-implemented-no-https": -20,
  "hsts-invalid-cert": -20,
  "sri-implemented-and-all-scripts-loaded-securely": 5,
  "sri-implemented-and-external-scripts-loaded-securely": 5,
  "sri-not-implemented-response-not-html": 0,
  "sri-not-implemented-but-no-scripts-loaded": 0,
  "sri-not-implemented-but-all-scripts-loaded-from-secure-origin": 0,
  "sri-not-implemented-but-external-scripts-loaded-securely": -5,
  "sri-implemented-but-external-scripts-not-loaded-securely": -20,
  "sri-not-implemented-and-external-scripts-not-loaded-securely": -50,
  "x-content-type-options-nosniff": 0,
  "x-content-type-options-not-implemented": -5,
  "x-content-type-options-header-invalid": -5,
  "x-frame-options-implemented-via-csp": 5,
  "x-frame-options-sameorigin-or-deny": 5,
  "x-frame-options-allow-from-origin": 0,
  "x-frame-options-not-implemented": -20,
  "x-frame-options-header-invalid": -20,
  "corp-header-invalid": -5,
  "corp-implemented-with-cross-origin": 0,
  "corp-implemented-with-same-origin": 10,
  "corp-implemented-with-same-site": 10,
  "corp-not-implemented": 0,
  "coep-implemented-with-require-corp": 10,
  "coep-implemented-with-credentialless": 10,
  "coep-implemented-with-unsafe-none": 0,
  "coep-not-implemented": 0,
  "coep-header-invalid": -5,
  "coop-implemented-with-same-origin": 10,
  "coop-implemented-with-same-origin-allow-popups": 10,
  "coop-implemented-with-noopener-allow-popups": 10,
  "coop-implemented-with-unsafe-none": 0,
  "coop-not-implemented": 0,
  "coop-header-invalid": -5,
  "html-not-parseable": -20,
};

/** Extra credit (positive modifiers) only counts once the penalties alone leave an A (90). */
export const MINIMUM_SCORE_FOR_EXTRA_CREDIT = 90;

/** charts.js GRADE_CHART, by the score rounded down to a multiple of 5 (100 and above: A+). */
export function gradeForScore(raw: number): { score: number; grade: string } {
  const score = Math.max(raw, 0);
  const key = Math.min(score - (score % 5), 100);
  const grades: [number, string][] = [
    [100, "A+"], [90, "A"], [85, "A-"], [80, "B+"], [70, "B"], [65, "B-"], [60, "C+"], [50, "C"],
    [45, "C-"], [40, "D+"], [30, "D"], [25, "D-"], [0, "F"],
  ];
  return { score, grade: grades.find(([min]) => key >= min)![1] };
}

function headerValues(headers: Headers | undefined, name: string): string[] {
  const value = headers?.[name.toLowerCase()];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function result(test: string, name: string, pass: boolean, note?: string): TestResult {
  const modifier = SCORE_MODIFIERS[name];
  if (modifier === undefined) throw new Error(`Unknown Observatory result ${name}`);
  return { test, result: name, modifier, pass, ...(note ? { note } : {}) };
}

// ---------------------------------------------------------------- HTML (script and meta tags)

type Tag = Record<string, string>;

function collectTags(html: string, tagName: string): Tag[] {
  const tags: Tag[] = [];
  for (const match of html.matchAll(new RegExp(`<${tagName}\\b([^>]*)>`, "gi"))) {
    const attributes: Tag = {};
    for (const attr of match[1]!.matchAll(/([^\s=/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
      const name = attr[1]!.toLowerCase();
      if (!(name in attributes)) attributes[name] = decodeEntities(attr[2] ?? attr[3] ?? attr[4] ?? "");
    }
    tags.push(attributes);
  }
  return tags;
}

function decodeEntities(value: string): string {
  return value
    .replaceAll("&quot;", '"')
    .replaceAll("&#x27;", "'")
    .replaceAll("&#39;", "'")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");
}

function isHtml(response: RetrievedResponse): boolean {
  const mime = headerValues(response.headers, "content-type")[0]?.split(";", 1)[0]?.trim() ?? "";
  return mime === "text/html" || mime === "application/xhtml+xml";
}

/** retriever/utils.js parseHttpEquivHeaders: CSP from <meta http-equiv>, Referrer-Policy from <meta name=referrer>. */
function httpEquiv(response: RetrievedResponse): { csp: string[]; referrer: string[] } {
  const equiv = { csp: [] as string[], referrer: [] as string[] };
  if (!isHtml(response)) return equiv;
  for (const meta of collectTags(response.body, "meta")) {
    if ("http-equiv" in meta && "content" in meta) {
      if (meta["http-equiv"]!.toLowerCase().trim() === "content-security-policy" && meta.content) equiv.csp.push(meta.content);
    } else if (meta.name?.toLowerCase().trim() === "referrer" && meta.content) {
      equiv.referrer = [meta.content];
    }
  }
  return equiv;
}

// ---------------------------------------------------------------- CSP

const DANGEROUSLY_BROAD = new Set(["ftp:", "http:", "https:", "*", "http://*", "http://*.*", "https://*", "https://*.*"]);
const UNSAFE_INLINE = new Set(["'unsafe-inline'", "data:"]);
const BROAD_OR_UNSAFE_INLINE = new Set([...DANGEROUSLY_BROAD, ...UNSAFE_INLINE]);
const PASSIVE_DIRECTIVES = ["img-src", "media-src"];
const NONCE_OR_HASH = ["'sha256-", "'sha384-", "'sha512-", "'nonce-"];
const DUPLICATES_ALLOWED = new Set(["report-uri", "report-to"]);

type Csp = { directives: Map<string, Set<string>>; duplicateWarnings: boolean };

/** cspParser.js parseCsp: throws on an unparseable policy or a repeated directive. */
export function parseCsp(policies: string[]): Csp {
  const directives = new Map<string, Set<string>>();
  let duplicateWarnings = false;
  const cleaned = policies.map((policy) => policy.replaceAll(/[\r\n]/g, "").trim());
  cleaned.forEach((policy, index) => {
    if (policy.length < "img-src".length - 1) throw new Error(`Invalid policy: ${policy}`);
    const seen = new Set<string>();
    for (const entry of policy.split(";")) {
      const [rawName, ...rawSources] = entry.trim().split(/\s+/);
      if (!rawName) continue;
      const name = rawName.toLowerCase();
      if (seen.has(name)) {
        if (!DUPLICATES_ALLOWED.has(name)) throw new Error(`Duplicate directive ${name}`);
        duplicateWarnings = true;
        continue;
      }
      seen.add(name);
      let sources = rawSources.map((s) => s.trim().toLocaleLowerCase());
      // A source list with nothing in it means 'none'.
      if (sources.length === 0 && name.endsWith("-src")) sources = ["'none'"];
      if (index > 0) {
        const before = directives.get(name) ?? new Set<string>();
        sources = sources.filter((s) => before.has(s));
      }
      directives.set(name, new Set(sources.length ? sources : ["'none'"]));
    }
  });
  return { directives, duplicateWarnings };
}

type CspAnalysis = { result: TestResult; directives: Map<string, Set<string>> | null };

/** tests/csp.js */
function analyzeCsp(r: Retrieval): CspAnalysis {
  const test = "content-security-policy";
  const expectation = "csp-implemented-with-no-unsafe";
  const response = r.auto;
  if (!response) return { result: result(test, "csp-not-implemented", false), directives: null };

  const split = (list: string[]) => list.flatMap((v) => v.split(",").map((s) => s.trim()));
  const headerPolicies = split(headerValues(response.headers, "content-security-policy"));
  const metaPolicies = split(httpEquiv(response).csp);

  let csp: Csp;
  try {
    csp = parseCsp([...headerPolicies, ...metaPolicies]);
  } catch (error) {
    return { result: result(test, "csp-header-invalid", false, (error as Error).message), directives: null };
  }
  const headerOnly = (() => {
    try {
      return parseCsp(headerPolicies).directives;
    } catch {
      return new Map<string, Set<string>>();
    }
  })();
  const metaOnly = (() => {
    try {
      const parsed = parseCsp(metaPolicies).directives;
      for (const name of ["frame-ancestors", "report-uri", "sandbox"]) parsed.delete(name);
      return parsed;
    } catch {
      return new Map<string, Set<string>>();
    }
  })();
  if (headerOnly.size + metaOnly.size === 0) {
    const reportOnly = headerValues(response.headers, "content-security-policy-report-only").length > 0;
    return { result: result(test, reportOnly ? "csp-not-implemented-but-reporting-enabled" : "csp-not-implemented", false), directives: null };
  }

  const d = csp.directives;
  const copy = (name: string, fallback?: string) => new Set(d.get(name) ?? (fallback ? d.get(fallback) : undefined) ?? ["*"]);
  const objectSrc = copy("object-src", "default-src");
  const scriptSrc = copy("script-src", "default-src");
  const styleSrc = copy("style-src", "default-src");
  const hasNonceOrHash = (list: Set<string>) => [...list].some((s) => NONCE_OR_HASH.some((p) => s.startsWith(p)));
  // A nonce or hash makes browsers ignore 'unsafe-inline' (kept only as a fallback for old ones).
  for (const list of [scriptSrc, styleSrc]) if (hasNonceOrHash(list)) list.delete("'unsafe-inline'");

  let name: string | null = null;
  if (hasNonceOrHash(scriptSrc) && scriptSrc.has("'strict-dynamic'")) {
    for (const source of [...scriptSrc]) {
      if ([...DANGEROUSLY_BROAD].some((b) => source.startsWith(b)) || source === "'self'" || source === "'unsafe-inline'") {
        scriptSrc.delete(source);
      }
    }
  } else if (scriptSrc.has("'strict-dynamic'")) {
    name = "csp-header-invalid";
  }

  const active = [...d].filter(([n]) => !PASSIVE_DIRECTIVES.includes(n) && n !== "script-src").flatMap(([, s]) => [...s]);
  active.push(...scriptSrc);
  const passive = PASSIVE_DIRECTIVES.flatMap((n) => [...(d.get(n) ?? d.get("default-src") ?? [])]);
  const secureSite = r.sessionUrl.protocol === "https:";
  const insecure = (s: string) => s.startsWith("http:") || s.startsWith("ftp:");

  if ([...scriptSrc].some((s) => BROAD_OR_UNSAFE_INLINE.has(s)) || [...objectSrc].some((s) => DANGEROUSLY_BROAD.has(s))) {
    name ??= "csp-implemented-with-unsafe-inline";
  }
  if (secureSite && active.some(insecure)) name ??= "csp-implemented-with-insecure-scheme";
  if (scriptSrc.has("'unsafe-eval'") || styleSrc.has("'unsafe-eval'")) name ??= "csp-implemented-with-unsafe-eval";
  if (secureSite && passive.some(insecure)) name ??= "csp-implemented-with-insecure-scheme-in-passive-content-only";
  if ([...styleSrc].some((s) => BROAD_OR_UNSAFE_INLINE.has(s))) name ??= "csp-implemented-with-unsafe-inline-in-style-src-only";
  const defaultSrc = d.get("default-src");
  name ??= defaultSrc?.has("'none'") && defaultSrc.size === 1 ? "csp-implemented-with-no-unsafe-default-src-none" : expectation;

  const passing = [
    expectation,
    "csp-implemented-with-no-unsafe-default-src-none",
    "csp-implemented-with-unsafe-inline-in-style-src-only",
    "csp-implemented-with-insecure-scheme-in-passive-content-only",
  ];
  const pass = passing.includes(name);
  if (pass && csp.duplicateWarnings) name = "csp-implemented-but-duplicate-directives";
  return { result: result(test, name, pass), directives: d };
}

// ---------------------------------------------------------------- HSTS

/** tests/strict-transport-security.js; 15552000 s is the scanner's "six months". */
function strictTransportSecurity(r: Retrieval): TestResult {
  const test = "strict-transport-security";
  const response = r.https;
  let name = "hsts-not-implemented";
  let note: string | undefined;
  if (!response) name = "hsts-not-implemented-no-https";
  else if (!response.verified) name = "hsts-invalid-cert";
  else {
    const header = headerValues(response.headers, "strict-transport-security")[0];
    if (header !== undefined) {
      note = header;
      let maxAge: number | null = null;
      const data = header.slice(0, 1024);
      if (data.includes(",")) name = "hsts-header-invalid";
      else {
        for (const part of data.split(";").map((p) => p.trim().toLowerCase())) {
          if (part.startsWith("max-age=")) maxAge = Number.parseInt(part.slice(8, 128), 10);
        }
        if (maxAge === null) name = "hsts-header-invalid";
        else name = maxAge < 15_552_000 ? "hsts-implemented-max-age-less-than-six-months" : "hsts-implemented-max-age-at-least-six-months";
      }
    }
  }
  return result(test, name, ["hsts-implemented-max-age-at-least-six-months", "hsts-preloaded"].includes(name), note);
}

// ---------------------------------------------------------------- Cookies

/** "Worse" means later in this list (utils.js onlyIfWorse with the cookie test's order). */
const COOKIE_BADNESS = [
  "cookies-without-secure-flag-but-protected-by-hsts",
  "cookies-without-secure-flag",
  "cookies-session-without-secure-flag-but-protected-by-hsts",
  "cookies-samesite-flag-invalid",
  "cookies-anticsrf-without-samesite-flag",
  "cookies-session-without-httponly-flag",
  "cookies-session-without-secure-flag",
];

function worse(next: string, current: string | null, order: string[]): string {
  return current === null || order.indexOf(next) > order.indexOf(current) ? next : current;
}

function invalidSameSite(raw: string): boolean {
  for (const part of raw.trim().split(";")) {
    const [key, value] = part.trim().split("=");
    if (key?.trim().toLowerCase() === "samesite") {
      if (!value || !["lax", "strict", "none"].includes(value.trim().toLowerCase())) return true;
    }
  }
  return false;
}

/** tests/cookies.js; a "session" cookie is one whose name contains "login" or "sess". */
function cookies(r: Retrieval): TestResult {
  const test = "cookies";
  const hsts = strictTransportSecurity(r).pass;
  let name: string | null = null;
  for (const raw of headerValues(r.auto?.headers, "set-cookie")) {
    if (invalidSameSite(raw)) name = worse("cookies-samesite-flag-invalid", name, COOKIE_BADNESS);
  }
  const jar = r.cookies.filter((c) => c.key && c.key !== "heroku-session-affinity");
  if (jar.length === 0) name = "cookies-not-found";
  else {
    let missingSameSite = false;
    for (const cookie of jar) {
      const key = cookie.key.toLowerCase();
      const session = key.includes("login") || key.includes("sess");
      const antiCsrf = key.includes("csrf");
      if (!cookie.secure && cookie.sameSite?.toLowerCase() === "none") name = worse("cookies-samesite-flag-invalid", name, COOKIE_BADNESS);
      if (!cookie.secure) {
        name = worse(hsts ? "cookies-without-secure-flag-but-protected-by-hsts" : "cookies-without-secure-flag", name, COOKIE_BADNESS);
      }
      if (antiCsrf && !cookie.sameSite) name = worse("cookies-anticsrf-without-samesite-flag", name, COOKIE_BADNESS);
      if (session && !cookie.secure) {
        name = worse(hsts ? "cookies-session-without-secure-flag-but-protected-by-hsts" : "cookies-session-without-secure-flag", name, COOKIE_BADNESS);
      }
      if (session && !cookie.httpOnly) name = worse("cookies-session-without-httponly-flag", name, COOKIE_BADNESS);
      if (!cookie.sameSite) missingSameSite = true;
    }
    name ??= missingSameSite ? "cookies-secure-with-httponly-sessions" : "cookies-secure-with-httponly-sessions-and-samesite";
  }
  const passing = ["cookies-not-found", "cookies-secure-with-httponly-sessions-and-samesite", "cookies-secure-with-httponly-sessions"];
  return result(test, name, passing.includes(name), jar.map((c) => c.key).join(", ") || undefined);
}

// ---------------------------------------------------------------- Cross-origin headers

/** utils.js parseStructuredFieldToken: the value must be a bare token (parameters allowed). */
function structuredToken(value: string): string | null {
  const match = /^([A-Za-z*][A-Za-z0-9:/!#$%&'*+\-.^_`|~]*)\s*(;.*)?$/.exec(value.trim());
  return match ? match[1]! : null;
}

/** tests/cross-origin-opener-policy.js and cross-origin-embedder-policy.js share one shape. */
function tokenPolicy(r: Retrieval, header: string, test: string, prefix: string, known: string[]): TestResult {
  const values = headerValues(r.auto?.headers, header);
  let name = `${prefix}-not-implemented`;
  if (values.length > 1) name = `${prefix}-header-invalid`;
  else if (values[0]) {
    const token = structuredToken(values[0].slice(0, 1024));
    name = token && known.includes(token) ? `${prefix}-implemented-with-${token}` : `${prefix}-header-invalid`;
  }
  return result(test, name, name !== `${prefix}-header-invalid`);
}

/** tests/cross-origin-resource-policy.js (headers only: CORP is not read from meta tags we send). */
function crossOriginResourcePolicy(r: Retrieval): TestResult {
  const test = "cross-origin-resource-policy";
  const value = headerValues(r.auto?.headers, "cross-origin-resource-policy").join(", ").slice(0, 256).trim().toLowerCase();
  const names: Record<string, string> = {
    "same-site": "corp-implemented-with-same-site",
    "same-origin": "corp-implemented-with-same-origin",
    "cross-origin": "corp-implemented-with-cross-origin",
  };
  const name = value ? (names[value] ?? "corp-header-invalid") : "corp-not-implemented";
  return result(test, name, name !== "corp-header-invalid");
}

/** tests/cors.js: the preflight's Access-Control-Allow-Origin (+ credentials) answer. */
function cors(r: Retrieval): TestResult {
  const test = "cross-origin-resource-sharing";
  const acao = headerValues(r.cors?.headers, "access-control-allow-origin")[0];
  let name = "cross-origin-resource-sharing-not-implemented";
  if (r.cors && acao) {
    const credentials = headerValues(r.cors.headers, "access-control-allow-credentials")[0];
    if (acao.slice(0, 256).trim().toLowerCase() === "*") name = "cross-origin-resource-sharing-implemented-with-public-access";
    else if (r.cors.requestOrigin === acao && credentials?.toLowerCase().trim() === "true") {
      name = "cross-origin-resource-sharing-implemented-with-universal-access";
    } else name = "cross-origin-resource-sharing-implemented-with-restricted-access";
  }
  return result(test, name, name !== "cross-origin-resource-sharing-implemented-with-universal-access", acao);
}

// ---------------------------------------------------------------- Redirection

/** tests/redirection.js (no preload list here, so "all redirects preloaded" needs an empty route). */
function redirection(r: Retrieval): TestResult {
  const test = "redirection";
  const route = r.httpRedirects;
  let name: string;
  if (!r.http) name = "redirection-not-needed-no-http";
  else if (!r.http.verified) name = "redirection-invalid-cert";
  else if (route.length === 0) name = "redirection-all-redirects-preloaded";
  else if (route.length === 1) name = "redirection-missing";
  else if (route.at(-1)!.url.protocol !== "https:") name = "redirection-not-to-https";
  else if (route[1]!.url.protocol === "http:") name = "redirection-not-to-https-on-initial-redirection";
  else if (route[0]!.url.protocol === "http:" && route[1]!.url.protocol === "https:" && route[0]!.url.hostname !== route[1]!.url.hostname) {
    name = "redirection-off-host-from-http";
  } else name = "redirection-to-https";
  const passing = ["redirection-not-needed-no-http", "redirection-all-redirects-preloaded", "redirection-to-https"];
  return result(test, name, passing.includes(name), route.map((hop) => `${hop.status} ${hop.url.href}`).join(" → "));
}

// ---------------------------------------------------------------- Referrer-Policy

/** tests/referrer-policy.js: the last recognised value of header and meta tag together wins. */
function referrerPolicy(r: Retrieval): TestResult {
  const test = "referrer-policy";
  const good = ["no-referrer", "same-origin", "strict-origin", "strict-origin-when-cross-origin"];
  const bad = ["origin", "origin-when-cross-origin", "unsafe-url", "no-referrer-when-downgrade"];
  if (!r.auto) return result(test, "referrer-policy-not-implemented", false);
  const values = [...headerValues(r.auto.headers, "referrer-policy"), ...httpEquiv(r.auto).referrer];
  if (values.length === 0) return result(test, "referrer-policy-not-implemented", true);
  const policy =
    values
      .join(", ")
      .split(",")
      .map((v) => v.trim().toLowerCase())
      .filter((v) => good.includes(v) || bad.includes(v))
      .at(-1) ?? "";
  const name = good.includes(policy) ? "referrer-policy-private" : bad.includes(policy) ? "referrer-policy-unsafe" : "referrer-policy-header-invalid";
  return result(test, name, name === "referrer-policy-private", policy);
}

// ---------------------------------------------------------------- Subresource Integrity

const SRI_BADNESS = [
  "sri-implemented-and-all-scripts-loaded-securely",
  "sri-implemented-and-external-scripts-loaded-securely",
  "sri-implemented-but-external-scripts-not-loaded-securely",
  "sri-not-implemented-but-external-scripts-loaded-securely",
  "sri-not-implemented-and-external-scripts-not-loaded-securely",
  "sri-not-implemented-response-not-html",
];

const secondLevel = (hostname: string) => hostname.split(".").slice(-2).join(".");

/** tests/subresource-integrity.js */
function subresourceIntegrity(r: Retrieval): TestResult {
  const test = "subresource-integrity";
  const response = r.auto;
  if (!response) return result(test, "sri-not-implemented-but-no-scripts-loaded", false);
  let name: string | null = null;
  const mime = headerValues(response.headers, "content-type")[0]?.split(";", 1)[0] ?? "";
  if (mime && !isHtml(response)) name = "sri-not-implemented-response-not-html";
  else {
    const scripts = collectTags(response.body, "script");
    let foreign = false;
    for (const script of scripts) {
      const src = script.src;
      if (!src) continue;
      const integrity = script.integrity || null;
      const protocolRelative = /^(\/\/)[^/]/.test(src);
      const fullUrl = /^https?:\/\//.test(src);
      const relative = !protocolRelative && !fullUrl;
      const sameDomain = protocolRelative || relative || secondLevel(new URL(src).hostname) === secondLevel(r.hostname);
      const secureOrigin = relative || (sameDomain && !protocolRelative);
      if (!secureOrigin) foreign = true;
      const scheme = !protocolRelative && !relative ? new URL(src).protocol : null;
      const secureScheme = scheme === "https:" || (relative && r.sessionUrl.protocol === "https:");
      if (!secureOrigin) {
        if (integrity && !secureScheme) name = worse("sri-implemented-but-external-scripts-not-loaded-securely", name, SRI_BADNESS);
        else if (!integrity && secureScheme) name = worse("sri-not-implemented-but-external-scripts-loaded-securely", name, SRI_BADNESS);
        else if (!integrity && !secureScheme) name = worse("sri-not-implemented-and-external-scripts-not-loaded-securely", name, SRI_BADNESS);
      } else if (integrity && secureScheme && !name) {
        name = "sri-implemented-and-all-scripts-loaded-securely";
      }
    }
    if (scripts.length === 0) name = "sri-not-implemented-but-no-scripts-loaded";
    else name ??= foreign ? "sri-implemented-and-external-scripts-loaded-securely" : "sri-not-implemented-but-all-scripts-loaded-from-secure-origin";
  }
  const passing = [
    "sri-implemented-and-all-scripts-loaded-securely",
    "sri-implemented-and-external-scripts-loaded-securely",
    "sri-not-implemented-response-not-html",
    "sri-not-implemented-but-all-scripts-loaded-from-secure-origin",
    "sri-not-implemented-but-no-scripts-loaded",
  ];
  return result(test, name, passing.includes(name));
}

// ---------------------------------------------------------------- X-Content-Type-Options, X-Frame-Options

/** tests/x-content-type-options.js */
function xContentTypeOptions(r: Retrieval): TestResult {
  const test = "x-content-type-options";
  const value = headerValues(r.auto?.headers, "x-content-type-options")[0];
  if (!value) return result(test, "x-content-type-options-not-implemented", false);
  const ok = value.slice(0, 256).trim().toLowerCase() === "nosniff";
  return result(test, ok ? "x-content-type-options-nosniff" : "x-content-type-options-header-invalid", ok);
}

/** tests/x-frame-options.js: a CSP frame-ancestors directive replaces the header. */
function xFrameOptions(r: Retrieval, csp: CspAnalysis): TestResult {
  const test = "x-frame-options";
  if (!r.auto) return result(test, "x-frame-options-not-implemented", false);
  const value = headerValues(r.auto.headers, "x-frame-options")[0]?.slice(0, 1024).trim().toLowerCase();
  let name = "x-frame-options-not-implemented";
  if (value) {
    if (value === "deny" || value === "sameorigin") name = "x-frame-options-sameorigin-or-deny";
    else if (value.startsWith("allow-from")) name = "x-frame-options-allow-from-origin";
    else name = "x-frame-options-header-invalid";
  }
  if (csp.directives?.has("frame-ancestors")) name = "x-frame-options-implemented-via-csp";
  const passing = ["x-frame-options-allow-from-origin", "x-frame-options-sameorigin-or-deny", "x-frame-options-implemented-via-csp"];
  return result(test, name, passing.includes(name));
}

// ---------------------------------------------------------------- Score

/** scanner/index.js analyzeScan: 100, plus every modifier; bonuses only when penalties leave ≥ 90. */
export function scoreRetrieval(r: Retrieval): Score {
  if (!r.auto) throw new Error("The site seems to be down.");
  const status = r.auto.status;
  if (status < 200 || (status >= 400 && ![401, 403].includes(status))) {
    throw new Error(`Site did respond with an unexpected HTTP status code ${status}.`);
  }
  const csp = analyzeCsp(r);
  const tests = [
    csp.result,
    cookies(r),
    tokenPolicy(r, "cross-origin-embedder-policy", "cross-origin-embedder-policy", "coep", ["require-corp", "credentialless", "unsafe-none"]),
    tokenPolicy(r, "cross-origin-opener-policy", "cross-origin-opener-policy", "coop", [
      "same-origin",
      "same-origin-allow-popups",
      "noopener-allow-popups",
      "unsafe-none",
    ]),
    cors(r),
    redirection(r),
    referrerPolicy(r),
    strictTransportSecurity(r),
    subresourceIntegrity(r),
    xContentTypeOptions(r),
    xFrameOptions(r, csp),
    crossOriginResourcePolicy(r),
  ];
  const withExtraCredit = 100 + tests.reduce((sum, t) => sum + t.modifier, 0);
  const uncurved = 100 + tests.reduce((sum, t) => sum + Math.min(t.modifier, 0), 0);
  return { ...gradeForScore(uncurved >= MINIMUM_SCORE_FOR_EXTRA_CREDIT ? withExtraCredit : uncurved), tests };
}

/** One line per test, for failure messages. */
export function formatScore(label: string, score: Score): string {
  const lines = score.tests.map((t) => `  ${t.modifier >= 0 ? "+" : ""}${t.modifier}\t${t.test}: ${t.result}${t.note ? ` (${t.note})` : ""}`);
  return `${label}: ${score.score} (${score.grade})\n${lines.join("\n")}`;
}
