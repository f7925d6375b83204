import { X } from "lucide-react";
import { Dialog } from "radix-ui";
import type { ReactNode } from "react";
import type { AdminApplication } from "~/server/admin/applications.server";
import type { useReviewFetcher } from "./use-review-fetcher";
import { Button } from "~/components/ui/button";

/** What the approve and deny forms inside the dialog receive. */
export type ReviewFormProps = {
  application: AdminApplication;
  fetcher: ReturnType<typeof useReviewFetcher>["fetcher"];
  pending: boolean;
  serverErrors: Record<string, string[]>;
  clearServerErrors: () => void;
  onCancel: () => void;
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
