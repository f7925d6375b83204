import { useState, type ComponentType } from "react";
import { useRevalidator } from "react-router";
import { ModalDialog } from "~/components/ui/dialog";
import { formatUsd } from "~/domain/formats";
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

/** What sets one decision's dialog apart from the other's. */
export type ReviewDecision = {
  fetcherKey: string;
  title: string;
  testId: string;
  /** What the dialog asks for, after the applicant and the request ("Set the approved terms."). */
  instruction: string;
  Form: ComponentType<ReviewFormProps>;
};

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
  fetcherKey,
  title,
  testId,
  instruction,
  Form,
}: ReviewDecisionProps & ReviewDecision) {
  const revalidator = useRevalidator();
  const [serverErrors, setServerErrors] = useState<Record<string, string[]>>({});
  const { fetcher, pending } = useReviewFetcher(fetcherKey, (data) => {
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
      testId={testId}
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
