import http from "node:http";
import https from "node:https";
import type { Cookie, Headers, Retrieval, RetrievedResponse } from "./observatory";

/**
 * Collects what the MDN HTTP Observatory's retriever collects (src/retriever/retriever.js and
 * session.js at the commit named in observatory.ts): an http:// and an https:// session on the same
 * host and path, each following up to 10 redirects by hand and recording them, a cookie jar filled
 * by the https session, and a CORS preflight on the final URL. Certificates are verified against
 * `ca` (our test certificate stands in for a public one); on a certificate error a session starts
 * over without verification and its responses count as unverified, as the scanner's do.
 */

const ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
const CORS_ORIGIN = "https://http-observatory.security.mozilla.org";
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 10;

type Target = { hostname: string; httpPort: number; httpsPort: number; path: string; ca: string | Buffer };

type Fetched = { status: number; headers: Headers; body: string };

function request(url: URL, method: string, headers: Record<string, string>, tls: { ca: string | Buffer; verify: boolean }): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const options = { method, headers, timeout: 20_000 };
    const onResponse = (res: http.IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    };
    const req =
      url.protocol === "https:"
        ? https.request(url, { ...options, ca: tls.ca, rejectUnauthorized: tls.verify }, onResponse)
        : http.request(url, options, onResponse);
    req.on("timeout", () => req.destroy(new Error(`timeout: ${url.href}`)));
    req.on("error", reject);
    req.end();
  });
}

/** The subset of tough-cookie's parsing the cookie test reads; a later cookie replaces one of the same name and path. */
function parseSetCookie(raw: string): Cookie & { path: string } {
  const [pair = "", ...attributes] = raw.split(";");
  const cookie = { key: pair.split("=")[0]!.trim(), secure: false, httpOnly: false, sameSite: undefined as string | undefined, path: "/" };
  for (const attribute of attributes) {
    const [name = "", value = ""] = attribute.split("=").map((s) => s.trim());
    const lower = name.toLowerCase();
    if (lower === "secure") cookie.secure = true;
    else if (lower === "httponly") cookie.httpOnly = true;
    else if (lower === "path" && value.startsWith("/")) cookie.path = value;
    else if (lower === "samesite" && ["strict", "lax", "none"].includes(value.toLowerCase())) cookie.sameSite = value.toLowerCase();
  }
  return cookie;
}

type Session = { start: URL; final: RetrievedResponse | null; redirects: { url: URL; status: number }[]; cookies: Map<string, Cookie> };

const CERT_ERROR = /CERT|SELF_SIGNED|UNABLE_TO_|HOSTNAME_MISMATCH|ALTNAME/;

async function runSession(start: URL, ca: string | Buffer, verify = true): Promise<Session> {
  const session: Session = { start, final: null, redirects: [], cookies: new Map() };
  let url = start;
  try {
    for (let hop = 0; ; hop++) {
      const response = await request(url, "GET", { Accept: ACCEPT, "User-Agent": "observatory-rules-test" }, { ca, verify });
      session.redirects.push({ url, status: response.status });
      const setCookie = response.headers["set-cookie"];
      for (const raw of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) {
        const { path, ...cookie } = parseSetCookie(raw);
        session.cookies.set(`${cookie.key};${path}`, cookie);
      }
      const location = response.headers.location;
      if (hop < MAX_REDIRECTS && REDIRECT_STATUSES.has(response.status) && typeof location === "string") {
        url = new URL(location, url);
        continue;
      }
      session.final = { url, ...response, verified: verify };
      return session;
    }
  } catch (error) {
    const code = String((error as NodeJS.ErrnoException).code ?? "");
    if (verify && CERT_ERROR.test(code)) return runSession(start, ca, false);
    return { ...session, final: null };
  }
}

export async function retrieve(target: Target): Promise<Retrieval> {
  const httpUrl = new URL(`http://${target.hostname}:${target.httpPort}${target.path}`);
  const httpsUrl = new URL(`https://${target.hostname}:${target.httpsPort}${target.path}`);
  const [httpSession, httpsSession] = await Promise.all([runSession(httpUrl, target.ca), runSession(httpsUrl, target.ca)]);
  const auto = httpsSession.final ? httpsSession : httpSession;

  let cors: Retrieval["cors"];
  const finalUrl = auto.redirects.at(-1)?.url ?? auto.start;
  try {
    const preflight = await request(
      finalUrl,
      "OPTIONS",
      { "Access-Control-Request-Method": "GET", Origin: CORS_ORIGIN },
      { ca: target.ca, verify: auto.final?.verified ?? true },
    );
    cors = { headers: preflight.headers, requestOrigin: CORS_ORIGIN };
  } catch {
    cors = null;
  }

  return {
    hostname: target.hostname,
    auto: auto.final,
    sessionUrl: auto.start,
    http: httpSession.final,
    https: httpsSession.final,
    httpRedirects: httpSession.redirects,
    cookies: [...auto.cookies.values()],
    cors,
  };
}
