import { CircleCheck, CircleX } from "lucide-react";
import { useId, useRef, type FormEvent, type ReactNode, type RefObject } from "react";
import { Button } from "~/components/ui/button";
import { useFieldErrors } from "~/components/ui/form";
import { PendingButton } from "~/components/ui/pending-button";
import { issuesToFieldErrors, type FieldErrors, type IssueLike } from "~/domain/validation/field-errors";
import type { AdminApplication } from "~/domain/views/admin-applications";
import { cn } from "~/utils/cn";
import type { useReviewFetcher } from "./use-review-fetcher";

/** What the approve and deny forms inside the dialog receive. */
export type ReviewFormProps = {
  application: AdminApplication;
  fetcher: ReturnType<typeof useReviewFetcher>["fetcher"];
  pending: boolean;
  serverErrors: Record<string, string[]>;
  clearServerErrors: () => void;
  onCancel: () => void;
};

/** A schema's verdict on the form's values (what zod's safeParse returns). */
type Check = { success: true } | { success: false; error: { readonly issues: readonly IssueLike[] } };

/**
 * The browser half of a review form: field ids, the errors on screen (its own check's over the server's
 * answer), and a submit that never posts twice and posts only what the shared schema accepts; otherwise
 * it shows the errors and focuses the first field in `order` that has one.
 */
export function useReviewForm({ pending, serverErrors, clearServerErrors }: ReviewFormProps, order: readonly string[], check: (form: HTMLFormElement) => Check) {
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const { errors, setErrors, show, clear } = useFieldErrors(formRef, order);
  const shown: FieldErrors = { ...serverErrors, ...errors };

  /** The user changed `fields` (none given: anything that affects every message). */
  function edited(...fields: string[]) {
    if (fields.length) clear(...fields);
    else setErrors({});
    clearServerErrors();
  }

  return { id, formRef, shown, edited, onSubmit: checkedSubmit(pending, check, show) };
}

/**
 * The submit of an /admin form: never posts twice (while `pending`) and posts only what `check` accepts;
 * otherwise the schema's messages per field go to `onInvalid`. `check` gets the form, for forms whose
 * fields are read from it rather than kept in state.
 */
export function checkedSubmit(pending: boolean, check: (form: HTMLFormElement) => Check, onInvalid: (errors: Record<string, string[]>) => void) {
  return (event: FormEvent<HTMLFormElement>) => {
    if (pending) {
      event.preventDefault();
      return;
    }
    const result = check(event.currentTarget);
    if (!result.success) {
      event.preventDefault();
      onInvalid(issuesToFieldErrors(result.error));
    }
  };
}

/** Each decision's confirm button (and the spacing above its footer). */
const CONFIRM = {
  approve: {
    icon: <CircleCheck aria-hidden="true" />,
    label: "Confirm Approval",
    pendingLabel: "Approving…",
    destructive: false,
    className: "mt-3 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end",
  },
  deny: {
    icon: <CircleX aria-hidden="true" />,
    label: "Confirm Denial",
    pendingLabel: "Denying…",
    destructive: true,
    className: "mt-2 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end",
  },
} as const;

/**
 * A review form: the post with its intent and application, the fields (`children`), then an error about
 * the application itself, Cancel, and the pending-aware confirm button.
 */
export function ReviewFormFrame({
  props: { application, fetcher, pending, onCancel },
  form: { formRef, onSubmit, shown },
  intent,
  children,
}: {
  props: ReviewFormProps;
  form: { formRef: RefObject<HTMLFormElement | null>; onSubmit: (event: FormEvent<HTMLFormElement>) => void; shown: FieldErrors };
  intent: keyof typeof CONFIRM;
  children: ReactNode;
}) {
  const applicationError = shown.applicationId;
  const { icon, label, pendingLabel, destructive, className } = CONFIRM[intent];
  return (
    <fetcher.Form ref={formRef} method="post" noValidate onSubmit={onSubmit} className="mt-5 flex flex-col gap-3">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="applicationId" value={application.id} />
      {children}
      {applicationError?.length ? <p className="text-sm text-destructive">{applicationError[0]}</p> : null}
      {/* The buttons stay at the foot of the dialog while its fields scroll under them: a long form
          (a counteroffer's reasons) put Confirm below the fold at 1280x800. */}
      <div
        className={cn(
          className,
          "sticky bottom-0 z-10 -mx-5 -mb-5 border-t border-border bg-card px-5 pt-3 pb-5 sm:-mx-6 sm:-mb-6 sm:px-6 sm:pb-6",
        )}
        data-testid="review-form-actions"
      >
        <Button type="button" variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <PendingButton type="submit" variant={destructive ? "destructive" : undefined} pending={pending} icon={icon} aria-disabled={pending || undefined}>
          {pending ? pendingLabel : label}
        </PendingButton>
      </div>
    </fetcher.Form>
  );
}
