import { formatUsd } from "~/domain/formats";
import { useState, type ComponentType } from "react";
import { useRevalidator } from "react-router";
import { ModalDialog } from "~/components/ui/dialog";
import { loanTypeLabel } from "~/domain/labels";
import type { AdminApplication } from "~/domain/views/admin-applications";
import type { ReviewFormProps } from "./review-form";
import { useReviewFetcher } from "./use-review-fetcher";

/** What the approve and deny dialogs receive from the applications page. */
export type ReviewDecisionProps = {
  application: AdminApplication | null;
  /** `decided`: the application left the list, so focus cannot go back to its button. */
  onClose: (decided?: boolean) => void;
  onCloseFocus: () => void;
};

/** What each decision's dialog says; its fetcher is `admin-<decision>`, its test id `<decision>-dialog`. */
const DECISIONS = {
  approve: { title: "Approve Application", instruction: "Set the approved terms." },
  deny: { title: "Deny Application", instruction: "The reasons are sent to the applicant in the notice of action taken." },
} as const;

/**
 * A review decision (approve or deny) in its dialog: one fetcher per decision, and one way to take the
 * server's answer. Accepted: close (the application leaves the list). Field errors: show them in the
 * form. Anything else (already decided elsewhere, 409, or gone): close and reload the list as it is now.
 * On close, focus goes back through `onCloseFocus` (the button that opened it, which may be gone by then).
 */
export function ReviewDecisionDialog({
  application,
  onClose,
  onCloseFocus,
  decision,
  Form,
}: ReviewDecisionProps & { decision: keyof typeof DECISIONS; Form: ComponentType<ReviewFormProps> }) {
  const { title, instruction } = DECISIONS[decision];
  const revalidator = useRevalidator();
  const [serverErrors, setServerErrors] = useState<Record<string, string[]>>({});
  const { fetcher, pending } = useReviewFetcher(`admin-${decision}`, (data) => {
    if (data.ok) {
      onClose(true);
    } else if (data.fieldErrors) {
      setServerErrors(data.fieldErrors);
    } else {
      onClose(true);
      void revalidator.revalidate();
    }
  });

  return (
    <ModalDialog
      open={application !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      onCloseFocus={onCloseFocus}
      title={title}
      testId={`${decision}-dialog`}
      description={
        application ? (
          <>
            {application.applicantName}: {loanTypeLabel(application.loanType)}, requested {formatUsd(application.requestedAmount)}. {instruction}
          </>
        ) : null
      }
    >
      {application ? (
        <Form
          key={application.id}
          application={application}
          fetcher={fetcher}
          pending={pending}
          serverErrors={serverErrors}
          clearServerErrors={() => setServerErrors({})}
          onCancel={() => onClose()}
        />
      ) : null}
    </ModalDialog>
  );
}
