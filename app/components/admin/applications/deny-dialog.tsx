import { CircleX } from "lucide-react";
import { useId, useRef, useState, type FormEvent } from "react";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { DENIAL_REASONS, denySchema, REVIEW_LIMITS, reviewFieldErrors } from "~/domain/validation/review";
import { FieldError, ReviewDecisionDialog, ReviewFormFooter, type ReviewDecisionProps, type ReviewFormProps } from "./review-dialog";

/**
 * 'Deny' (docs/requirements.md §3, §5): the principal reasons for the adverse-action notice, from the standard
 * list plus an optional 'Other'; at least one. Confirm posts intent=deny; the server checks the same schema.
 */
export function DenyDialog({ application, onClose, onCloseFocus }: ReviewDecisionProps) {
  return (
    <ReviewDecisionDialog
      application={application}
      onClose={onClose}
      onCloseFocus={onCloseFocus}
      fetcherKey="admin-deny"
      title="Deny Application"
      testId="deny-dialog"
      instruction="The reasons are sent to the applicant in the notice of action taken."
      Form={DenyForm}
    />
  );
}

function DenyForm({ application, fetcher, pending, serverErrors, clearServerErrors, onCancel }: ReviewFormProps) {
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [reasons, setReasons] = useState<string[]>([]);
  const [other, setOther] = useState("");
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const shown = { ...serverErrors, ...errors };
  const reasonsInvalid = Boolean(shown.reasons?.length);
  const otherInvalid = Boolean(shown.otherReason?.length);

  function toggle(reason: string, checked: boolean) {
    setReasons((list) => (checked ? [...list, reason] : list.filter((r) => r !== reason)));
    setErrors({});
    clearServerErrors();
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (pending) {
      event.preventDefault();
      return;
    }
    const result = denySchema.safeParse({ intent: "deny", applicationId: application.id, reasons, otherReason: other });
    if (!result.success) {
      event.preventDefault();
      const fieldErrors = reviewFieldErrors(result.error);
      setErrors(fieldErrors);
      const target = fieldErrors.otherReason?.length ? `[name="otherReason"]` : `[name="reasons"]`;
      formRef.current?.querySelector<HTMLElement>(target)?.focus();
    }
  }

  return (
    <fetcher.Form ref={formRef} method="post" noValidate onSubmit={onSubmit} className="mt-5 flex flex-col gap-3">
      <input type="hidden" name="intent" value="deny" />
      <input type="hidden" name="applicationId" value={application.id} />
      <fieldset aria-describedby={reasonsInvalid ? `${id}-reasons-error` : undefined}>
        <legend className="text-sm font-medium">Reasons for denial (choose at least one)</legend>
        <ul className="mt-3 flex flex-col gap-2">
          {DENIAL_REASONS.map((reason, index) => (
            <li key={reason} className="flex items-center gap-3">
              <input
                type="checkbox"
                id={`${id}-reason-${index}`}
                name="reasons"
                value={reason}
                checked={reasons.includes(reason)}
                onChange={(event) => toggle(reason, event.target.checked)}
                disabled={pending}
                className="size-4 shrink-0 accent-navy-900"
              />
              <Label htmlFor={`${id}-reason-${index}`} className="font-normal">
                {reason}
              </Label>
            </li>
          ))}
        </ul>
        <FieldError id={`${id}-reasons-error`} errors={shown.reasons} />
      </fieldset>
      <div className="flex flex-col gap-2">
        <Label htmlFor={`${id}-other`}>Other reason (optional)</Label>
        <Input
          id={`${id}-other`}
          name="otherReason"
          value={other}
          maxLength={REVIEW_LIMITS.reasonMaxLength}
          onChange={(event) => {
            setOther(event.target.value);
            setErrors({});
            clearServerErrors();
          }}
          disabled={pending}
          autoComplete="off"
          aria-invalid={otherInvalid || undefined}
          aria-describedby={otherInvalid ? `${id}-other-error` : undefined}
        />
        <FieldError id={`${id}-other-error`} errors={shown.otherReason} />
      </div>
      <ReviewFormFooter
        applicationError={shown.applicationId}
        pending={pending}
        onCancel={onCancel}
        icon={<CircleX aria-hidden="true" />}
        label="Confirm Denial"
        pendingLabel="Denying…"
        destructive
        className="mt-2 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end"
      />
    </fetcher.Form>
  );
}
