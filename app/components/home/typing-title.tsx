import { useEffect, useState } from "react";
import { OVERLAY_FADE_MS } from "~/components/page-transition";

/** docs/requirements.md §5, §10: one letter every 150 ms. */
export const TYPING_MS_PER_LETTER = 150;

/**
 * Calls `callback` once the page is no longer covered by the page-transition overlay (the layout marks
 * the content aria-busy while it shows), so the typing is not wasted behind it. Returns a canceller.
 */
function whenPageSettled(callback: () => void): () => void {
  const busy = () => document.querySelector('[aria-busy="true"]') !== null;
  if (!busy()) {
    const timer = window.setTimeout(callback, 0);
    return () => window.clearTimeout(timer);
  }
  let timer = 0;
  const observer = new MutationObserver(() => {
    if (busy()) return;
    observer.disconnect();
    // The overlay still fades out for a moment after the content stops being busy.
    timer = window.setTimeout(callback, OVERLAY_FADE_MS);
  });
  observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["aria-busy"] });
  return () => {
    observer.disconnect();
    window.clearTimeout(timer);
  };
}

/**
 * The hero's typed title (docs/requirements.md §2, §5): the letters of `text` appear one by one, then its last word
 * is highlighted in gold.
 *
 * - The full title is in the server HTML twice: once for screen readers and search engines (an sr-only
 *   span; the accessible name of the heading), once as the visible copy (aria-hidden), complete, so the
 *   page reads right without JavaScript.
 * - After hydration the visible copy is cleared and typed; an invisible full copy underneath keeps the
 *   heading's size, so nothing below it moves while it types.
 * - With prefers-reduced-motion the title stays complete and highlighted from the start.
 */
export function TypingTitle({ id, text, className }: { id?: string; text: string; className?: string }) {
  const [shown, setShown] = useState(text.length);

  useEffect(() => {
    if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    let interval = 0;
    const cancelWait = whenPageSettled(() => {
      let count = 0;
      setShown(0);
      interval = window.setInterval(() => {
        count += 1;
        setShown(count);
        if (count >= text.length) window.clearInterval(interval);
      }, TYPING_MS_PER_LETTER);
    });
    return () => {
      cancelWait();
      window.clearInterval(interval);
    };
  }, [text]);

  const done = shown >= text.length;
  const splitAt = text.lastIndexOf(" ") + 1;
  const lead = text.slice(0, splitAt);
  const lastWord = text.slice(splitAt);

  return (
    <h1 id={id} className={className}>
      <span className="sr-only">{text}</span>
      <span aria-hidden="true" className="grid" data-testid="typing-title" data-state={done ? "done" : "typing"}>
        {/* Holds the final size; never seen. */}
        <span className="invisible col-start-1 row-start-1">{text}</span>
        <span className="col-start-1 row-start-1">
          {done ? (
            <>
              {lead}
              <span data-highlight className="relative inline-block text-gold-400">
                {lastWord}
                <span className="absolute inset-x-0 -bottom-1 h-1.5 origin-left rounded-full bg-gold-400/70 transition-transform duration-500 ease-out motion-safe:starting:scale-x-0" />
              </span>
            </>
          ) : (
            <>
              {text.slice(0, shown)}
              <span className="ml-1 inline-block h-[0.85em] w-[3px] translate-y-[0.1em] animate-pulse bg-gold-400" />
            </>
          )}
        </span>
      </span>
    </h1>
  );
}
