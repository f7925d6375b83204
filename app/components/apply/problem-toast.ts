import { useRef } from "react";
import { toast } from "~/components/toaster";

function dismiss(id: string) {
  // sonner is loaded already: the toast being dismissed was shown through it.
  void import("sonner").then(({ toast: sonner }) => sonner.dismiss(id));
}

/**
 * The wizard's error toast, tied to the field it is about: it goes away when that field is edited or the
 * step changes, so a message never outlives the problem it described (an under-18 toast after the date
 * was corrected, a step 2 message still showing on step 3). A newer problem replaces the older toast
 * with a new one (announced as new). The titles are the spec's messages.
 */
export function useProblemToast() {
  const current = useRef<{ id: string; field: string | null } | null>(null);
  const count = useRef(0);
  const clear = () => {
    if (!current.current) return;
    dismiss(current.current.id);
    current.current = null;
  };
  return {
    show(message: string, field?: string) {
      clear();
      count.current += 1;
      current.current = { id: `apply-problem-${count.current}`, field: field ?? null };
      toast.error(message, { id: current.current.id });
    },
    /** Dismisses the toast whatever it is about (a new step, a submission under way). */
    clear,
    /** Dismisses the toast if it is about `field` (which was just edited). */
    clearFor(field: string) {
      if (current.current?.field === field) clear();
    },
  };
}
