import { useEffect, useEffectEvent, useRef } from "react";

/**
 * Hands each new action answer to `onAnswer` once (a new answer is a new object): a re-render, or a
 * double-run effect, with the same answer does nothing. `ready` holds an answer back until it is true
 * (a fetcher still loading the page's data after its action).
 */
export function useEachAnswer<T extends object>(answer: T | undefined, onAnswer: (answer: T) => void, ready = true) {
  const handled = useRef<T | undefined>(undefined);
  const handle = useEffectEvent(onAnswer);
  useEffect(() => {
    if (!answer || handled.current === answer || !ready) return;
    handled.current = answer;
    handle(answer);
  }, [answer, ready]);
}
