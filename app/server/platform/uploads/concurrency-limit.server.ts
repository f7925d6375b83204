/**
 * At most `max` of the wrapped tasks run at once; the others wait their turn in arrival order. A task
 * that throws frees its place like one that succeeds.
 */
export function createLimit(max: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async function limited<T>(task: () => Promise<T>): Promise<T> {
    if (running >= max) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      // The place passes straight to the next task, so `running` never drops below the queue's demand.
      if (next) next();
      else running--;
    }
  };
}
