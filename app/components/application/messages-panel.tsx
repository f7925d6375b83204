import { useStaffCan } from "~/components/admin/admin-shell";
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { useFetcher } from "react-router";
import { useActionToast } from "~/components/action-toast";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { ErrorList } from "~/components/ui/field";
import { Label } from "~/components/ui/label";
import { PendingButton } from "~/components/ui/pending-button";
import { type ConversationSide, CONVERSATION_LIMITS } from "~/domain/conversation-enums";
import { formatCount, formatDateTime } from "~/domain/formats";
import { normalizeMessageBody } from "~/domain/validation/conversation-rules";
import type { MessageActionData } from "~/domain/validation/messages";
import type { ConversationMessage, ConversationView } from "~/domain/views/application-page";
import { cn } from "~/utils/cn";
import { conversationSchemas, usePreloadConversationSchemas } from "./conversation-schemas";
import { useEachAnswer } from "~/components/use-each-answer";

export type MessagesPanelProps = {
  applicationId: string;
  conversation: ConversationView;
  side: ConversationSide;
  /**
   * Whether the application is still open. Messages can be written either way (an approved applicant
   * still talks to the lender; docs/decisions/0027); a decided application only changes the hint.
   */
  open: boolean;
  timeZone: string;
  /** The hint under the box when the panel is shown elsewhere than the application (the loan page). */
  hint?: string;
};

const messagesAction = (side: ConversationSide, applicationId: string) =>
  side === "staff" ? `/admin/applications/${applicationId}/messages` : `/dashboard/applications/${applicationId}/messages`;

const LIMIT = CONVERSATION_LIMITS.messageMaxLength;
const LIMIT_LABEL = formatCount(LIMIT);

/**
 * The ids of the other side's messages that were unread when they arrived: the last `unread` messages
 * from the other side. Kept for the whole visit (the read mark the panel posts would otherwise take the
 * "New" markers away the moment they are seen).
 */
function useNewMarkers(conversation: ConversationView, side: ConversationSide): ReadonlySet<string> {
  const [state, setState] = useState(() => ({ from: conversation, marked: newIds(conversation, side) as ReadonlySet<string> }));
  // A new conversation from the loader (a send, a live update): add its unread ones, during render.
  if (state.from !== conversation) {
    const fresh = [...newIds(conversation, side)].filter((id) => !state.marked.has(id));
    setState({ from: conversation, marked: fresh.length ? new Set([...state.marked, ...fresh]) : state.marked });
  }
  return state.marked;
}

function newIds({ messages, unread }: ConversationView, side: ConversationSide): Set<string> {
  const ids = new Set<string>();
  for (let i = messages.length - 1; i >= 0 && ids.size < unread; i--) {
    const m = messages[i]!;
    if (m.side !== side) ids.add(m.id);
  }
  return ids;
}

/**
 * Posts the `read` intent while the panel is on screen and the conversation has unread messages (on
 * arrival, and again when new ones arrive live while it is visible). Loading the page alone marks nothing.
 */
function useMarkRead(ref: React.RefObject<HTMLElement | null>, action: string, conversation: ConversationView) {
  const fetcher = useFetcher<MessageActionData>({ key: `messages-read-${action}` });
  const [visible, setVisible] = useState(false);
  const lastPosted = useRef<string | null>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver((entries) => setVisible(entries.some((e) => e.isIntersecting)));
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  // A message that arrives while the tab is in the background is read when the reader comes back.
  const [tabShown, setTabShown] = useState(true);
  useEffect(() => {
    const update = () => setTabShown(document.visibilityState !== "hidden");
    update();
    document.addEventListener("visibilitychange", update);
    return () => document.removeEventListener("visibilitychange", update);
  }, []);
  const newest = conversation.messages.at(-1)?.id ?? null;
  useEffect(() => {
    if (!visible || !tabShown || conversation.unread === 0 || fetcher.state !== "idle") return;
    if (lastPosted.current === newest) return;
    lastPosted.current = newest;
    void fetcher.submit({ intent: "read" }, { method: "post", action });
  }, [visible, tabShown, conversation.unread, newest, fetcher, action]);
}

/** Messages: the conversation about one application, oldest first, as plain text. */
export function MessagesPanel({ applicationId, conversation, side, open, timeZone, hint }: MessagesPanelProps) {
  const id = useId();
  const action = messagesAction(side, applicationId);
  const fetcher = useFetcher<MessageActionData>({ key: `messages-send-${applicationId}` });
  const [body, setBody] = useState("");
  const [errors, setErrors] = useState<readonly string[] | undefined>(undefined);
  const panelRef = useRef<HTMLDivElement>(null);
  // Staff who may not work applications (the auditor) read the conversation and write nothing.
  const staffMayWrite = useStaffCan("applications.work");
  const mayWrite = side === "applicant" || staffMayWrite;
  const listRef = useRef<HTMLOListElement>(null);
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const newMarkers = useNewMarkers(conversation, side);
  usePreloadConversationSchemas();
  useMarkRead(panelRef, action, conversation);
  useActionToast(fetcher.data);

  const pending = fetcher.state !== "idle";
  const sending = pending && fetcher.formData ? fetcher.formData.get("body") : null;
  const optimistic = typeof sending === "string" ? normalizeMessageBody(sending) : null;

  // The answer to a send: clear the box when it worked, show the server's message when not.
  useEachAnswer(fetcher.data, (data) => {
    if (data.intent !== "send") return;
    if (data.ok) {
      setBody("");
      setErrors(undefined);
    } else {
      setErrors(data.fieldErrors?.body ?? (data.toast?.description ? [data.toast.description] : undefined));
    }
    textareaRef.current?.focus();
  });

  // Newest in view: on arrival, and whenever a message is added (sent, or received live).
  const count = conversation.messages.length + (optimistic ? 1 : 0);
  useEffect(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [count]);

  // Set while the schemas are still on their way (the first moments of the page): a second Ctrl+Enter
  // then sends nothing more.
  const checking = useRef(false);
  const submit = async (event?: FormEvent<HTMLFormElement>) => {
    event?.preventDefault();
    if (pending || checking.current) return;
    checking.current = true;
    const { sendMessageSchema } = await conversationSchemas().finally(() => (checking.current = false));
    const parsed = sendMessageSchema.safeParse({ intent: "send", body });
    if (!parsed.success) {
      setErrors(parsed.error.issues.map((i) => i.message));
      textareaRef.current?.focus();
      return;
    }
    setErrors(undefined);
    void fetcher.submit({ intent: "send", body: parsed.data.body }, { method: "post", action });
  };

  // Ctrl+Enter / Cmd+Enter sends; Enter alone is a new line (messages are often several lines).
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void submit();
    }
  };

  const length = body.length;
  const fieldId = `${id}-body`;
  const hintId = `${id}-hint`;
  const counterId = `${id}-counter`;
  const errorId = `${id}-error`;
  const empty = conversation.messages.length === 0 && !optimistic;

  return (
    <Card ref={panelRef} id="messages" className="scroll-mt-4" data-testid="messages-panel">
      <CardHeader>
        <CardTitle id={`${id}-title`}>Messages</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {empty ? (
          <p className="text-muted-foreground">No messages yet.</p>
        ) : (
          <ol
            ref={listRef}
            aria-labelledby={`${id}-title`}
            className="max-h-[28rem] space-y-3 overflow-y-auto pr-1"
            data-testid="messages"
            tabIndex={0}
          >
            {conversation.messages.map((m) => (
              <MessageItem key={m.id} message={m} isNew={newMarkers.has(m.id)} timeZone={timeZone} />
            ))}
            {optimistic ? (
              <li className="rounded-md border border-dashed border-border p-3 opacity-70" data-side={side} data-pending="">
                <p className="text-sm text-muted-foreground">You · Sending…</p>
                <p className="break-words whitespace-pre-wrap">{optimistic}</p>
              </li>
            ) : null}
          </ol>
        )}
        {mayWrite ? (
        <form method="post" action={action} onSubmit={(event) => void submit(event)} noValidate className="flex flex-col gap-2">
          <input type="hidden" name="intent" value="send" />
          <div className="flex items-baseline justify-between gap-2">
            <Label htmlFor={fieldId}>Message</Label>
            <span id={counterId} className={cn("text-sm tabular-nums", length > LIMIT ? "text-destructive" : "text-muted-foreground")}>
              {formatCount(length)} / {LIMIT_LABEL}
            </span>
          </div>
          <textarea
            ref={textareaRef}
            id={fieldId}
            name="body"
            rows={3}
            value={body}
            maxLength={LIMIT}
            aria-invalid={errors?.length ? true : undefined}
            aria-describedby={[hintId, counterId, errors?.length ? errorId : null].filter(Boolean).join(" ")}
            onChange={(event) => {
              setBody(event.target.value);
              if (errors?.length) setErrors(undefined);
            }}
            onKeyDown={onKeyDown}
            className="min-h-24 w-full rounded-md border border-input bg-background px-3 py-2 text-base shadow-xs outline-none placeholder:text-muted-foreground focus-visible:border-ring focus-visible:ring-3 focus-visible:ring-ring/50 aria-invalid:border-destructive"
          />
          <p id={hintId} className="text-sm text-muted-foreground">
            {hint
              ? hint
              : side === "applicant"
              ? open
                ? "Write to us about this application. Ctrl+Enter sends."
                : "A decision has been made; you can still write to us about this application. Ctrl+Enter sends."
              : "The applicant sees this message on their application page and gets an e-mail that a message arrived (never its text). Ctrl+Enter sends."}
          </p>
          <ErrorList id={errorId} errors={errors} live />
          <div>
            <PendingButton type="submit" pending={pending} icon={null}>
              Send
            </PendingButton>
          </div>
        </form>
        ) : null}
      </CardContent>
    </Card>
  );
}

function MessageItem({ message: m, isNew, timeZone }: { message: ConversationMessage; isNew: boolean; timeZone: string }) {
  return (
    <li className={cn("rounded-md border p-3", m.mine ? "ml-6 border-border bg-muted/40" : "mr-6 border-border", isNew && "border-primary")} data-side={m.side} data-new={isNew ? "" : undefined}>
      <p className="text-sm text-muted-foreground">
        {isNew ? <span className="mr-2 rounded bg-primary px-1.5 py-0.5 text-xs font-semibold text-primary-foreground">New</span> : null}
        {m.author} · <time dateTime={m.at}>{formatDateTime(m.at, timeZone)}</time>
      </p>
      {/* Text, never HTML: React escapes it; line breaks are kept. */}
      <p className="break-words whitespace-pre-wrap">{m.body}</p>
    </li>
  );
}
