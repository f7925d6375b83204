import { solveChallenge, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import type { SmtpSink } from "../tests/helpers/smtp-sink";

/** Shared pieces of the benchmarks: server memory sampling, account creation over HTTP. */

export type Figure = { name: string; value: number; unit: string; note?: string };
export type BenchResult = { bench: string; figures: Figure[]; params: Record<string, unknown> };

/** Samples a process's resident memory; VmHWM is the kernel's own peak since start. */
export function memorySampler(pid: number, everyMs = 50) {
  let peakRss = 0;
  const read = () => {
    try {
      const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
      const rss = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
      peakRss = Math.max(peakRss, rss);
      return { rss, hwm: Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024 };
    } catch {
      return { rss: 0, hwm: 0 };
    }
  };
  const baseline = read();
  const timer = setInterval(read, everyMs);
  return {
    baseline,
    stop: () => {
      clearInterval(timer);
      const last = read();
      return { peakRss: Math.max(peakRss, last.rss), hwm: last.hwm, baselineRss: baseline.rss };
    },
  };
}

export const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/** Signs up one applicant the way a browser does (mailed code, solved ALTCHA); returns the cookie. */
export async function signUpOverHttp(base: string, sink: SmtpSink, email: string, ip: string, fullName = "Bench Applicant"): Promise<string> {
  const headers = { origin: base, "x-forwarded-for": ip };
  await fetch(`${base}/auth`, { method: "POST", body: new URLSearchParams({ intent: "send-code", email }), headers, redirect: "manual" });
  let code: string | undefined;
  const deadline = Date.now() + 20_000;
  while (!code && Date.now() < deadline) {
    code = sink.messages.find((m) => m.to.includes(email))?.text.match(/\b(\d{6})\b/)?.[1];
    if (!code) await new Promise((r) => setTimeout(r, 50));
  }
  if (!code) throw new Error(`no code for ${email}`);
  const challenge = (await (await fetch(`${base}/api/captcha/challenge`)).json()) as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey, timeout: 30_000 });
  const captcha = Buffer.from(JSON.stringify({ challenge: { parameters: challenge.parameters, signature: challenge.signature }, solution })).toString("base64");
  const res = await fetch(`${base}/auth`, {
    method: "POST",
    body: new URLSearchParams({ intent: "sign-up", fullName, email, code, password: "Str0ng!Passw0rd", captcha }),
    headers,
    redirect: "manual",
  });
  if (res.status !== 302) throw new Error(`sign-up failed for ${email}: ${res.status}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .filter((c): c is string => Boolean(c?.includes("session_token")))
    .join("; ");
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** The direct children of a process (the server processes under a WEB_CONCURRENCY supervisor). */
export function childPids(pid: number): number[] {
  try {
    return execFileSync("pgrep", ["-P", String(pid)], { encoding: "utf8" }).trim().split("\n").filter(Boolean).map(Number);
  } catch {
    return []; // pgrep exits 1 when there are none
  }
}
