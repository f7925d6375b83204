import { execFileSync } from "node:child_process";
import fs from "node:fs";

/** Shared pieces of the benchmarks: server memory sampling, percentiles, child processes. */

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

/** Applicants are made as the end-to-end tests make them. */
export { signUpOverHttp } from "../tests/helpers/applicants";

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
