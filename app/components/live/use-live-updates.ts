import { useEffect, useRef } from "react";

/**
 * Subscribes the page to /api/events (server-sent events) while it is mounted. Reconnects after
 * 1, 2, 5 and 10 s, then every 10 s; after any reconnect (or a server 'resync') it calls onResync so
 * the page reloads its data and misses nothing that happened while it was disconnected. A stream the
 * server ends as 'superseded' (too many open for this session: this tab's was the oldest) comes back
 * only when the tab is shown again, so tabs over the cap do not take the stream from each other.
 */

export type LiveChange = {
  table: string;
  op: "INSERT" | "UPDATE" | "DELETE";
  id: string;
  owner: string;
  status?: string;
  /** The application the changed row belongs to, when it belongs to one. */
  applicationId?: string;
};

export const RECONNECT_DELAYS_MS = [1000, 2000, 5000, 10_000] as const;

export function reconnectDelay(attempt: number): number {
  return RECONNECT_DELAYS_MS[Math.min(attempt, RECONNECT_DELAYS_MS.length - 1)]!;
}

export function useLiveUpdates(handlers: { onChange: (change: LiveChange) => void; onResync: () => void }, enabled = true) {
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });

  useEffect(() => {
    if (!enabled || typeof EventSource === "undefined") return;
    let source: EventSource | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let attempt = 0;
    let everConnected = false;
    let stopped = false;
    let superseded = false;
    const onVisible = () => {
      if (!superseded || document.visibilityState !== "visible") return;
      superseded = false;
      attempt = 0;
      connect();
    };
    document.addEventListener("visibilitychange", onVisible);

    const connect = () => {
      if (stopped) return;
      source = new EventSource("/api/events");
      source.addEventListener("ready", () => {
        if (everConnected) latest.current.onResync();
        everConnected = true;
        attempt = 0;
      });
      source.addEventListener("resync", () => latest.current.onResync());
      source.addEventListener("superseded", () => {
        source?.close();
        superseded = true;
      });
      source.addEventListener("change", (event) => {
        try {
          latest.current.onChange(JSON.parse((event as MessageEvent<string>).data) as LiveChange);
        } catch {
          /* malformed: ignore */
        }
      });
      source.onerror = () => {
        // Our schedule, not the browser's: close and come back after the next delay.
        source?.close();
        if (stopped || superseded) return;
        timer = setTimeout(connect, reconnectDelay(attempt));
        attempt += 1;
      };
    };
    connect();
    return () => {
      stopped = true;
      document.removeEventListener("visibilitychange", onVisible);
      clearTimeout(timer);
      source?.close();
    };
  }, [enabled]);
}
