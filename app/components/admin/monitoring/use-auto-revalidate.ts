import { useEffect, useRef } from "react";
import { useRevalidator } from "react-router";

/**
 * Reloads the route's data every `intervalMs` while the tab is visible (docs/requirements.md §5: the monitoring
 * view refreshes every 30 seconds). A hidden tab makes no requests; when it becomes visible again and
 * the data is older than the interval, it reloads at once. Returns a manual refresh and the state.
 */
export function useAutoRevalidate(intervalMs: number) {
  const { revalidate, state } = useRevalidator();
  const busy = useRef(false);
  const lastRun = useRef(0);
  useEffect(() => {
    busy.current = state !== "idle";
  }, [state]);

  useEffect(() => {
    lastRun.current = Date.now();
    let timer: number | undefined;
    const run = () => {
      if (busy.current || document.visibilityState !== "visible") return;
      lastRun.current = Date.now();
      void revalidate();
    };
    const start = () => {
      window.clearInterval(timer);
      timer = window.setInterval(run, intervalMs);
    };
    const onVisibility = () => {
      if (document.visibilityState === "visible") {
        if (Date.now() - lastRun.current >= intervalMs) run();
        start();
      } else {
        window.clearInterval(timer);
        timer = undefined;
      }
    };
    if (document.visibilityState === "visible") start();
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [intervalMs, revalidate]);

  return {
    refresh: () => {
      lastRun.current = Date.now();
      void revalidate();
    },
    refreshing: state === "loading",
  };
}
