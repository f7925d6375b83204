import type { ChangeEventHandler, ReactNode } from "react";
import { ErrorList } from "~/components/ui/field";

/**
 * A required "I agree" checkbox (E-SIGN consent, agreement to sign, ACH authorisation): the box, its
 * statement as the label beside it, and under them its errors (`<id>-error`), which the box points at
 * while there are any.
 */
export function ConsentCheckbox({
  id,
  name,
  label,
  errors,
  onChange,
}: {
  id: string;
  name: string;
  label: ReactNode;
  errors?: readonly string[];
  onChange?: ChangeEventHandler<HTMLInputElement>;
}) {
  const errorId = `${id}-error`;
  const invalid = Boolean(errors?.length);
  return (
    <>
      <div className="flex items-start gap-3">
        <input
          id={id}
          name={name}
          type="checkbox"
          className="mt-1 size-4 shrink-0 accent-primary"
          aria-invalid={invalid ? true : undefined}
          aria-describedby={invalid ? errorId : undefined}
          onChange={onChange}
        />
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
      </div>
      <ErrorList id={errorId} errors={errors} />
    </>
  );
}
