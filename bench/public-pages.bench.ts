import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startTestServer } from "../tests/e2e/harness";
import type { BenchResult } from "./lib";
import { ensureTools, startNginx } from "./nginx";

/**
 * The home page at 50 connections: our server answering from the public page cache, the same server
 * rendering every request (PAGE_CACHE_SECONDS=0), and nginx serving the same HTML bytes as a file —
 * all on this machine, measured with the same load generator (wrk, from Debian's packages).
 */

const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_PUBLIC_SECONDS ?? 10);

type WrkFigures = { rps: number; p50: number; p99: number; errors: number; requests: number };

function toMs(value: string): number {
  const match = /^([\d.]+)(us|ms|s)$/.exec(value.trim());
  if (!match) return Number.NaN;
  const n = Number(match[1]);
  return match[2] === "us" ? n / 1000 : match[2] === "s" ? n * 1000 : n;
}

/** wrk's own summary: requests/s, the latency distribution (--latency) and non-2xx answers. */
export function parseWrk(output: string): WrkFigures {
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1]);
  const p50 = toMs(/^\s+50%\s+(\S+)/m.exec(output)?.[1] ?? "");
  const p99 = toMs(/^\s+99%\s+(\S+)/m.exec(output)?.[1] ?? "");
  const requests = Number(/(\d+) requests in/.exec(output)?.[1] ?? 0);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(output)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  const socketErrors = socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  if (!Number.isFinite(rps) || !Number.isFinite(p99)) throw new Error(`Could not read wrk's output:\n${output}`);
  return { rps, p50, p99, requests, errors: non2xx + socketErrors };
}

function runWrk(wrk: string, url: string, seconds: number): WrkFigures {
  const output = execFileSync(wrk, ["-t2", `-c${CONNECTIONS}`, `-d${seconds}s`, "--latency", url], { encoding: "utf8" });
  return parseWrk(output);
}

/** nginx serving the same HTML bytes as a static file. */
async function startStaticNginx(htmlFile: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const server = await startNginx((prefix, port) => {
    fs.mkdirSync(path.join(prefix, "html"));
    fs.copyFileSync(htmlFile, path.join(prefix, "html", "index.html"));
    fs.chmodSync(path.join(prefix, "html", "index.html"), 0o644);
    return `  types { text/html html; }
  default_type application/octet-stream;
  sendfile on;
  tcp_nopush on;
  keepalive_timeout 5s;
  server {
    listen 127.0.0.1:${port};
    root ${prefix}/html;
    index index.html;
  }`;
  });
  return { url: `${server.url}/`, stop: server.stop };
}

export async function publicPagesBench(): Promise<BenchResult> {
  const { wrk } = ensureTools();
  const htmlFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "bench-home-")), "index.html");

  const cached = await startTestServer({ TRANSITION_MS: "0" });
  let app: WrkFigures;
  let htmlBytes: number;
  try {
    const res = await fetch(`${cached.url}/`);
    if (res.headers.get("x-page-cache") !== "hit") throw new Error("the home page was not served from the page cache");
    const html = Buffer.from(await res.arrayBuffer());
    htmlBytes = html.length;
    fs.writeFileSync(htmlFile, html);
    runWrk(wrk, `${cached.url}/`, 2); // warm-up: JIT, sockets
    app = runWrk(wrk, `${cached.url}/`, SECONDS);
  } finally {
    await cached.stop();
  }

  const rendering = await startTestServer({ TRANSITION_MS: "0", PAGE_CACHE_SECONDS: "0" });
  let rendered: WrkFigures;
  try {
    runWrk(wrk, `${rendering.url}/`, 2);
    rendered = runWrk(wrk, `${rendering.url}/`, SECONDS);
  } finally {
    await rendering.stop();
  }

  const server = await startStaticNginx(htmlFile);
  let reference: WrkFigures;
  try {
    runWrk(wrk, server.url, 2);
    reference = runWrk(wrk, server.url, SECONDS);
  } finally {
    await server.stop();
    fs.rmSync(path.dirname(htmlFile), { recursive: true, force: true });
  }

  const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
  return {
    bench: "public pages (home page, plain HTML)",
    params: { connections: CONNECTIONS, seconds: SECONDS, loadGenerator: "wrk -t2", htmlKB: round(htmlBytes / 1024), nginxWorkers: "auto" },
    figures: [
      { name: "app (page cache) requests/s", value: Math.round(app.rps), unit: "/s" },
      { name: "app (page cache) latency p99", value: round(app.p99), unit: "ms", note: "goal < 50 ms" },
      { name: "nginx (same file) requests/s", value: Math.round(reference.rps), unit: "/s" },
      { name: "nginx latency p99", value: round(reference.p99), unit: "ms" },
      { name: "app / nginx", value: round((app.rps / reference.rps) * 100), unit: "%", note: "goal ≥ 25 %" },
      { name: "app (rendering each request) requests/s", value: Math.round(rendered.rps), unit: "/s", note: "PAGE_CACHE_SECONDS=0" },
      { name: "app (rendering each request) latency p99", value: round(rendered.p99), unit: "ms" },
      { name: "app (page cache) failed requests", value: app.errors, unit: "", note: "non-2xx or socket errors" },
      { name: "app (rendering each request) failed requests", value: rendered.errors, unit: "", note: "wrk gives up after 2 s" },
    ],
  };
}
