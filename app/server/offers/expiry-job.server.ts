import { startRepeatingJob, type JobStartOptions, type RepeatingJob } from "~/server/platform/jobs/repeating-job.server";
import { expireOffers } from "./offer-decisions.server";

/**
 * The offer expiry run inside the server process: once shortly after start-up, then every
 * 15 minutes (server/platform/jobs/repeating-job.server.ts). Every
 * instance schedules it; no lock is needed because the expiry is one conditional UPDATE whose row
 * locks decide (expireOffers): two instances at once expire, and announce, each offer once. A failed
 * run is logged and tried again at the next interval (its transaction rolled back whole).
 */

export type OfferExpiryJob = RepeatingJob;

export const OFFER_EXPIRY_INTERVAL_MS = 15 * 60 * 1000;
/** Shortly after start-up: migrations and the first requests come first. */
export const OFFER_EXPIRY_FIRST_RUN_DELAY_MS = 60 * 1000;

export function startOfferExpiryJob(options: JobStartOptions): OfferExpiryJob {
  return startRepeatingJob({
    run: () => expireOffers(options.db, options.now?.() ?? new Date()),
    onDone: (result) => {
      if (result.expired > 0) options.log(`[offers] expired ${result.expired} offer(s), ${result.counteroffers} of them counteroffers (Reg B notices queued)`);
    },
    onError: (error, next) => options.log(`[offers] expiry run failed, next try in ${Math.round(next / 60_000)} min: ${error.message}`),
    intervalMs: options.intervalMs ?? OFFER_EXPIRY_INTERVAL_MS,
    firstRunDelayMs: options.firstRunDelayMs ?? OFFER_EXPIRY_FIRST_RUN_DELAY_MS,
    record: { db: options.db, job: "offer-expiry" },
  });
}
