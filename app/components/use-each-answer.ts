import { useEffect, useEffectEvent, useRef } from "react";

/**
 * Runs `handle` once for each new answer of a fetcher or action (a new answer is a new object), after
 * render: the one way a form reacts to what the server answered (close a dialog, show field errors).
 */
export function useEachAnswer<T extends object>(answer: T | undefined, handle: (answer: T) => void) {
  const seen = useRef<T | undefined>(undefined);
  const onAnswer = useEffectEvent(handle);
  useEffect(() => {
    if (!answer || seen.current === answer) return;
    seen.current = answer;
    onAnswer(answer);
  }, [answer]);
}
