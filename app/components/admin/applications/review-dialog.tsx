import { X } from "lucide-react";
import { Dialog } from "radix-ui";
import { useState, type ComponentType, type ReactNode } from "react";
import { useRevalidator } from "react-router";
import { Button } from "~/components/ui/button";
import { Spinner } from "~/components/ui/spinner";
import { formatUsd } from "~/domain/formats";
import { loanTypeLabel } from "~/domain/labels";
import type { AdminApplication } from "~/domain/views/admin-applications";
import { useReviewFetcher } from "./use-review-fetcher";

/** What the approve and deny forms inside the dialog receive. */
export type ReviewFormProps = {
  application: AdminApplication;
  fetcher: ReturnType<typeof useReviewFetcher>["fetcher"];
  pending: boolean;
  serverErrors: Record<string, string[]>;
  clearServerErrors: () => void;
  onCancel: () => void;
};

/** What the approve and deny dialogs receive from the applications page. */
export type ReviewDecisionProps = {
  application: AdminApplication | null;
  /** `decided`: the application left the list, so focus cannot go back to its button. */
  onClose: (decided?: boolean) => void;
  onCloseFocus: () => void;
};

/**
 * The frame of the approve and deny dialogs: a modal that traps focus, closes on Escape, and on close
 * hands focus back through `onCloseFocus` (the button that opened it, which may be gone by then).
 */
export function ReviewDialog({
  open,
  onOpenChange,
  onCloseFocus,
  title,
  description,
  testId,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseFocus: () => void;
  title: string;
  description: ReactNode;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-navy-950/60" />
        <Dialog.Content
          data-testid={testId}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            onCloseFocus();
          }}
          className="fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 flex-col overflow-y-auto rounded-xl border border-border bg-card p-5 text-card-foreground shadow-xl sm:p-6"
        >
          <div className="flex items-start justify-between gap-4">
            <div className="min-w-0">
              <Dialog.Title className="text-xl font-bold text-primary">{title}</Dialog.Title>
              <Dialog.Description className="mt-1 text-sm text-muted-foreground">{description}</Dialog.Description>
            </div>
            <Dialog.Close asChild>
              <Button variant="ghost" size="icon" aria-label="Close" className="-mt-2 -mr-2">
                <X aria-hidden="true" />
              </Button>
            </Dialog.Close>
          </div>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** An error list under a field that reserves its line so messages do not move the form. */
export function FieldError({ id, errors }: { id: string; errors?: string[] }) {
  return (
    <p id={id} className="min-h-5 text-sm text-destructive" aria-live="polite">
      {errors?.[0] ?? ""}
    </p>
  );
}

/**
 * A review decision (approve or deny) in its dialog: one fetcher per decision, and one way to take the
 * server's answer. Accepted: close (the application leaves the list). Field errors: show them in the
 * form. Anything else (already decided elsewhere, 409, or gone): close and reload the list as it is now.
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
}: ReviewDecisionProps & {
  fetcherKey: string;
  title: string;
  testId: string;
  /** What the dialog asks for, after the applicant and the request ("Set the approved terms."). */
  instruction: string;
  Form: ComponentType<ReviewFormProps>;
}) {
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
    <ReviewDialog
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
    </ReviewDialog>
  );
}

/** The end of a review form: an error about the application itself, Cancel, and the pending-aware confirm button. */
export function ReviewFormFooter({
  applicationError,
  pending,
  onCancel,
  icon,
  label,
  pendingLabel,
  destructive = false,
  className,
}: {
  applicationError?: string[];
  pending: boolean;
  onCancel: () => void;
  icon: ReactNode;
  label: string;
  pendingLabel: string;
  destructive?: boolean;
  className: string;
}) {
  return (
    <>
      {applicationError?.length ? <p className="text-sm text-destructive">{applicationError[0]}</p> : null}
      <div className={className}>
        <Button type="button" variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" variant={destructive ? "destructive" : undefined} disabled={pending} aria-disabled={pending || undefined}>
          {pending ? <Spinner className="size-4" /> : icon}
          {pending ? pendingLabel : label}
        </Button>
      </div>
    </>
  );
}
