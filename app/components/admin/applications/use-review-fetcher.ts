import { useFetcher } from "react-router";
import { showActionToast } from "~/components/action-toast";
import { useEachAnswer } from "~/components/use-each-answer";
import type { ReviewActionData } from "~/domain/validation/review";

/**
 * One fetcher for one /admin form: its pending state and answer. Each new answer (a new object) is
 * shown as a toast once and handed to `onData`.
 */
export function useReviewFetcher(key: string, onData?: (data: ReviewActionData) => void) {
  const fetcher = useFetcher<ReviewActionData>({ key });
  const data = fetcher.data;
  useEachAnswer(data, (answer) => {
    showActionToast(answer.toast);
    onData?.(answer);
  });
  return { fetcher, data, pending: fetcher.state !== "idle" };
}
