import { useEffect } from "react";

/**
 * Runs `start` once the browser is first idle after the page has started (at the latest after 2 s), or
 * after 200 ms where requestIdleCallback is missing: work the page does not need for its first
 * paint, such as fetching a form's schemas, waits for it. `start` should be a stable function.
 */
export function useWhenIdle(start: () => void): void {
  useEffect(() => {
    if (typeof requestIdleCallback === "function") {
      const handle = requestIdleCallback(start, { timeout: 2000 });
      return () => cancelIdleCallback(handle);
    }
    const timer = setTimeout(start, 200);
    return () => clearTimeout(timer);
  }, [start]);
}
