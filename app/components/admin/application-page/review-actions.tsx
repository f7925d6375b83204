import { Check, ClipboardCheck, FileX, X } from "lucide-react";
import { useRef, useState, type MouseEvent, type RefObject } from "react";
import { ApproveDialog } from "~/components/admin/applications/approve-dialog";
import { DenyDialog } from "~/components/admin/applications/deny-dialog";
import { useReviewFetcher } from "~/components/admin/applications/use-review-fetcher";
import { Button } from "~/components/ui/button";
import { DialogCloseButton, ModalDialog } from "~/components/ui/dialog";
import { PendingButton } from "~/components/ui/pending-button";
import { CLOSE_INCOMPLETE_NOT_YET } from "~/domain/validation/review";
import type { AdminApplication } from "~/domain/views/admin-applications";
import type { AdminApplicationDetail } from "~/domain/views/admin-application-page";

/**
 * The review decisions the lifecycle allows for this application's status: Start Review (pending),
 * Approve and Deny (pending or under review, through the list's dialogs), Close as Incomplete (once an
 * open request's due date has passed; otherwise the page says when it becomes available). The server
 * checks all of it again; a decision made meanwhile by someone else comes back as a 409 toast and the
 * page reloads to the application as it is now.
 */
export function ReviewActions({
  application,
  focusAfter,
  originationFeePercent,
  maxAprPercent,
}: {
  application: AdminApplicationDetail;
  focusAfter: RefObject<HTMLElement | null>;
  /** The approve dialog's default Origination Fee (%). */
  originationFeePercent: number;
  maxAprPercent: number;
}) {
  const a = application.summary;
  // While an approval waits for confirmation, Approve is not offered (Confirm Approval or Send Back is).
  const allowed = application.approval.open ? application.allowedEvents.filter((event) => event !== "approve") : application.allowedEvents;
  const [approving, setApproving] = useState<AdminApplication | null>(null);
  const [denying, setDenying] = useState<AdminApplication | null>(null);
  const [closing, setClosing] = useState(false);
  const opener = useRef<HTMLElement | null>(null);
  const start = useReviewFetcher("admin-start-review");

  const restoreFocus = () => {
    const target = opener.current;
    opener.current = null;
    // A decision removes its own button: focus then goes to the page's summary.
    if (target?.isConnected) target.focus();
    else focusAfter.current?.focus();
  };
  /**
   * A decision's answer arrives before the page reloads, while its button is still there: forget the
   * button then, so focus goes to the summary rather than to a button about to disappear.
   */
  const closes = (set: (value: null) => void) => (decided?: boolean) => {
    if (decided) opener.current = null;
    set(null);
  };
  /** Remembers the button that opened a dialog, for focus to go back to. */
  const remember = (event: MouseEvent<HTMLButtonElement>) => {
    opener.current = event.currentTarget;
  };
  /** Opens the dialog its button names (data-action), remembering the button. */
  const openDialog = (event: MouseEvent<HTMLButtonElement>) => {
    remember(event);
    const action = event.currentTarget.dataset.action;
    if (action === "approve") setApproving(a);
    else if (action === "deny") setDenying(a);
    else if (action === "close-incomplete") setClosing(true);
  };

  // The dialogs stay mounted after a decision (which leaves no button here), so they close normally,
  // show their toast and hand focus back.
  return (
    <>
      {allowed.length > 0 ? (
        <div className="flex flex-col gap-3" data-testid="review-actions">
          <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
            {allowed.includes("start-review") ? (
              <start.fetcher.Form method="post">
                <input type="hidden" name="intent" value="start-review" />
                <input type="hidden" name="applicationId" value={a.id} />
                <PendingButton type="submit" variant="outline" pending={start.pending} icon={<ClipboardCheck aria-hidden="true" />} className="w-full sm:w-auto">
                  Start Review
                </PendingButton>
              </start.fetcher.Form>
            ) : null}
            {allowed.includes("approve") ? (
              <Button
                onClick={openDialog}
                className="bg-green-700 text-white hover:bg-green-800"
                data-action="approve"
              >
                <Check aria-hidden="true" />
                Approve
              </Button>
            ) : null}
            {allowed.includes("deny") ? (
              <Button
                variant="destructive"
                onClick={openDialog}
                data-action="deny"
              >
                <X aria-hidden="true" />
                Deny
              </Button>
            ) : null}
            {application.closeIncompleteAvailable ? (
              <Button
                variant="secondary"
                onClick={openDialog}
                data-action="close-incomplete"
              >
                <FileX aria-hidden="true" />
                Close as Incomplete
              </Button>
            ) : null}
          </div>
          {allowed.includes("close-incomplete") && !application.closeIncompleteAvailable ? (
            <p className="text-sm text-muted-foreground" data-testid="close-incomplete-hint">
              {CLOSE_INCOMPLETE_NOT_YET}
            </p>
          ) : null}
        </div>
      ) : null}

      <ApproveDialog application={approving} onClose={closes(setApproving)} onCloseFocus={restoreFocus} originationFeePercent={originationFeePercent} maxAprPercent={maxAprPercent} />
      <DenyDialog application={denying} onClose={closes(setDenying)} onCloseFocus={restoreFocus} />
      <CloseIncompleteDialog
        open={closing}
        applicationId={a.id}
        onClose={(decided) => {
          if (decided) opener.current = null;
          setClosing(false);
        }}
        onCloseFocus={restoreFocus}
      />
    </>
  );
}

function CloseIncompleteDialog({
  open,
  applicationId,
  onClose,
  onCloseFocus,
}: {
  open: boolean;
  applicationId: string;
  onClose: (decided?: boolean) => void;
  onCloseFocus: () => void;
}) {
  const { fetcher, pending } = useReviewFetcher("admin-close-incomplete", () => onClose(true));
  return (
    <ModalDialog
      open={open}
      onOpenChange={(next) => (next ? undefined : onClose())}
      onCloseFocus={onCloseFocus}
      title="Close as Incomplete"
      description="The requested information was not received by the due date. The application ends, and the applicant receives the notice of action taken (they may apply again)."
      testId="close-incomplete-dialog"
    >
      <fetcher.Form method="post" className="mt-5 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <input type="hidden" name="intent" value="close-incomplete" />
        <input type="hidden" name="applicationId" value={applicationId} />
        <DialogCloseButton>Cancel</DialogCloseButton>
        <PendingButton type="submit" variant="destructive" pending={pending} icon={<FileX aria-hidden="true" />}>
          {pending ? "Closing…" : "Confirm Close as Incomplete"}
        </PendingButton>
      </fetcher.Form>
    </ModalDialog>
  );
}
