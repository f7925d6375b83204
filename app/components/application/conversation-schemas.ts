import { useWhenIdle } from "~/components/use-when-idle";

/**
 * The Zod schemas Messages and What We Need check a form with before posting it, loaded after the page
 * has started rather than with it: Zod and these schemas were a third of the application page's
 * start-up script, one long task on a phone (Lighthouse's total blocking time; decision 0052). The
 * server checks every post again with the same schemas, so nothing depends on how soon they arrive: a
 * form sent before they have (the first moments after hydration) waits for them, then is checked.
 */
const load = () =>
  Promise.all([import("~/domain/validation/messages"), import("~/domain/validation/requests")]).then(([messages, requests]) => ({
    sendMessageSchema: messages.sendMessageSchema,
    replyItemSchema: requests.replyItemSchema,
    rejectItemSchema: requests.rejectItemSchema,
    requestDocumentsSchema: requests.requestDocumentsSchema,
  }));

let loading: ReturnType<typeof load> | undefined;

/** The schemas (one download for the visit). */
export function conversationSchemas(): ReturnType<typeof load> {
  loading ??= load();
  return loading;
}

const preload = () => void conversationSchemas();

/** Starts the download once the browser is idle after the panel has mounted (hydration done). */
export function usePreloadConversationSchemas(): void {
  useWhenIdle(preload);
}
