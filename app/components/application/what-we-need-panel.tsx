import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import type { ConversationSide } from "~/domain/enums";
import { formatFileSize } from "~/domain/formats";
import type { RequestItemView } from "~/domain/views/application-page";

export type WhatWeNeedPanelProps = {
  applicationId: string;
  items: RequestItemView[];
  /** Whose page this is: the applicant answers items, staff request, accept and reject them. */
  side: ConversationSide;
  /** The application is still under review (requests can be made and answered). */
  open: boolean;
  timeZone: string;
};

/**
 * What We Need (issue 19): the items the lender asked for on one application, with their status, the
 * note and due date, and the answers given. Both application pages render it.
 */
export function WhatWeNeedPanel({ items }: WhatWeNeedPanelProps) {
  return (
    <Card>
      <CardHeader>
        <CardTitle id="what-we-need-title">What We Need</CardTitle>
      </CardHeader>
      <CardContent>
        {items.length === 0 ? (
          <p className="text-muted-foreground">Nothing has been requested.</p>
        ) : (
          <ul aria-labelledby="what-we-need-title" className="space-y-3" data-testid="request-items">
            {items.map((item) => (
              <li key={item.id} className="rounded-md border border-border p-3" data-status={item.status}>
                <p className="font-semibold">
                  {item.kindLabel} <span className="font-normal text-muted-foreground">· {item.statusLabel}</span>
                </p>
                {item.note ? <p className="text-sm break-words whitespace-pre-line">{item.note}</p> : null}
                <p className="text-sm text-muted-foreground">Due {item.dueDate}</p>
                {item.rejectionReason && item.status === "rejected" ? <p className="text-sm text-red-700">Reason: {item.rejectionReason}</p> : null}
                {item.replyText ? <p className="text-sm break-words whitespace-pre-line">{item.replyText}</p> : null}
                {item.documents.map((d) => (
                  <p key={d.id} className="text-sm">
                    {d.fileName} ({formatFileSize(d.fileSize)})
                  </p>
                ))}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
