import { useState } from "react";
import { ErrorList, Field } from "~/components/ui/form";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { DENIAL_REASONS, denySchema, REVIEW_LIMITS } from "~/domain/validation/review";
import { ReviewDecisionDialog, type ReviewDecisionProps } from "./review-dialog";
import { ReviewFormFrame, useReviewForm, type ReviewFormProps } from "./review-form";

/** A problem with the other reason is the one to fix first; else the reasons (their first checkbox). */
const FOCUS_ORDER = ["otherReason", "reasons"] as const;

/**
 * 'Deny' (docs/requirements.md §3, §5): the principal reasons for the adverse-action notice, from the standard
 * list plus an optional 'Other'; at least one. Confirm posts intent=deny; the server checks the same schema.
 */
export function DenyDialog(props: ReviewDecisionProps) {
  return <ReviewDecisionDialog {...props} decision="deny" Form={DenyForm} />;
}

function DenyForm(props: ReviewFormProps) {
  const { application, pending } = props;
  const [reasons, setReasons] = useState<string[]>([]);
  const [other, setOther] = useState("");
  const form = useReviewForm(props, FOCUS_ORDER, () =>
    denySchema.safeParse({ intent: "deny", applicationId: application.id, reasons, otherReason: other }),
  );
  const { id, shown } = form;
  const reasonsInvalid = Boolean(shown.reasons?.length);

  function toggle(reason: string, checked: boolean) {
    setReasons((list) => (checked ? [...list, reason] : list.filter((r) => r !== reason)));
    form.edited();
  }

  return (
    <ReviewFormFrame props={props} form={form} intent="deny">
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
        <ErrorList id={`${id}-reasons-error`} errors={shown.reasons} live />
      </fieldset>
      <Field id={`${id}-other`} label="Other reason (optional)" errors={shown.otherReason} liveErrors>
        {(a11y) => (
          <Input
            {...a11y}
            name="otherReason"
            value={other}
            maxLength={REVIEW_LIMITS.reasonMaxLength}
            onChange={(event) => {
              setOther(event.target.value);
              form.edited();
            }}
            disabled={pending}
            autoComplete="off"
          />
        )}
      </Field>
    </ReviewFormFrame>
  );
}
