import type { Db } from "~/server/db/client.server";
import { expireOffers } from "./offer-decisions.server";

/**
 * The offer expiry run inside the server process (issue 20), shaped like the retention job
 * (server/retention/daily-job.server.ts): once shortly after start-up, then every 15 minutes. Every
 * instance schedules it; no lock is needed because the expiry is one conditional UPDATE whose row
 * locks decide (expireOffers): two instances at once expire, and announce, each offer once. A failed
 * run is logged and tried again at the next interval (its transaction rolled back whole).
 */

export type OfferExpiryJob = { stop: () => Promise<void> };

export const OFFER_EXPIRY_INTERVAL_MS = 15 * 60 * 1000;
/** Shortly after start-up: migrations and the first requests come first. */
export const OFFER_EXPIRY_FIRST_RUN_DELAY_MS = 60 * 1000;

export function startOfferExpiryJob(options: {
  db: Db;
  log: (line: string) => void;
  intervalMs?: number;
  firstRunDelayMs?: number;
  now?: () => Date;
}): OfferExpiryJob {
  const interval = options.intervalMs ?? OFFER_EXPIRY_INTERVAL_MS;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  const run = () => {
    running = expireOffers(options.db, options.now?.() ?? new Date())
      .then(
        (result) => {
          if (result.expired > 0) options.log(`[offers] expired ${result.expired} offer(s), ${result.counteroffers} of them counteroffers (Reg B notices queued)`);
        },
        (error: unknown) => options.log(`[offers] expiry run failed, next try in ${Math.round(interval / 60_000)} min: ${(error as Error).message}`),
      )
      .finally(() => {
        running = undefined;
        schedule(interval);
      });
  };
  const schedule = (delay: number) => {
    if (stopped) return;
    timer = setTimeout(run, delay);
    // The schedule alone must not keep a process alive (scripts, tests).
    timer.unref();
  };
  schedule(options.firstRunDelayMs ?? OFFER_EXPIRY_FIRST_RUN_DELAY_MS);

  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      // A run in flight commits (or rolls back) before the database closes.
      await running;
    },
  };
}
