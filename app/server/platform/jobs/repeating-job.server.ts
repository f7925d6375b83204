/**
 * A job the server process runs on a timer: once after a first delay, then again each interval after
 * the previous run ended (runs never overlap). A failed run is logged and tried again at the next
 * interval. The timer never keeps a process alive (scripts, tests), and stop() tells a run in flight
 * to stop (its signal) and waits for it, so its transaction ends before the database closes. Every instance schedules its own; what
 * keeps the work from being done twice is the job's own (a lock or a conditional UPDATE).
 */

export type RepeatingJob = { stop: () => Promise<void> };

export function startRepeatingJob<T>(options: {
  /** One run; what it resolves to is handed to onDone. The signal is aborted by stop(): a long run stops between its batches. */
  run: (signal: AbortSignal) => Promise<T>;
  onDone: (result: T) => void;
  /** Told of a failed run with the delay before the next try. */
  onError: (error: Error, nextInMs: number) => void;
  intervalMs: number;
  firstRunDelayMs: number;
}): RepeatingJob {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const stopping = new AbortController();

  const run = () => {
    running = Promise.resolve()
      .then(() => options.run(stopping.signal))
      .then(options.onDone, (error: unknown) => options.onError(error instanceof Error ? error : new Error(String(error)), options.intervalMs))
      .finally(() => {
        running = undefined;
        schedule(options.intervalMs);
      });
  };
  const schedule = (delay: number) => {
    if (stopped) return;
    timer = setTimeout(run, delay);
    timer.unref();
  };
  schedule(options.firstRunDelayMs);

  return {
    stop: async () => {
      stopped = true;
      stopping.abort();
      clearTimeout(timer);
      await running;
    },
  };
}
