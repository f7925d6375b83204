import { useState } from "react";
import { ErrorList, Field, type FieldMessages } from "~/components/ui/form";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { DENIAL_REASONS, REVIEW_LIMITS } from "~/domain/validation/review";

/** The reasons chosen and the 'Other' text, held by the dialog that shows ReasonChoices (its check reads them). */
export function useReasonChoices() {
  const [chosen, setChosen] = useState<string[]>([]);
  const [other, setOther] = useState("");
  return { chosen, other, setChosen, setOther };
}

/**
 * The reasons a decision gives (Deny, and an Approve that is a counteroffer): a checkbox per listed
 * reason under its legend, the list's errors, then "Other reason (optional)". The state stays with the
 * dialog (useReasonChoices); `name` is the field the server reads, and its errors are announced as they change.
 */
export function ReasonChoices({
  id,
  legend,
  name,
  checkboxId,
  errors,
  choices,
  other,
  onEdit,
  pending,
}: {
  /** The dialog's id prefix: the list's errors are `${id}-${name}-error`. */
  id: string;
  legend: string;
  name: string;
  /** The id of the checkbox of reason `index`. */
  checkboxId: (index: number) => string;
  errors: FieldMessages;
  choices: ReturnType<typeof useReasonChoices>;
  /** The 'Other' input's id, the field the server reads it as, and its errors. */
  other: { id: string; name: string; errors: FieldMessages };
  /** Told which of the two changed, so the dialog can drop the errors shown for it. */
  onEdit: (changed: "list" | "other") => void;
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
                checked={choices.chosen.includes(reason)}
                onChange={(event) => {
                  const checked = event.target.checked;
                  choices.setChosen((list) => (checked ? [...list, reason] : list.filter((r) => r !== reason)));
                  onEdit("list");
                }}
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
            value={choices.other}
            maxLength={REVIEW_LIMITS.reasonMaxLength}
            onChange={(event) => {
              choices.setOther(event.target.value);
              onEdit("other");
            }}
            disabled={pending}
            autoComplete="off"
          />
        )}
      </Field>
    </>
  );
}
