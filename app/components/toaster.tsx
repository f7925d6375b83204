import { useEffect } from "react";
import { Toaster as SonnerToaster, toast as showToast } from "sonner";

/** The toast the root loader read from the one-time cookie (see app/server/toast.server.ts). */
export type ToastMessage = {
  type: "success" | "error" | "info";
  title: string;
  description?: string;
  id?: string;
};

/**
 * The one notification region (spec 000 §9 / 001 §9): bottom-right, Alt+T moves focus to it,
 * labelled 'Notifications', 5 s per toast, at most one visible at a time.
 */
export function Toaster() {
  return (
    <SonnerToaster
      position="bottom-right"
      hotkey={["altKey", "KeyT"]}
      containerAriaLabel="Notifications"
      duration={5000}
      visibleToasts={1}
      richColors
      closeButton
    />
  );
}

/** Shows a server-sent toast once (the id keeps a double-run effect from showing it twice). */
export function useServerToast(toast: ToastMessage | null | undefined) {
  useEffect(() => {
    if (!toast) return;
    // Let the Toaster subscribe first on the very first render.
    const timer = window.setTimeout(() => {
      showToast[toast.type](toast.title, { id: toast.id, description: toast.description });
    }, 0);
    return () => window.clearTimeout(timer);
  }, [toast]);
}
