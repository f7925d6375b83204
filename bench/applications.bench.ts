import { randomUUID } from "node:crypto";
import { startSmtpSink } from "../tests/helpers/smtp-sink";
import { makeJpeg, makePdf, makePng } from "../tests/helpers/files";
import { startTestServer } from "../tests/e2e/harness";
import { validFields } from "../tests/helpers/applications";
import { mb, memorySampler, percentile, signUpOverHttp, type BenchResult } from "./lib";

/**
 * Application submissions: seven 1 MB documents plus a signature each, from 10 applicants at once,
 * against the built server. Reports submissions per second, latency and the server's peak memory.
 */

const APPLICANTS = 10;
const PER_APPLICANT = Number(process.env.BENCH_SUBMISSIONS_PER_APPLICANT ?? 5);
const FILE_BYTES = 1024 * 1024;

function body(idempotencyKey: string): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(validFields)) form.append(k, v);
  form.append("idempotencyKey", idempotencyKey);
  const files: [string, Buffer, string, string][] = [
    ["idCardFront", makeJpeg(FILE_BYTES), "front.jpg", "image/jpeg"],
    ["idCardBack", makeJpeg(FILE_BYTES), "back.jpg", "image/jpeg"],
    ["bankStatement1", makePdf(FILE_BYTES), "s1.pdf", "application/pdf"],
    ["bankStatement2", makePdf(FILE_BYTES), "s2.pdf", "application/pdf"],
    ["bankStatement3", makePdf(FILE_BYTES), "s3.pdf", "application/pdf"],
    ["utilityBill", makePdf(FILE_BYTES), "bill.pdf", "application/pdf"],
    ["collateralDocs", makePdf(FILE_BYTES), "deed.pdf", "application/pdf"],
    ["signature", makePng(200, 60), "signature.png", "image/png"],
  ];
  for (const [field, bytes, name, type] of files) form.append(field, new Blob([new Uint8Array(bytes)], { type }), name);
  return form;
}

export async function applicationsBench(env: Record<string, string> = {}): Promise<BenchResult> {
  const sink = await startSmtpSink();
  const server = await startTestServer({ SMTP_URL: sink.url, PWNED_PASSWORDS_URL: "off", TRUST_PROXY: "true", ...env });
  try {
    const cookies: string[] = [];
    for (let i = 0; i < APPLICANTS; i++) {
      cookies.push(await signUpOverHttp(server.url, sink, `bench${i}-${Date.now()}@example.com`, `198.18.0.${i + 1}`));
    }
    const sampler = memorySampler(server.process.pid!);
    const latencies: number[] = [];
    let failures = 0;
    const started = performance.now();
    await Promise.all(
      cookies.map(async (cookie, i) => {
        for (let n = 0; n < PER_APPLICANT; n++) {
          const t0 = performance.now();
          const res = await fetch(`${server.url}/api/applications`, {
            method: "POST",
            body: body(randomUUID()),
            headers: { cookie, origin: server.url, "x-forwarded-for": `198.18.0.${i + 1}` },
          });
          await res.arrayBuffer();
          latencies.push(performance.now() - t0);
          if (res.status !== 201) failures++;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const memory = sampler.stop();
    latencies.sort((a, b) => a - b);
    const total = APPLICANTS * PER_APPLICANT;
    return {
      bench: "application submissions",
      params: { applicants: APPLICANTS, submissions: total, filesPerSubmission: 7, fileMB: 1, database: env.DATABASE_URL ? "postgres" : "pglite" },
      figures: [
        { name: "submissions per second", value: Math.round((total / seconds) * 100) / 100, unit: "/s" },
        { name: "latency p50", value: Math.round(percentile(latencies, 50)), unit: "ms" },
        { name: "latency p99", value: Math.round(percentile(latencies, 99)), unit: "ms" },
        { name: "failed submissions", value: failures, unit: "" },
        { name: "server peak RSS", value: mb(Math.max(memory.peakRss, memory.hwm)), unit: "MB", note: "goal < 300 MB" },
        { name: "server RSS before", value: mb(memory.baselineRss), unit: "MB" },
      ],
    };
  } finally {
    await server.stop();
    await sink.close();
  }
}
