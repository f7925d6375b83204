// npm run bench: runs every benchmark against the built server, prints a table and writes
// bench-results/latest.json. Figures are measurements on this machine, not pass/fail tests.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { applicationsBench } from "./applications.bench";
import { dataExportBench } from "./data-export.bench";
import { eventsBench } from "./events.bench";
import { exportsBench } from "./exports.bench";
import { publicPagesBench } from "./public-pages.bench";
import { sanctionsBench } from "./sanctions.bench";
import { scaleBench } from "./scale.bench";
import type { BenchResult } from "./lib";
import { lighthouseBench } from "./lighthouse.bench";
import { pageCostBench } from "./page-cost.bench";
import { pageWeightBench } from "./page-weight.bench";
import { signedInBench } from "./signed-in.bench";

const root = path.resolve(import.meta.dirname, "..");
const only = process.argv.slice(2);

// A PostgreSQL server for the benches that compare databases: BENCH_DATABASE_URL, else the local one.
const serverUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
async function withScratchDatabase<T>(fn: (url: string) => Promise<T>): Promise<T> {
  process.env.TEST_DATABASE_URL = serverUrl;
  const { createScratchPostgresDatabase } = await import("../tests/helpers/test-db");
  const scratch = await createScratchPostgresDatabase();
  try {
    return await fn(scratch.url);
  } finally {
    await scratch.drop();
  }
}

const benches: { name: string; run: () => Promise<BenchResult>; byNameOnly?: boolean }[] = [
  { name: "applications", run: () => applicationsBench() },
  { name: "applications-postgres", run: () => withScratchDatabase((url) => applicationsBench({ DATABASE_URL: url })) },
  { name: "events", run: () => withScratchDatabase((url) => eventsBench(url)) },
  { name: "page-weight", run: () => pageWeightBench() },
  { name: "lighthouse", run: () => lighthouseBench() },
  { name: "public-pages", run: () => publicPagesBench() },
  { name: "signed-in", run: () => withScratchDatabase((url) => signedInBench(url)) },
  { name: "exports", run: () => withScratchDatabase((url) => exportsBench(url)) },
  { name: "data-export", run: () => dataExportBench() },
  { name: "sanctions", run: () => sanctionsBench() },
  // Not in a plain `npm run bench` (a million applications take minutes to seed): by name only.
  { name: "scale", run: () => withScratchDatabase((url) => scaleBench(url, { single: true, nginx: process.env.BENCH_SCALE_NGINX === "1" })), byNameOnly: true },
  { name: "page-cost", run: () => withScratchDatabase((url) => pageCostBench(url)), byNameOnly: true },
  { name: "scale-nginx", run: () => withScratchDatabase((url) => scaleBench(url, { single: false, nginx: true })), byNameOnly: true },
];

if (process.env.BENCH_SKIP_BUILD !== "1") {
  console.log("Building the production bundle...");
  execFileSync("npx", ["react-router", "build"], { cwd: root, stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, NODE_ENV: "production" } });
}

const results: Record<string, BenchResult & { date: string }> = {};
for (const bench of benches) {
  if (only.length ? !only.includes(bench.name) : bench.byNameOnly) continue;
  console.log(`\n▶ ${bench.name}`);
  const result = await bench.run();
  results[bench.name] = { ...result, date: new Date().toISOString() };
  console.log(`  ${JSON.stringify(result.params)}`);
  console.table(Object.fromEntries(result.figures.map((f) => [f.name, { value: f.value, unit: f.unit, note: f.note ?? "" }])));
}

// Benches run one at a time (`npm run bench events`) update their own entry and keep the others.
const file = path.join(root, "bench-results", "latest.json");
const previous = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as { results?: Record<string, unknown> }) : {};
const machine = { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, memoryGB: Math.round(os.totalmem() / 2 ** 30), node: process.version };
const out = { date: new Date().toISOString(), machine, results: { ...(previous.results && !Array.isArray(previous.results) ? previous.results : {}), ...results } };
fs.mkdirSync(path.dirname(file), { recursive: true });
fs.writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
console.log(`\nWrote bench-results/latest.json (${out.date}, ${machine.cpus} cores, ${machine.memoryGB} GB).`);
process.exit(0);
