import { lazy, Suspense, useEffect, useSyncExternalStore } from "react";
import type { ExternalToast } from "sonner";

/** The toast the root loader read from the one-time cookie (see app/server/platform/http/toast.server.ts). */
export type ToastMessage = {
  type: "success" | "error" | "info";
  title: string;
  description?: string;
  id?: string;
};

/*
 * sonner is about 9 KB of gzip JavaScript, and most visits never see a toast: it is fetched with the
 * first toast instead of with every page (the 150 KB first-load budget). Everything that shows a
 * toast goes through `toast` below, which loads sonner, mounts the Toaster and only then hands the
 * toast over, so none is lost to a Toaster that has not subscribed yet.
 */
type Sonner = typeof import("sonner");
let sonner: Promise<Sonner> | null = null;
const loadSonner = () => (sonner ??= import("sonner"));

let wanted = false;
const listeners = new Set<() => void>();
let markMounted: () => void = () => undefined;
// Resolved once the notification region is in the document and subscribed to sonner's store.
const mounted = new Promise<void>((resolve) => (markMounted = resolve));
// A live region that appears together with its first message is often not announced: give screen
// readers a moment to register the empty region first (only the first toast waits).
const LIVE_REGION_SETTLE_MS = 100;

function show(kind: ToastMessage["type"], title: string, options?: ExternalToast) {
  if (!wanted) {
    wanted = true;
    for (const listener of listeners) listener();
  }
  void Promise.all([loadSonner(), mounted]).then(([{ toast }]) => toast[kind](title, options));
}

export const toast = {
  success: (title: string, options?: ExternalToast) => show("success", title, options),
  error: (title: string, options?: ExternalToast) => show("error", title, options),
  info: (title: string, options?: ExternalToast) => show("info", title, options),
};

const SonnerToaster = lazy(() => loadSonner().then((m) => ({ default: m.Toaster })));

/** Rendered after the Toaster in the same Suspense boundary, so its effect runs once sonner has subscribed. */
function MountedSignal() {
  useEffect(() => {
    const timer = window.setTimeout(markMounted, LIVE_REGION_SETTLE_MS);
    return () => window.clearTimeout(timer);
  }, []);
  return null;
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/**
 * The one notification region (docs/requirements.md §10 / docs/requirements.md §10): bottom-right, Alt+T moves focus to it,
 * labelled 'Notifications', 5 s per toast, at most one visible at a time. (sonner's Alt+T focuses the
 * toast list, which exists only while a toast shows, so mounting with the first toast loses nothing.)
 * A modal dialog (ModalDialog) stays above the bottom band the toasts use, so one toast at a time
 * fits below the dialog's buttons; keep the two in step when moving either.
 */
export function Toaster() {
  const active = useSyncExternalStore(subscribe, () => wanted, () => false);
  if (!active) return null;
  return (
    <Suspense fallback={null}>
      <SonnerToaster
        position="bottom-right"
        hotkey={["altKey", "KeyT"]}
        containerAriaLabel="Notifications"
        duration={5000}
        visibleToasts={1}
        richColors
        closeButton
      />
      <MountedSignal />
    </Suspense>
  );
}

/** Shows a server-sent toast once (the id keeps a double-run effect from showing it twice). */
export function useServerToast(message: ToastMessage | null | undefined) {
  useEffect(() => {
    if (!message) return;
    toast[message.type](message.title, { id: message.id, description: message.description });
  }, [message]);
}
