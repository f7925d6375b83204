import { useEffect, useRef, type ComponentProps } from "react";
import { cn } from "~/utils/cn";

/** docs/requirements.md §10: a section is revealed once a tenth of it is in view. */
export const REVEAL_THRESHOLD = 0.1;

/**
 * Fades and lifts its content in, once, when it is scrolled into view (docs/requirements.md §2, home page).
 *
 * Content is never hidden unless the animation can run: the server renders it visible (so it shows
 * without JavaScript and for crawlers), and only after hydration does the effect hide what is still
 * below the fold, by setting `data-reveal="hidden"` directly on the element (React never renders that
 * attribute, so it does not fight the effect). Nothing is hidden with prefers-reduced-motion, without
 * IntersectionObserver, or for content already on screen at load. Focus moving into a hidden section
 * (keyboard users tabbing down) reveals it at once.
 */
export function Reveal({ className, children, ...props }: ComponentProps<"div">) {
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === "undefined") return;
    if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;

    // Whether it is on screen at load comes from the observer's first report, not from measuring the
    // element here: a measurement in an effect forces a layout of the whole page in the middle of
    // hydration (one of the longest tasks of the home page's start-up on a slow phone). The first
    // report comes with the next frame; a section below the fold is not visible in that frame either.
    let first = true;
    const reveal = () => {
      element.dataset.reveal = "shown";
      observer.disconnect();
      element.removeEventListener("focusin", reveal);
    };
    const observer = new IntersectionObserver(
      (entries) => {
        const entry = entries[entries.length - 1];
        if (!entry) return;
        if (first) {
          first = false;
          if (entry.isIntersecting) {
            observer.disconnect(); // already on screen: nothing to animate
          } else {
            element.dataset.reveal = "hidden";
            element.addEventListener("focusin", reveal);
          }
          return;
        }
        if (!entry.isIntersecting) return;
        // A section taller than ten screens never reaches 10 %: a quarter of the screen will do.
        const tallEnough = entry.intersectionRect.height >= window.innerHeight * 0.25;
        if (entry.intersectionRatio >= REVEAL_THRESHOLD || tallEnough) reveal();
      },
      { threshold: [0, 0.02, 0.05, REVEAL_THRESHOLD] },
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
      element.removeEventListener("focusin", reveal);
      delete element.dataset.reveal;
    };
  }, []);

  return (
    <div
      ref={ref}
      // `.reveal` (app.css): hidden below the fold after hydration, animated when shown.
      className={cn("reveal", className)}
      {...props}
    >
      {children}
    </div>
  );
}
