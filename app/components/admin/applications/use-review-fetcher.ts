import { useEffect, useEffectEvent, useRef } from "react";
import { useFetcher } from "react-router";
import { showActionToast } from "~/components/action-toast";
import type { ReviewActionData } from "~/domain/validation/review";

/**
 * One fetcher for one /admin form: its pending state and answer. Each new answer (a new object) is
 * shown as a toast once and handed to `onData`.
 */
export function useReviewFetcher(key: string, onData?: (data: ReviewActionData) => void) {
  const fetcher = useFetcher<ReviewActionData>({ key });
  const seen = useRef<ReviewActionData | undefined>(undefined);
  const handle = useEffectEvent((data: ReviewActionData) => {
    showActionToast(data.toast);
    onData?.(data);
  });
  const data = fetcher.data;
  useEffect(() => {
    if (!data || seen.current === data) return;
    seen.current = data;
    handle(data);
  }, [data]);
  return { fetcher, data, pending: fetcher.state !== "idle" };
}
