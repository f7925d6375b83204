import { Undo2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { useActionToast } from "~/components/action-toast";
import { useEachAnswer } from "~/components/use-each-answer";
import { Button } from "~/components/ui/button";
import { ModalDialog } from "~/components/ui/dialog";
import { ConfirmDialogForm } from "~/components/ui/confirm-dialog-form";
import { formatDate } from "~/domain/formats";
import type { ApplicationWithdrawActionData } from "~/domain/validation/application-withdraw";

export const applicationWithdrawPath = (applicationId: string) => `/dashboard/applications/${applicationId}/withdraw`;

/**
 * Withdraw Application, on the applicant's page while the application is pending or under review: a
 * confirm dialog (focus trapped, Escape closes, focus returns) posting intent=withdraw. Once withdrawn
 * the page reloads its data, the button gives way to the line saying when it was withdrawn, and focus
 * moves there. Dashboard-only code.
 */
export function WithdrawApplication({
  applicationId,
  withdrawable,
  withdrawnAt,
  timeZone,
}: {
  applicationId: string;
  withdrawable: boolean;
  withdrawnAt: string | null;
  timeZone: string;
}) {
  // The same fetcher as the button's (by key): it outlives the button, which goes with the reload.
  const fetcher = useFetcher<ApplicationWithdrawActionData>({ key: withdrawFetcherKey(applicationId) });
  useActionToast(fetcher.data);
  const noticeRef = useRef<HTMLParagraphElement>(null);
  const focused = useRef<ApplicationWithdrawActionData | undefined>(undefined);
  useEffect(() => {
    // Just withdrawn here (not a page opened on an application withdrawn before): focus the line that
    // replaced the button, so keyboard and screen-reader users are not left on the page's top.
    if (!withdrawnAt || !fetcher.data?.ok || focused.current === fetcher.data) return;
    focused.current = fetcher.data;
    noticeRef.current?.focus();
  }, [withdrawnAt, fetcher.data]);

  if (withdrawnAt) {
    return (
      <p ref={noticeRef} tabIndex={-1} className="mt-4 text-sm text-slate-700" data-testid="application-withdrawn">
        You withdrew this application on <time dateTime={withdrawnAt}>{formatDate(withdrawnAt, timeZone)}</time>. No decision will be made on it; you are
        welcome to apply again at any time.
      </p>
    );
  }
  if (!withdrawable) return null;
  return (
    <div className="mt-4 flex flex-col items-start gap-3 sm:flex-row sm:items-center sm:justify-between" data-testid="withdraw-application">
      <p className="text-sm text-slate-700">Changed your mind? You can withdraw this application while we are considering it.</p>
      <WithdrawButton applicationId={applicationId} />
    </div>
  );
}

const withdrawFetcherKey = (applicationId: string) => `application-withdraw-${applicationId}`;

function WithdrawButton({ applicationId }: { applicationId: string }) {
  const fetcher = useFetcher<ApplicationWithdrawActionData>({ key: withdrawFetcherKey(applicationId) });
  const [dialogOpen, setDialogOpen] = useState(false);

  // A refusal (already decided, say) shows its toast and closes the dialog, focus back on the button;
  // a withdrawal takes the button away with the reload (the notice above then takes focus).
  useEachAnswer(fetcher.data, () => setDialogOpen(false));

  return (
    <ModalDialog
      open={dialogOpen}
      onOpenChange={setDialogOpen}
      onCloseFocus={() => document.getElementById("withdraw-application-button")?.focus()}
      testId="withdraw-application-dialog"
      title="Withdraw this application?"
      description="We will stop reviewing it and make no decision on it. This cannot be undone, but you can apply again at any time. We will e-mail you a confirmation."
      trigger={
        <Button id="withdraw-application-button" variant="outline">
          <Undo2 aria-hidden="true" />
          Withdraw Application
        </Button>
      }
    >
      <ConfirmDialogForm
        fetcher={fetcher}
        action={applicationWithdrawPath(applicationId)}
        intent="withdraw"
        keepLabel="Keep Application"
        confirmLabel="Withdraw Application"
        icon={<Undo2 aria-hidden="true" />}
      />
    </ModalDialog>
  );
}
