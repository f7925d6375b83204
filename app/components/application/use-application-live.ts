import { useRevalidator } from "react-router";
import { useLiveUpdates, type LiveChange } from "~/components/live/use-live-updates";

/** Whether a streamed change concerns this application (its row, requests, messages, events, documents). */
export function concernsApplication(change: LiveChange, applicationId: string): boolean {
  if (change.table === "loan_applications") return change.id === applicationId;
  return change.applicationId === applicationId;
}

/**
 * Keeps an application page current: a request, a status change, a message or a document
 * committed by the other side (on any server instance) reloads the page's data in place; so does a
 * resync after the stream reconnects. Changes to other applications are ignored.
 */
export function useApplicationLive(applicationId: string) {
  const revalidator = useRevalidator();
  useLiveUpdates({
    onChange: (change) => {
      if (concernsApplication(change, applicationId)) void revalidator.revalidate();
    },
    onResync: () => void revalidator.revalidate(),
  });
}
