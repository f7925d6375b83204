import { useEffect, useRef } from "react";

/**
 * Subscribes the page to /api/events (server-sent events) while it is mounted. Reconnects after
 * 1, 2, 5 and 10 s, then every 10 s; after any reconnect (or a server 'resync') it calls onResync so
 * the page reloads its data and misses nothing that happened while it was disconnected.
 */

export type LiveChange = { table: string; op: "INSERT" | "UPDATE" | "DELETE"; id: string; owner: string; status?: string };

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

    const connect = () => {
      if (stopped) return;
      source = new EventSource("/api/events");
      source.addEventListener("ready", () => {
        if (everConnected) latest.current.onResync();
        everConnected = true;
        attempt = 0;
      });
      source.addEventListener("resync", () => latest.current.onResync());
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
        if (stopped) return;
        timer = setTimeout(connect, reconnectDelay(attempt));
        attempt += 1;
      };
    };
    connect();
    return () => {
      stopped = true;
      clearTimeout(timer);
      source?.close();
    };
  }, [enabled]);
}
