import cluster from "node:cluster";

/**
 * WEB_CONCURRENCY > 1: this process only supervises; each worker is a whole server (its own database
 * pool, mail worker, live-update listener and page cache) sharing the port through node:cluster.
 * Server-side rendering is CPU work on one thread, so one process per core is how a machine's cores
 * all serve pages. Everything the workers share already lives in PostgreSQL, as between machines.
 */
export function superviseWorkers(count: number, log: (line: string) => void = console.log): void {
  let stopping = false;
  let everListening = false;
  const listening = new Set<number>();

  const fork = () => cluster.fork();
  const alive = () => Object.values(cluster.workers ?? {}).filter(Boolean).length;

  cluster.on("listening", (worker) => {
    listening.add(worker.id);
    if (!everListening && listening.size === count) {
      everListening = true;
      log(`[cluster] ${count} server processes are serving (supervisor pid ${process.pid})`);
    }
  });
  cluster.on("exit", (worker, code, signal) => {
    const wasServing = listening.delete(worker.id);
    if (stopping) {
      if (alive() === 0) process.exit(0);
      return;
    }
    if (!wasServing) {
      // It never got as far as listening (bad configuration, database unreachable): forking again
      // would only repeat that, so stop with the worker's own message already printed.
      console.error(`[cluster] a server process failed to start (exit ${signal ?? code}); stopping`);
      stopping = true;
      for (const other of Object.values(cluster.workers ?? {})) other?.process.kill("SIGTERM");
      if (alive() === 0) process.exit(1);
      process.exitCode = 1;
      return;
    }
    console.error(`[cluster] server process ${worker.process.pid} ended (${signal ?? `exit ${code}`}); starting another`);
    fork();
  });

  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal} received: stopping ${alive()} server processes`);
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
    if (alive() === 0) process.exit(0);
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));

  for (let i = 0; i < count; i++) fork();
}
