import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/** nginx and wrk from Debian's packages, and an nginx on a loopback port (public-pages and scale benches). */

function which(command: string): string | null {
  try {
    return execFileSync("sh", ["-c", `command -v ${command}`], { encoding: "utf8" }).trim() || null;
  } catch {
    return null;
  }
}

/** Installed here when missing (the bench runs as root in CI). */
export function ensureTools(commands: ("nginx" | "wrk")[] = ["nginx", "wrk"]): { nginx: string; wrk: string } {
  const packages: Record<string, string> = { nginx: "nginx-light", wrk: "wrk" };
  const missing = commands.filter((command) => !which(command) && !fs.existsSync(`/usr/sbin/${command}`));
  if (missing.length) {
    console.log(`  installing ${missing.map((c) => packages[c]).join(", ")} from Debian's packages...`);
    execFileSync("apt-get", ["install", "-y", ...missing.map((c) => packages[c]!)], { stdio: "ignore" });
  }
  return { nginx: which("nginx") ?? "/usr/sbin/nginx", wrk: which("wrk") ?? "/usr/bin/wrk" };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Temp folders nginx writes to, under its prefix (never the system's /var/lib/nginx). */
const tempPaths = (prefix: string) =>
  ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((kind) => `  ${kind}_temp_path ${prefix}/tmp-${kind};`).join("\n");

/**
 * Runs nginx in the foreground with `http` as its http block; resolves when `probePath` answers
 * (any status but a 502/504: nginx itself is up and reaches what it serves).
 */
export async function startNginx(body: (prefix: string, port: number) => string, probePath = "/"): Promise<{ url: string; prefix: string; stop: () => Promise<void> }> {
  const { nginx } = ensureTools(["nginx"]);
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), "bench-nginx-"));
  fs.chmodSync(prefix, 0o755);
  fs.mkdirSync(path.join(prefix, "logs"));
  const port = await freePort();
  const conf = path.join(prefix, "nginx.conf");
  fs.writeFileSync(
    conf,
    `worker_processes auto;
pid ${prefix}/nginx.pid;
error_log ${prefix}/logs/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
${tempPaths(prefix)}
${body(prefix, port)}
}
`,
  );
  const child = spawn(nginx, ["-p", prefix, "-c", conf, "-g", "daemon off;"], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      const res = await fetch(`${url}${probePath}`, { redirect: "manual" });
      await res.arrayBuffer();
      if (res.status !== 502 && res.status !== 504) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`nginx did not start:\n${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    prefix,
    stop: async () => {
      const errors = fs.readFileSync(path.join(prefix, "logs", "error.log"), "utf8").trim().split("\n").filter(Boolean);
      if (errors.length) console.log(`  nginx's error log (${errors.length} lines), the last:\n    ${errors.slice(-3).join("\n    ")}`);
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGQUIT");
        await exited;
      }
      fs.rmSync(prefix, { recursive: true, force: true });
    },
  };
}

/**
 * nginx balancing the app's instances (issue 24 part 5, decision 0045): HTTP/1.1 with keep-alive
 * connections to the upstreams, the client's address and scheme in X-Forwarded-For/-Proto (the app
 * runs with TRUST_PROXY and takes the right-most address), and no buffering for the live-update stream.
 *
 * One line is for the bench only: set_real_ip_from/real_ip_header make nginx take the client address
 * from the load generator's X-Forwarded-For (each simulated user has its own, as the sign-in throttle
 * is per address). In production that line belongs only behind another trusted proxy (a CDN).
 */
export function loadBalancerConfig(upstreams: string[], port: number): string {
  return `  upstream portal {
    least_conn;
${upstreams.map((host) => `    server ${host};`).join("\n")}
    keepalive 64;
    # Under the app's own keep-alive timeout (5 s, server/app.ts): nginx drops an idle connection
    # first, never sending a request down one the app is closing at that moment (a 502).
    keepalive_timeout 4s;
  }
  set_real_ip_from 127.0.0.1;
  real_ip_header X-Forwarded-For;
  server {
    listen 127.0.0.1:${port};
    client_max_body_size 30m;
    proxy_http_version 1.1;
    proxy_set_header Connection "";
    proxy_set_header Host $http_host;
    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    proxy_set_header X-Forwarded-Proto $scheme;
    location / {
      proxy_pass http://portal;
    }
    # Server-sent events (text/event-stream): every event goes out as it comes, and the stream stays open.
    location = /api/events {
      proxy_pass http://portal;
      proxy_buffering off;
      proxy_cache off;
      proxy_read_timeout 1h;
    }
  }`;
}

export function startLoadBalancer(upstreams: string[]) {
  return startNginx((_prefix, port) => loadBalancerConfig(upstreams, port), "/healthz");
}
