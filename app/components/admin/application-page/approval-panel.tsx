import { CheckCheck, Undo2 } from "lucide-react";
import { useRef, useState, type FormEvent, type MouseEvent } from "react";
import { useFetcher } from "react-router";
import { useActionToast } from "~/components/action-toast";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { DialogCloseButton, ModalDialog } from "~/components/ui/dialog";
import { Field, Textarea } from "~/components/ui/form";
import { PendingButton } from "~/components/ui/pending-button";
import { formatDateTime, formatPercent, formatUsd } from "~/domain/formats";
import { APPROVAL_LIMITS, formatThreshold, sendBackSchema, type ApprovalActionData } from "~/domain/validation/approval";
import { issuesToFieldErrors } from "~/domain/validation/field-errors";
import type { ApprovalPanelView } from "~/domain/views/admin-application-page";
import { useEachAnswer } from "~/components/use-each-answer";
import { useReason } from "~/components/admin/reason-dialog-form";
import { Fact, ReasonsFact } from "~/components/admin/fact";

/**
 * Four-eyes approval on the staff application page: "Approval Waiting for Confirmation"
 * with the proposed terms, who proposed and when, and Confirm Approval / Send Back (with a comment)
 * for staff other than the proposer; the proposer reads that another staff member must confirm (the
 * server refuses them anyway). After a Send Back, the last comment is shown to staff.
 */
export function ApprovalPanel({ applicationId, approval, canWork, timeZone }: { applicationId: string; approval: ApprovalPanelView; canWork: boolean; timeZone: string }) {
  const open = approval.open;
  const sentBack = approval.lastSentBack;
  // The last comment, unless a newer proposal is waiting (it then replaces the sent-back one).
  const showSentBack = sentBack && (!open || (sentBack.decidedAt ?? "") > open.proposedAt) ? sentBack : null;
  // The Send Back dialog stays mounted at one place, so it closes, toasts and hands focus back after the proposal leaves.
  const [sendingBack, setSendingBack] = useState<string | null>(null);
  const opener = useRef<HTMLButtonElement | null>(null);
  const openSendBack = (event: MouseEvent<HTMLButtonElement>, proposalId: string) => {
    opener.current = event.currentTarget;
    setSendingBack(proposalId);
  };
  return (
    <>
      {open || showSentBack ? (
        <Card className="p-4 sm:p-5" role="region" aria-labelledby="approval-heading" data-testid="approval-panel">
          <h2 id="approval-heading" tabIndex={-1} className="text-lg font-semibold text-primary focus-visible:outline-3">
            {open ? "Approval Waiting for Confirmation" : "Approval Sent Back"}
          </h2>
          {open ? (
            <>
              <p className="mt-1 text-sm text-slate-700">
                Approvals of {formatThreshold(approval.thresholdCents)} or more need a second staff member: the offer is made once another staff member confirms.
              </p>
              <dl className="mt-3 grid grid-cols-1 gap-x-6 gap-y-3 text-sm min-[480px]:grid-cols-2 lg:grid-cols-4" data-testid="proposed-terms">
                <Fact label="Approved Amount">{formatUsd(open.approvedAmount, { cents: true })}</Fact>
                <Fact label="Interest Rate">{formatPercent(open.interestRate)}</Fact>
                <Fact label="Term">{open.termMonths} months</Fact>
                <Fact label="Origination Fee">{formatPercent(open.originationFeePercent)}</Fact>
                {open.counterofferReasons.length > 0 ? (
                  <ReasonsFact label="Counteroffer Reasons" reasons={open.counterofferReasons} />
                ) : null}
                <Fact label="Proposed By" wide>
                  {open.mine ? "You" : open.proposedByName}, <time dateTime={open.proposedAt}>{formatDateTime(open.proposedAt, timeZone)}</time>
                </Fact>
              </dl>
              {open.mine ? (
                <p className="mt-4 text-sm font-medium text-slate-800" data-testid="own-proposal-note">
                  <strong className="font-semibold">Waiting for confirmation.</strong> You proposed this approval: another staff member must confirm it.
                </p>
              ) : null}
              {canWork ? (
                <div className="mt-4 flex flex-col gap-2 sm:flex-row">
                  {open.mine ? null : <ConfirmApproval applicationId={applicationId} proposalId={open.id} />}
                  {open.mine ? null : (
                    <Button variant="outline" onClick={(event) => openSendBack(event, open.id)} data-action="send-back">
                      <Undo2 aria-hidden="true" />
                      Send Back
                    </Button>
                  )}
                </div>
              ) : null}
            </>
          ) : null}
          {showSentBack ? (
            <p className="mt-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm break-words whitespace-pre-line text-amber-950" data-testid="sent-back-comment">
              Sent back by {showSentBack.decidedByName ?? "a former staff member"}: {showSentBack.comment}
            </p>
          ) : null}
        </Card>
      ) : null}
      <SendBackDialog
        applicationId={applicationId}
        proposalId={sendingBack}
        onClose={() => setSendingBack(null)}
        onCloseFocus={() => {
          const target = opener.current;
          opener.current = null;
          if (target?.isConnected) target.focus();
          else (document.getElementById("approval-heading") ?? document.getElementById("application-summary"))?.focus();
        }}
      />
    </>
  );
}

function ConfirmApproval({ applicationId, proposalId }: { applicationId: string; proposalId: string }) {
  const fetcher = useFetcher<ApprovalActionData>({ key: `approval-confirm-${applicationId}` });
  useActionToast(fetcher.data);
  const pending = fetcher.state !== "idle";
  return (
    <fetcher.Form method="post" action={`/admin/applications/${applicationId}/approval`}>
      <input type="hidden" name="intent" value="confirm" />
      <input type="hidden" name="proposalId" value={proposalId} />
      <PendingButton type="submit" pending={pending} className="w-full bg-green-700 text-white hover:bg-green-800 sm:w-auto" icon={<CheckCheck aria-hidden="true" />} data-action="confirm-approval">
        Confirm Approval
      </PendingButton>
    </fetcher.Form>
  );
}

/** Send Back's dialog: a required Comment (staff only), then the conditional UPDATE on the server. */
function SendBackDialog({
  applicationId,
  proposalId,
  onClose,
  onCloseFocus,
}: {
  applicationId: string;
  /** The proposal being sent back; null: the dialog is closed. */
  proposalId: string | null;
  onClose: () => void;
  onCloseFocus: () => void;
}) {
  // The comment is a reason like Withdraw Offer's: the same state, focus and clearing.
  const comment = useReason();
  const fetcher = useFetcher<ApprovalActionData>({ key: `approval-send-back-${applicationId}` });
  const pending = fetcher.state !== "idle";
  useActionToast(fetcher.data);
  useEachAnswer(fetcher.data, (data) => {
    if (data.fieldErrors?.comment) {
      comment.refuse(data.fieldErrors.comment);
      return;
    }
    // Sent back, or confirmed / sent back by someone else meanwhile: the page reloads to show it.
    if (data.ok) comment.clear();
    onClose();
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending || !proposalId) return;
    const parsed = sendBackSchema.safeParse({ intent: "send-back", proposalId, comment: comment.value });
    if (!parsed.success) {
      comment.refuse(issuesToFieldErrors(parsed.error).comment);
      return;
    }
    void fetcher.submit(
      { intent: "send-back", proposalId: parsed.data.proposalId, comment: parsed.data.comment },
      { method: "post", action: `/admin/applications/${applicationId}/approval` },
    );
  }

  return (
    <ModalDialog
      open={proposalId !== null}
      onOpenChange={comment.dismissWith(onClose)}
      onCloseFocus={onCloseFocus}
      title="Send Back"
      description="The approval is not made and Approve is available again. Your comment is shown to staff on this page; the applicant does not see it."
      testId="send-back-dialog"
    >
      <form method="post" action={`/admin/applications/${applicationId}/approval`} noValidate onSubmit={onSubmit} className="mt-5 flex flex-col gap-3">
        <input type="hidden" name="intent" value="send-back" />
        <input type="hidden" name="proposalId" value={proposalId ?? ""} />
        <Field id={`${comment.field.id}-comment`} label="Comment" required hint={`Up to ${APPROVAL_LIMITS.commentMaxLength} characters; staff only.`} errors={comment.field.errors} liveErrors>
          {(a11y) => (
            <Textarea
              {...a11y}
              ref={comment.field.textareaRef}
              name="comment"
              value={comment.value}
              maxLength={APPROVAL_LIMITS.commentMaxLength}
              onChange={(event) => comment.field.onChange(event.target.value)}
              disabled={pending}
              className="min-h-24"
            />
          )}
        </Field>
        <div className="mt-2 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <DialogCloseButton>Cancel</DialogCloseButton>
          <PendingButton type="submit" variant="destructive" pending={pending} icon={<Undo2 aria-hidden="true" />}>
            {pending ? "Sending back…" : "Confirm Send Back"}
          </PendingButton>
        </div>
      </form>
    </ModalDialog>
  );
}
