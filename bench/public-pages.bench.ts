import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startTestServer } from "../tests/e2e/harness";
import { PUBLIC_PAGES } from "~/content/seo";
import type { BenchResult } from "./lib";
import { ensureTools, startNginx } from "./nginx";

/**
 * Public pages at 50 connections (wrk, from Debian's packages, one thread as in issue 24):
 * - every page of the sitemap answered from the public page cache, each against a bare node:http server
 *   (bench/bare-server.mjs) sending the same status, headers and bytes from memory: what Node itself can
 *   do with that page on this machine. Goal: the app at 90 % or more of it, p99 < 10 ms.
 * - the home page rendered on every request (PAGE_CACHE_SECONDS=0), and nginx serving the home page's
 *   bytes as a file, for scale.
 * The two servers of a pair are measured one after the other, alternating pages, so a drift of the
 * machine's speed touches both alike.
 */

const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_PUBLIC_SECONDS ?? 10);
/** BENCH_PUBLIC_PAGES=/,/about limits the run to some pages (default: the whole sitemap). */
const ONLY_PAGES = process.env.BENCH_PUBLIC_PAGES?.split(",").filter(Boolean);

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

function runWrk(wrk: string, url: string, seconds: number, threads = 2): WrkFigures {
  const output = execFileSync(wrk, [`-t${threads}`, `-c${CONNECTIONS}`, `-d${seconds}s`, "--latency", url], { encoding: "utf8" });
  return parseWrk(output);
}

/** A bare node:http server (its own process, like the app) answering with one recorded response. */
async function startBareServer(recorded: { headers: Record<string, string>; body: Buffer }): Promise<{ url: string; stop: () => Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-bare-"));
  const file = path.join(dir, "response.json");
  fs.writeFileSync(file, JSON.stringify({ headers: recorded.headers, body: recorded.body.toString("base64") }));
  const child = spawn(process.execPath, [path.join(import.meta.dirname, "bare-server.mjs"), file], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once("error", reject);
    child.stdout!.once("data", (d: Buffer) => resolve(Number(d.toString().trim())));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** What the cache sends for a page to a client like wrk (no cookies, no Accept-Encoding). */
async function recordPage(url: string): Promise<{ headers: Record<string, string>; body: Buffer }> {
  const res = await fetch(url, { headers: { "accept-encoding": "identity" } });
  if (res.status !== 200 || res.headers.get("x-page-cache") !== "hit") throw new Error(`${url} was not served from the page cache (${res.status})`);
  const body = Buffer.from(await res.arrayBuffer());
  // fetch joins repeated headers and drops none that matter here; Date and Keep-Alive are the server's own.
  const headers = Object.fromEntries([...res.headers].filter(([name]) => !["date", "connection", "keep-alive", "transfer-encoding"].includes(name)));
  return { headers, body };
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
  const pages = (ONLY_PAGES ?? PUBLIC_PAGES.map((page) => page.path));
  const htmlFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "bench-home-")), "index.html");
  const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

  const cached = await startTestServer({ TRANSITION_MS: "0" });
  const perPage: { path: string; kb: number; app: WrkFigures; bare: WrkFigures }[] = [];
  let app: WrkFigures | undefined;
  let htmlBytes = 0;
  try {
    for (const pagePath of pages) {
      const recorded = await recordPage(`${cached.url}${pagePath}`);
      if (pagePath === "/") {
        htmlBytes = recorded.body.length;
        fs.writeFileSync(htmlFile, recorded.body);
      }
      const bare = await startBareServer(recorded);
      try {
        runWrk(wrk, `${cached.url}${pagePath}`, 2, 1); // warm-up: JIT, sockets
        const appRun = runWrk(wrk, `${cached.url}${pagePath}`, SECONDS, 1);
        runWrk(wrk, `${bare.url}${pagePath}`, 2, 1);
        const bareRun = runWrk(wrk, `${bare.url}${pagePath}`, SECONDS, 1);
        perPage.push({ path: pagePath, kb: round(recorded.body.length / 1024), app: appRun, bare: bareRun });
        if (pagePath === "/") app = appRun;
        console.log(`  ${pagePath}: ${Math.round(appRun.rps)}/s (p99 ${round(appRun.p99, 2)} ms) vs bare ${Math.round(bareRun.rps)}/s: ${round((appRun.rps / bareRun.rps) * 100)} %`);
      } finally {
        await bare.stop();
      }
    }
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

  let reference: WrkFigures | undefined;
  if (htmlBytes > 0) {
    const server = await startStaticNginx(htmlFile);
    try {
      runWrk(wrk, server.url, 2, 1);
      reference = runWrk(wrk, server.url, SECONDS, 1);
    } finally {
      await server.stop();
    }
  }
  fs.rmSync(path.dirname(htmlFile), { recursive: true, force: true });

  const ratios = perPage.map((p) => p.app.rps / p.bare.rps);
  const worst = perPage[ratios.indexOf(Math.min(...ratios))];
  const worstP99 = Math.max(...perPage.map((p) => p.app.p99));
  return {
    bench: "public pages (every sitemap page from the page cache, plain HTML)",
    params: { connections: CONNECTIONS, seconds: SECONDS, loadGenerator: "wrk -t1", pages: perPage.length, homeHtmlKB: round(htmlBytes / 1024), nginxWorkers: "auto" },
    figures: [
      ...perPage.flatMap((p) => [
        { name: `${p.path} requests/s`, value: Math.round(p.app.rps), unit: "/s", note: `${p.kb} KB; bare node:http ${Math.round(p.bare.rps)}/s (p99 ${round(p.bare.p99, 2)} ms)` },
        { name: `${p.path} ÷ bare node:http`, value: round((p.app.rps / p.bare.rps) * 100), unit: "%", note: `p99 ${round(p.app.p99, 2)} ms; ${p.app.errors} errors; goal ≥ 90 %, p99 < 10 ms` },
      ]),
      ...(worst ? [{ name: "lowest page ÷ bare node:http", value: round(Math.min(...ratios) * 100), unit: "%", note: `${worst.path}; goal ≥ 90 %` }] : []),
      { name: "highest page p99", value: round(worstP99, 2), unit: "ms", note: "goal < 10 ms" },
      ...(app && reference
        ? [
            { name: "nginx serving the home page as a file requests/s", value: Math.round(reference.rps), unit: "/s", note: `p99 ${round(reference.p99, 2)} ms, worker_processes auto` },
            { name: "home page app ÷ nginx", value: round((app.rps / reference.rps) * 100), unit: "%" },
          ]
        : []),
      { name: "home page rendered on every request requests/s", value: Math.round(rendered.rps), unit: "/s", note: `PAGE_CACHE_SECONDS=0, wrk -t2; p99 ${round(rendered.p99)} ms; ${rendered.errors} failed` },
    ],
  };
}
