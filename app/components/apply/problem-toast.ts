import { useRef } from "react";
import { toast } from "~/components/toaster";

/** One id for the wizard's problem toasts, so a newer problem replaces the older one instead of stacking. */
export const PROBLEM_TOAST_ID = "apply-problem";

function dismiss() {
  // sonner is loaded already: a problem toast was shown through it.
  void import("sonner").then(({ toast: sonner }) => sonner.dismiss(PROBLEM_TOAST_ID));
}

/**
 * The wizard's error toast, tied to the field it is about: it goes away when that field is edited or the
 * step changes, so a message never outlives the problem it described (an under-18 toast after the date
 * was corrected, a step 2 message still showing on step 3). The titles are the spec's messages.
 */
export function useProblemToast() {
  const current = useRef<{ field: string | null } | null>(null);
  return {
    show(message: string, field?: string) {
      current.current = { field: field ?? null };
      toast.error(message, { id: PROBLEM_TOAST_ID });
    },
    /** Dismisses the toast whatever it is about (a new step, a submission under way). */
    clear() {
      if (!current.current) return;
      current.current = null;
      dismiss();
    },
    /** Dismisses the toast if it is about `field` (which was just edited). */
    clearFor(field: string) {
      if (current.current?.field !== field) return;
      current.current = null;
      dismiss();
    },
  };
}
