import type { ReactNode } from "react";
import type { FetcherWithComponents } from "react-router";
import { DialogCloseButton } from "~/components/ui/dialog";
import { PendingButton } from "~/components/ui/pending-button";

/**
 * The foot of a confirm dialog for a step that cannot be undone: a form posting `intent` to `action`
 * through the dialog's fetcher, with the button that keeps things as they are (it closes the dialog)
 * and the destructive one that goes ahead. Both wait while the post runs.
 */
export function ConfirmDialogForm({
  fetcher,
  action,
  intent,
  keepLabel,
  confirmLabel,
  icon,
}: {
  fetcher: FetcherWithComponents<unknown>;
  action: string;
  intent: string;
  keepLabel: string;
  confirmLabel: string;
  /** The confirm button's icon (aria-hidden), also the trigger's. */
  icon: ReactNode;
}) {
  const pending = fetcher.state !== "idle";
  return (
    <fetcher.Form method="post" action={action} className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
      <input type="hidden" name="intent" value={intent} />
      <DialogCloseButton disabled={pending}>{keepLabel}</DialogCloseButton>
      <PendingButton type="submit" variant="destructive" pending={pending} icon={icon}>
        {confirmLabel}
      </PendingButton>
    </fetcher.Form>
  );
}
