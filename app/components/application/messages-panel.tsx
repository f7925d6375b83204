import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import type { ConversationSide } from "~/domain/enums";
import { formatDateTime } from "~/domain/formats";
import type { ConversationView } from "~/domain/views/application-page";

export type MessagesPanelProps = {
  applicationId: string;
  conversation: ConversationView;
  side: ConversationSide;
  /** Whether new messages can be written (the application is still open). */
  open: boolean;
  timeZone: string;
};

/** Messages (issue 19): the conversation about one application, oldest first, as plain text. */
export function MessagesPanel({ conversation, timeZone }: MessagesPanelProps) {
  return (
    <Card>
      <CardHeader>
        <CardTitle id="messages-title">Messages</CardTitle>
      </CardHeader>
      <CardContent>
        {conversation.messages.length === 0 ? (
          <p className="text-muted-foreground">No messages yet.</p>
        ) : (
          <ol aria-labelledby="messages-title" className="space-y-3" data-testid="messages">
            {conversation.messages.map((m) => (
              <li key={m.id} className="rounded-md border border-border p-3" data-side={m.side}>
                <p className="text-sm text-muted-foreground">
                  {m.author} · <time dateTime={m.at}>{formatDateTime(m.at, timeZone)}</time>
                </p>
                <p className="break-words whitespace-pre-line">{m.body}</p>
              </li>
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}
