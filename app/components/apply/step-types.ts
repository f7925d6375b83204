import type { WizardField, WizardValues } from "./wizard-values";
import type { FieldErrors } from "./wizard-steps";

/** What every step component receives from the wizard. */
export type StepProps = {
  /** Prefix for element ids (unique per wizard). */
  idPrefix: string;
  values: WizardValues;
  errors: FieldErrors;
  set: <K extends WizardField>(field: K, value: WizardValues[K]) => void;
};

type FieldOf<T> = { [K in WizardField]: WizardValues[K] extends T ? K : never }[WizardField];

/**
 * A step's field bindings: `text(name)` gives a text, amount, masked or select field its id, name,
 * value, setter and error; `check(name)` does the same for a checkbox.
 */
export function binder({ idPrefix, values, errors, set }: StepProps) {
  return {
    text: <K extends FieldOf<string>>(field: K) => ({
      id: `${idPrefix}-${field}`,
      field,
      value: values[field] as string,
      onValue: (value: string) => set(field, value as WizardValues[K]),
      error: errors[field],
    }),
    check: <K extends FieldOf<boolean>>(field: K) => ({
      id: `${idPrefix}-${field}`,
      field,
      checked: values[field] as boolean,
      onChecked: (checked: boolean) => set(field, checked as WizardValues[K]),
      error: errors[field],
    }),
  };
}
