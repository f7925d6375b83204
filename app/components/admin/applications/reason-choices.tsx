import { ErrorList, Field, type FieldMessages } from "~/components/ui/form";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { DENIAL_REASONS, REVIEW_LIMITS } from "~/domain/validation/review";

/**
 * The reasons a decision gives (Deny, and an Approve that is a counteroffer): a checkbox per listed
 * reason under its legend, the list's errors, then "Other reason (optional)". The state stays with the
 * dialog; `name` is the field the server reads, and its errors are announced as they change.
 */
export function ReasonChoices({
  id,
  legend,
  name,
  checkboxId,
  errors,
  chosen,
  onToggle,
  other,
  pending,
}: {
  /** The dialog's id prefix: the list's errors are `${id}-${name}-error`. */
  id: string;
  legend: string;
  name: string;
  /** The id of the checkbox of reason `index`. */
  checkboxId: (index: number) => string;
  errors: FieldMessages;
  chosen: readonly string[];
  onToggle: (reason: string, checked: boolean) => void;
  other: { id: string; name: string; value: string; errors: FieldMessages; onChange: (value: string) => void };
  pending: boolean;
}) {
  const errorId = `${id}-${name}-error`;
  return (
    <>
      <fieldset aria-describedby={errors?.length ? errorId : undefined}>
        <legend className="text-sm font-medium">{legend}</legend>
        <ul className="mt-3 flex flex-col gap-2">
          {DENIAL_REASONS.map((reason, index) => (
            <li key={reason} className="flex items-center gap-3">
              <input
                type="checkbox"
                id={checkboxId(index)}
                name={name}
                value={reason}
                checked={chosen.includes(reason)}
                onChange={(event) => onToggle(reason, event.target.checked)}
                disabled={pending}
                className="size-4 shrink-0 accent-navy-900"
              />
              <Label htmlFor={checkboxId(index)} className="font-normal">
                {reason}
              </Label>
            </li>
          ))}
        </ul>
        <ErrorList id={errorId} errors={errors} live />
      </fieldset>
      <Field id={other.id} label="Other reason (optional)" errors={other.errors} liveErrors>
        {(a11y) => (
          <Input
            {...a11y}
            name={other.name}
            value={other.value}
            maxLength={REVIEW_LIMITS.reasonMaxLength}
            onChange={(event) => other.onChange(event.target.value)}
            disabled={pending}
            autoComplete="off"
          />
        )}
      </Field>
    </>
  );
}
