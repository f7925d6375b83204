import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadBalancerConfig } from "../../bench/nginx";

/**
 * The scale bench's load balancer (decision 0045): what the app needs from a proxy in front of it —
 * HTTP/1.1 keep-alive to the instances (closed by nginx before the app's own 5 s timeout), the client's
 * address and scheme for TRUST_PROXY, and an unbuffered live-update stream — and nginx accepts it.
 */

const nginx = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((file) => fs.existsSync(file));

describe("the scale bench's nginx load balancer", () => {
  const config = loadBalancerConfig(["127.0.0.1:4001", "127.0.0.1:4002"], 8080);

  it("balances both instances over kept-alive HTTP/1.1 connections and forwards who is asking", () => {
    expect(config).toMatch(/server 127\.0\.0\.1:4001;\s+server 127\.0\.0\.1:4002;/);
    expect(config).toMatch(/keepalive 64;/);
    expect(config).toMatch(/keepalive_timeout 4s;/);
    expect(config).toMatch(/proxy_http_version 1\.1;/);
    expect(config).toMatch(/proxy_set_header Connection "";/);
    expect(config).toMatch(/proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;/);
    expect(config).toMatch(/proxy_set_header X-Forwarded-Proto \$scheme;/);
    expect(config).toMatch(/location = \/api\/events \{[^}]*proxy_buffering off;/);
  });

  it.skipIf(!nginx)("is a configuration nginx accepts", () => {
    const prefix = fs.mkdtempSync(path.join(os.tmpdir(), "nginx-config-test-"));
    try {
      fs.mkdirSync(path.join(prefix, "logs"));
      const conf = path.join(prefix, "nginx.conf");
      fs.writeFileSync(conf, `pid ${prefix}/nginx.pid;\nerror_log ${prefix}/logs/error.log;\nevents {}\nhttp {\n  proxy_temp_path ${prefix}/tmp-proxy;\n  client_body_temp_path ${prefix}/tmp-body;\n${config}\n}\n`);
      expect(() => execFileSync(nginx!, ["-t", "-p", prefix, "-c", conf], { stdio: "pipe" })).not.toThrow();
    } finally {
      fs.rmSync(prefix, { recursive: true, force: true });
    }
  });
});
