import { useCallback, useEffect, useId, useRef, useState } from "react";

/**
 * State for a show/hide panel (the mobile menu): the toggle carries aria-expanded/aria-controls,
 * Escape closes the panel and puts focus back on the toggle.
 */
export function useDisclosure() {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const toggleRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);

  /** Closes; returns focus to the toggle when focus was inside the panel (or `force`). */
  const close = useCallback((options: { restoreFocus?: boolean } = {}) => {
    setOpen(false);
    const panel = panelRef.current;
    const focusInside = panel != null && panel.contains(document.activeElement);
    if (options.restoreFocus || focusInside) toggleRef.current?.focus();
  }, []);

  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape" && !event.defaultPrevented) {
        event.preventDefault();
        close({ restoreFocus: true });
      }
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [open, close]);

  return {
    open,
    close,
    toggle: () => setOpen((value) => !value),
    toggleProps: { ref: toggleRef, "aria-expanded": open, "aria-controls": panelId },
    panelProps: { ref: panelRef, id: panelId, hidden: !open },
  };
}
