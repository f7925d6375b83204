import { useEffect, useLayoutEffect, useState, type CSSProperties } from "react";
import { useLocation } from "react-router";
import { site } from "~/content/site";
import { LogoMark } from "./logo";
import { Spinner } from "./ui/spinner";

/** Fade-out length after the delay (spec: 300 ms); none with prefers-reduced-motion. */
export const OVERLAY_FADE_MS = 300;

// useLayoutEffect warns during SSR; the effect only matters in the browser anyway.
const useIsomorphicLayoutEffect = typeof document === "undefined" ? useEffect : useLayoutEffect;

export type PageTransitionState = {
  /** Changes on every path change; key the overlay with it so its CSS animation restarts. */
  overlayKey: number;
  /** The overlay element is in the DOM (it may already be fading out). */
  overlayMounted: boolean;
  /** The overlay still covers the page: set aria-busy on the content beneath. */
  busy: boolean;
  /** Called by the overlay when its CSS fade-out has finished. */
  onOverlayDone: () => void;
};

/**
 * The page-transition overlay's timing (docs/requirements.md §2): shown on first load and on every change of
 * path (not search or hash), for `transitionMs`, then a 300 ms fade; every path change scrolls to the
 * top. `transitionMs` 0 turns the overlay off.
 *
 * The overlay is server-rendered on first load, and the hiding is done by a CSS animation delayed by
 * the same duration, so a page whose scripts fail still appears. This hook only decides when the
 * overlay is (re)mounted and removed, and when the content stops being aria-busy.
 */
export function usePageTransition(transitionMs: number): PageTransitionState {
  const { pathname } = useLocation();
  const enabled = transitionMs > 0;

  // Derived during render, so the overlay is part of the same commit as the new page (no flash).
  const [nav, setNav] = useState({ pathname, id: 0 });
  if (nav.pathname !== pathname) setNav({ pathname, id: nav.id + 1 });

  const [settledId, setSettledId] = useState(-1);
  const [removedId, setRemovedId] = useState(-1);

  useIsomorphicLayoutEffect(() => {
    if (nav.id > 0) window.scrollTo(0, 0);
  }, [nav.id]);

  useEffect(() => {
    if (!enabled) return;
    const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    // First load: the overlay has been on screen since the document started loading, so count from
    // the navigation start (never later than the CSS animation, which starts at first paint).
    const delay = nav.id === 0 ? Math.max(0, transitionMs - performance.now()) : transitionMs;
    const id = nav.id;
    const settle = window.setTimeout(() => setSettledId(id), delay);
    // Normally removed on animationend; this is the safety net (animations disabled, tab hidden...).
    const remove = window.setTimeout(() => setRemovedId(id), delay + (reducedMotion ? 0 : OVERLAY_FADE_MS) + 500);
    return () => {
      window.clearTimeout(settle);
      window.clearTimeout(remove);
    };
  }, [enabled, nav.id, transitionMs]);

  return {
    overlayKey: nav.id,
    overlayMounted: enabled && removedId !== nav.id,
    busy: enabled && settledId !== nav.id && removedId !== nav.id,
    onOverlayDone: () => setRemovedId(nav.id),
  };
}

/**
 * Full-screen loading overlay: spinner, brand title, tagline 'Private Loans' and
 * 'Loading your secure connection...'. It hides itself with a CSS animation after `durationMs`.
 */
export function TransitionOverlay({ durationMs, onDone }: { durationMs: number; onDone?: () => void }) {
  return (
    <div
      data-testid="transition-overlay"
      className="page-overlay on-dark fixed inset-0 z-[1000] flex items-center justify-center bg-navy-950 px-6 text-center text-white"
      style={{ "--overlay-delay": `${durationMs}ms` } as CSSProperties}
      onAnimationEnd={(event) => {
        if (event.target === event.currentTarget) onDone?.();
      }}
    >
      <div className="flex flex-col items-center gap-4">
        <div className="relative flex size-24 items-center justify-center">
          <Spinner className="absolute inset-0 size-24 text-gold-400 [stroke-width:1.25]" />
          <LogoMark className="size-11" />
        </div>
        <div role="status" aria-live="polite" className="flex flex-col items-center gap-2">
          <p className="text-3xl font-bold tracking-tight sm:text-4xl">{site.brandTitle}</p>
          <p className="text-sm font-semibold tracking-[0.3em] text-gold-400">{site.overlayTagline}</p>
          <p className="text-base text-slate-300">Loading your secure connection...</p>
        </div>
      </div>
    </div>
  );
}
