import { solveChallenge, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { SmtpSink } from "../helpers/smtp-sink";
import type { TestServer } from "./harness";
import { ipSequence, startServerWithMail, stopStack } from "./helpers/stack";

/**
 * The account flows over real HTTP against the built server: codes read from a real SMTP server,
 * ALTCHA challenges solved like the browser widget does, a local fake of the breached-password API.
 */

const BREACHED = "Breached!Pass1";
let pwnedDown = false;
function startFakePwned(): Promise<{ url: string; close: () => Promise<void>; prefixes: string[] }> {
  const prefixes: string[] = [];
  const server = http.createServer((req, res) => {
    const prefix = req.url!.split("/").pop()!;
    prefixes.push(`${prefix} padding=${req.headers["add-padding"]}`);
    if (pwnedDown) {
      res.statusCode = 503;
      res.end();
      return;
    }
    const sha = createHash("sha1").update(BREACHED).digest("hex").toUpperCase();
    const lines = ["0018A45C4D1DEF81644B54AB7F969B88D65:0"];
    if (sha.startsWith(prefix)) lines.push(`${sha.slice(5)}:4242`);
    res.end(lines.join("\r\n"));
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/range/`,
        prefixes,
        close: () => new Promise((r) => server.close(() => r())),
      }),
    ),
  );
}

class Client {
  cookies = new Map<string, string>();
  constructor(
    private base: string,
    private ip: string,
  ) {}
  private cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
  private keep(res: Response) {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const [name, ...rest] = pair!.split("=");
      const value = rest.join("=");
      if (/max-age=0|expires=Thu, 01 Jan 1970/i.test(c) || value === "") this.cookies.delete(name!);
      else this.cookies.set(name!, value);
    }
  }
  async get(path: string) {
    const res = await fetch(this.base + path, {
      redirect: "manual",
      headers: { cookie: this.cookieHeader(), "x-forwarded-for": this.ip },
    });
    this.keep(res);
    return res;
  }
  async post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
    const res = await fetch(this.base + path, {
      method: "POST",
      redirect: "manual",
      body: new URLSearchParams(fields),
      headers: { cookie: this.cookieHeader(), origin: this.base, "x-forwarded-for": this.ip, ...headers },
    });
    this.keep(res);
    return { res, text: await res.text() };
  }
  async captcha(): Promise<string> {
    const challenge = (await (await this.get("/api/captcha/challenge")).json()) as Challenge;
    const solution = await solveChallenge({ challenge, deriveKey, timeout: 30_000 });
    return Buffer.from(
      JSON.stringify({ challenge: { parameters: challenge.parameters, signature: challenge.signature }, solution }),
    ).toString("base64");
  }
  /** Posts the sign-up form with a freshly solved captcha; the password is a strong one unless given. */
  async signUp(form: { fullName: string; email: string; code: string; password?: string }) {
    const { fullName, email, code, password = "Str0ng!Passw0rd" } = form;
    return this.post("/auth", { intent: "sign-up", fullName, email, code, password, captcha: await this.captcha() });
  }
  /** Posts the sign-in form with a freshly solved captcha. */
  async signIn(email: string, password: string) {
    return this.post("/auth", { intent: "sign-in", email, password, captcha: await this.captcha() });
  }
  signedIn() {
    return [...this.cookies.keys()].some((k) => k.includes("session_token"));
  }
}

const newIp = ipSequence(10);

describe("accounts over HTTP", () => {
  let sink: SmtpSink;
  let pwned: Awaited<ReturnType<typeof startFakePwned>>;
  let server: TestServer;

  beforeAll(async () => {
    pwned = await startFakePwned();
    ({ sink, server } = await startServerWithMail({ PWNED_PASSWORDS_URL: pwned.url, TRUST_PROXY: "true" }));
  });
  afterAll(async () => {
    await stopStack({ sink, server });
    await pwned?.close();
  });
  beforeEach(() => {
    pwnedDown = false;
  });

  async function codeFor(email: string): Promise<string> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const mail = [...sink.messages].reverse().find((m) => m.to.includes(email) && /\b\d{6}\b/.test(m.text));
      if (mail) return /\b(\d{6})\b/.exec(mail.text)![1]!;
      if (Date.now() > deadline) throw new Error(`no code mailed to ${email}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Asks for a sign-up code for `email` and waits for it in the mail. */
  async function sendCode(client: Client, email: string): Promise<string> {
    await client.post("/auth", { intent: "send-code", email });
    return codeFor(email);
  }

  async function signUp(client: Client, email: string, password = "Str0ng!Passw0rd") {
    const sent = await client.post("/auth", { intent: "send-code", email });
    expect(sent.res.status).toBe(200);
    const code = await codeFor(email.toLowerCase());
    return client.signUp({ fullName: "Jane Applicant", email, code, password });
  }

  it("signs up with a mailed code and a solved captcha, then is signed in", async () => {
    const client = new Client(server.url, newIp());
    const { res } = await signUp(client, "Jane.Doe@Example.com");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/dashboard");
    expect(client.signedIn()).toBe(true);
    const cookie = res.headers.getSetCookie().find((c) => c.includes("session_token"))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    // The code e-mail went to the lowercased address and holds no other personal data.
    expect(sink.messages.some((m) => m.to.includes("jane.doe@example.com"))).toBe(true);
    // Signed in: /auth sends to the dashboard.
    expect((await client.get("/auth")).headers.get("location")).toBe("/dashboard");
  });

  it("refuses a sign-up whose code was never sent, a wrong code, and a reused code", async () => {
    const client = new Client(server.url, newIp());
    const noCode = await client.signUp({ fullName: "No Code", email: "nocode@example.com", code: "123456" });
    expect(noCode.res.status).toBe(400);
    expect(noCode.text).toContain("The verification code is invalid or has expired");
    expect(client.signedIn()).toBe(false);

    const code = await sendCode(client, "reuse@example.com");
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
    const bad = await client.signUp({ fullName: "Re Use", email: "reuse@example.com", code: wrong });
    expect(bad.res.status).toBe(400);
    expect(bad.text).toContain("Invalid Code");

    const good = await client.signUp({ fullName: "Re Use", email: "reuse@example.com", code });
    expect(good.res.status).toBe(302);

    const other = new Client(server.url, newIp());
    const again = await other.signUp({ fullName: "Re Use", email: "reuse@example.com", code });
    expect(again.res.status).toBe(400);
    expect(other.signedIn()).toBe(false);
  });

  it("a code verified for one address cannot create an account for another", async () => {
    const attacker = new Client(server.url, newIp());
    const code = await sendCode(attacker, "attacker@example.com");
    const takeover = await attacker.signUp({ fullName: "Mallory", email: "victim@example.com", code });
    expect(takeover.res.status).toBe(400);
    expect(takeover.text).toContain("The verification code is invalid or has expired");
  });

  it("locks a code after 5 wrong tries, even if the right one comes next", async () => {
    const client = new Client(server.url, newIp());
    const code = await sendCode(client, "brute@example.com");
    for (let i = 0; i < 5; i++) {
      const wrong = String((Number(code) + 1 + i) % 1_000_000).padStart(6, "0");
      const r = await client.signUp({ fullName: "Brute", email: "brute@example.com", code: wrong });
      expect(r.res.status).toBe(400);
    }
    const right = await client.signUp({ fullName: "Brute", email: "brute@example.com", code });
    expect(right.res.status).toBe(400);
    expect(right.text).toContain("The verification code is invalid or has expired");
  });

  it("allows 3 code sends per address per 10 minutes, then answers 429", async () => {
    const client = new Client(server.url, newIp());
    for (let i = 0; i < 3; i++) expect((await client.post("/auth", { intent: "send-code", email: "many@example.com" })).res.status).toBe(200);
    const fourth = await client.post("/auth", { intent: "send-code", email: "many@example.com" });
    expect(fourth.res.status).toBe(429);
    expect(fourth.text).toContain("Too many attempts");
  });

  it("enforces the password rules on the server, with the spec's message", async () => {
    const client = new Client(server.url, newIp());
    const code = await sendCode(client, "weak@example.com");
    const r = await client.signUp({ fullName: "Weak", email: "weak@example.com", code, password: "alllowercase1!" });
    expect(r.res.status).toBe(400);
    expect(r.text).toContain("Password must include uppercase, lowercase, number, and special character");
  });

  it("refuses a breached password with its count; accepts the password when the range API is down", async () => {
    const client = new Client(server.url, newIp());
    const breached = await signUp(client, "breached@example.com", BREACHED);
    expect(breached.res.status).toBe(400);
    expect(breached.text).toContain("Compromised Password");
    expect(breached.text).toContain("4,242");
    // Only the 5-character prefix left the server, with the padding header.
    expect(pwned.prefixes.at(-1)).toMatch(/^[0-9A-F]{5} padding=true$/);

    pwnedDown = true;
    const accepted = await signUp(new Client(server.url, newIp()), "down@example.com", BREACHED);
    expect(accepted.res.status).toBe(302);
  });

  it("requires a solved captcha, once", async () => {
    const client = new Client(server.url, newIp());
    const missing = await client.post("/auth", { intent: "sign-in", email: "jane.doe@example.com", password: "Str0ng!Passw0rd" });
    expect(missing.res.status).toBe(400);
    expect(missing.text).toContain("Please complete the reCAPTCHA verification");
    const token = await client.captcha();
    const first = await client.post("/auth", { intent: "sign-in", email: "jane.doe@example.com", password: "Str0ng!Passw0rd", captcha: token });
    expect(first.res.status).toBe(302);
    const replay = await new Client(server.url, newIp()).post("/auth", {
      intent: "sign-in",
      email: "jane.doe@example.com",
      password: "Str0ng!Passw0rd",
      captcha: token,
    });
    expect(replay.res.status).toBe(400);
    expect(replay.text).toContain("Please try the reCAPTCHA again");
  });

  it("signs in with a neutral failure message, and signs out on the server", async () => {
    const client = new Client(server.url, newIp());
    const wrong = await client.signIn("jane.doe@example.com", "Wrong!Passw0rd");
    const unknown = await client.signIn("nobody@example.com", "Wrong!Passw0rd");
    expect(wrong.res.status).toBe(401);
    expect(unknown.res.status).toBe(401);
    expect(wrong.text).toContain("Invalid email or password");
    expect(unknown.text).toContain("Invalid email or password");

    const ok = await client.signIn("JANE.DOE@example.com", "Str0ng!Passw0rd");
    expect(ok.res.status).toBe(302);
    const stolen = new Map(client.cookies);
    const out = await client.post("/auth/sign-out", {});
    expect(out.res.status).toBe(302);
    expect(out.res.headers.get("location")).toBe("/");
    // The old cookie no longer opens a session: it was revoked on the server, not just forgotten.
    const replayer = new Client(server.url, newIp());
    replayer.cookies = stolen;
    expect((await replayer.get("/auth")).status).toBe(200);
  });

  it("throttles sign-in per account and address (429) after the captcha; captcha-less posts count nothing against the account", async () => {
    // Issue 16: eleven captcha-less posts from anywhere used to lock the account for its owner too.
    for (let i = 0; i < 11; i++) {
      const client = new Client(server.url, newIp());
      const r = await client.post("/auth", { intent: "sign-in", email: "target@example.com", password: "Wrong!Passw0rd", captcha: "x" });
      expect(r.res.status).toBe(400);
    }
    const guesser = new Client(server.url, newIp());
    let last: Awaited<ReturnType<Client["post"]>> | undefined;
    for (let i = 0; i < 11; i++) {
      last = await guesser.signIn("target@example.com", "Wrong!Passw0rd");
    }
    expect(last!.res.status).toBe(429);
    expect(last!.text).toContain("Too many attempts");
  });

  it("refuses cross-origin posts to our actions", async () => {
    const client = new Client(server.url, newIp());
    // React Router refuses a foreign Origin itself (400); our own check backs it up (403), e.g. for a
    // browser that reports the request as cross-site.
    const r = await client.post("/auth", { intent: "send-code", email: "csrf@example.com" }, { origin: "https://evil.example" });
    expect([400, 403]).toContain(r.res.status);
    const crossSite = await client.post("/auth", { intent: "send-code", email: "csrf@example.com" }, { "sec-fetch-site": "cross-site" });
    expect(crossSite.res.status).toBe(403);
    const out = await client.post("/auth/sign-out", {}, { origin: "https://evil.example" });
    expect([400, 403]).toContain(out.res.status);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(sink.messages.some((m) => m.to.includes("csrf@example.com"))).toBe(false);
  });

  it("resets a password with a single-use link that ends other sessions", async () => {
    const owner = new Client(server.url, newIp());
    await signUp(owner, "reset.me@example.com");
    expect(owner.signedIn()).toBe(true);

    const requester = new Client(server.url, newIp());
    const unknown = await requester.post("/auth", { intent: "reset-request", email: "ghost@example.com", captcha: await requester.captcha() });
    const known = await requester.post("/auth", { intent: "reset-request", email: "reset.me@example.com", captcha: await requester.captcha() });
    expect(unknown.res.status).toBe(200);
    expect(known.res.status).toBe(200);
    expect(unknown.text).toContain("Password Reset Email Sent");
    expect(known.text).toContain("Password Reset Email Sent");

    const deadline = Date.now() + 15_000;
    let link: string | undefined;
    while (!link && Date.now() < deadline) {
      link = sink.messages.find((m) => m.to.includes("reset.me@example.com") && m.text.includes("#type=recovery"))?.text.match(/(https?:\/\/\S+#type=recovery&token=[^\s]+)/)?.[1];
      if (!link) await new Promise((r) => setTimeout(r, 100));
    }
    expect(link).toBeTruthy();
    expect(sink.messages.some((m) => m.to.includes("ghost@example.com"))).toBe(false);
    const token = decodeURIComponent(new URL(link!).hash.match(/token=([^&]+)/)![1]!);

    const mismatch = await requester.post("/auth", { intent: "reset-password", token, password: "N3w!Password", confirmPassword: "Other!Pass1" });
    expect(mismatch.res.status).toBe(400);
    expect(mismatch.text).toMatch(/Passwords Don(&#x27;|'|\\u0027)t Match/);

    // Opening the link asks whether it can be used; asking twice does not spend it.
    const check = (value: string) => requester.post("/auth.data", { intent: "check-reset-link", token: value });
    for (let i = 0; i < 2; i++) {
      const valid = await check(token);
      expect(valid.res.status).toBe(200);
      expect(valid.text).not.toContain("already been used");
    }

    const reset = await requester.post("/auth", { intent: "reset-password", token, password: "N3w!Password", confirmPassword: "N3w!Password" });
    expect(reset.res.status).toBe(302);

    // A used link and one that never existed get the very same answer: nothing tells them apart.
    const used = await check(token);
    const unknownLink = await check(token.replace(/.$/, (c) => (c === "a" ? "b" : "a")));
    expect(used.res.status).toBe(400);
    expect(used.text).toContain("This reset link has already been used or has expired.");
    expect(unknownLink.res.status).toBe(used.res.status);
    expect(unknownLink.text).toBe(used.text);
    expect(reset.res.headers.get("location")).toBe("/auth");

    const reused = await requester.post("/auth", { intent: "reset-password", token, password: "An0ther!Pass", confirmPassword: "An0ther!Pass" });
    expect(reused.res.status).toBe(400);
    expect(reused.text).toContain("Password Update Failed");

    // The owner's earlier session ended with the reset.
    expect((await owner.get("/auth")).status).toBe(200);
    const again = new Client(server.url, newIp());
    const signIn = await again.signIn("reset.me@example.com", "N3w!Password");
    expect(signIn.res.status).toBe(302);
  });
});
