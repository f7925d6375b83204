import { useEffect, useRef } from "react";
import { toast } from "~/components/toaster";
import type { Toast } from "~/domain/action-result";

/** Shows an action's toast (the id, when given, keeps a double-run effect from showing it twice). */
export function showActionToast(t: Toast, id?: string) {
  toast[t.type](t.title, { description: t.description, id });
}

/**
 * Shows the toast of each new action answer once (a new answer is a new object): the one way a page
 * shows what its action answered.
 */
export function useActionToast(answer: { toast?: Toast; at?: number } | undefined) {
  const seen = useRef<object | undefined>(undefined);
  useEffect(() => {
    if (!answer?.toast || seen.current === answer) return;
    seen.current = answer;
    showActionToast(answer.toast, answer.at === undefined ? undefined : `admin-action-${answer.at}`);
  }, [answer]);
}
