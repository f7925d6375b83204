import { ensureAdmin } from "~/server/auth/admins.server";
import { loadConfig, setConfig } from "~/server/config.server";
import { openDatabase } from "~/server/db/client.server";
import { approveApplication } from "~/server/reviews.server";
import { openEventStream } from "../tests/e2e/helpers/sse";
import { startTestServer, testSecrets } from "../tests/e2e/harness";
import { startSmtpSink } from "../tests/helpers/smtp-sink";
import { submitApplication } from "../tests/helpers/applications";
import { mb, memorySampler, percentile, signUpOverHttp, type BenchResult } from "./lib";

/**
 * Live-update fan-out: 500 open event streams on one instance (PostgreSQL), the memory they cost,
 * and the time from a committed change (an approval) to the last stream receiving it.
 */

const STREAMS = Number(process.env.BENCH_STREAMS ?? 500);

export async function eventsBench(databaseUrl: string): Promise<BenchResult> {
  const sink = await startSmtpSink();
  const secrets = testSecrets();
  const server = await startTestServer({ ...secrets, DATABASE_URL: databaseUrl, SMTP_URL: sink.url, PWNED_PASSWORDS_URL: "off", TRUST_PROXY: "true" });
  setConfig(loadConfig({ ...secrets, DATA_DIR: server.dataDir, DATABASE_URL: databaseUrl }));
  const db = await openDatabase({ databaseUrl, poolSize: 2 });
  try {
    const cookie = await signUpOverHttp(server.url, sink, "streams@example.com", "198.18.3.1");
    const applicationId = await submitApplication(server.url, cookie);
    const { userId } = await ensureAdmin(db, { email: "bench.admin@example.com", password: "Adm1n!Secret", name: "Bench Admin" });

    const before = memorySampler(server.process.pid!);
    const baseline = before.stop().baselineRss;
    const streams = [];
    for (let i = 0; i < STREAMS; i += 50) {
      const batch = await Promise.all(Array.from({ length: Math.min(50, STREAMS - i) }, () => openEventStream(`${server.url}/api/events`, cookie)));
      streams.push(...batch);
    }
    await Promise.all(streams.map((s) => s.waitFor((e) => e.event === "ready", 30_000)));
    await new Promise((r) => setTimeout(r, 1000));
    const withStreams = memorySampler(server.process.pid!).stop().baselineRss;

    const started = Date.now();
    await approveApplication(applicationId, { approvedAmount: 40_000, interestRate: 9, termMonths: 48, counterofferReasons: ["Insufficient income"] }, { id: userId, name: "Bench Admin", email: "bench.admin@example.com" }, {}, db.db);
    const arrivals = await Promise.all(
      streams.map((s) => s.waitFor((e) => e.event === "change" && e.data.includes('"approved"'), 30_000).then((e) => e.at - started)),
    );
    arrivals.sort((a, b) => a - b);
    await Promise.all(streams.map((s) => s.close()));
    return {
      bench: "live-update fan-out",
      params: { streams: STREAMS, database: "postgres", users: 1 },
      figures: [
        { name: "server RSS idle", value: mb(baseline), unit: "MB" },
        { name: "server RSS with streams", value: mb(withStreams), unit: "MB" },
        { name: "memory per stream", value: Math.round((withStreams - baseline) / STREAMS / 1024), unit: "KB" },
        { name: "change to first stream", value: arrivals[0]!, unit: "ms" },
        { name: "change to p50 stream", value: percentile(arrivals, 50), unit: "ms" },
        { name: "change to last stream", value: arrivals.at(-1)!, unit: "ms" },
      ],
    };
  } finally {
    await db.close();
    await server.stop();
    await sink.close();
  }
}
