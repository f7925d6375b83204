import type { FieldErrors } from "./wizard-steps";
import type { BooleanField, TextField, WizardField, WizardValues } from "./wizard-values";

/** What every step component receives from the wizard. */
export type StepProps = {
  /** Prefix for element ids (unique per wizard). */
  idPrefix: string;
  values: WizardValues;
  errors: FieldErrors;
  set: <K extends WizardField>(field: K, value: WizardValues[K]) => void;
  /** Masks of the sensitive values a saved draft keeps: left blank, they stay as saved. */
  kept?: Partial<Record<string, string>>;
};

/**
 * A step's field bindings: `text(name)` gives a text, amount, masked or select field its id, name,
 * value, setter and error; `check(name)` does the same for a checkbox.
 */
export function binder({ idPrefix, values, errors, set }: StepProps) {
  const named = (field: WizardField) => ({ id: `${idPrefix}-${field}`, field, error: errors[field] });
  return {
    text: (field: TextField) => ({ ...named(field), value: values[field], onValue: (value: string) => set(field, value) }),
    check: (field: BooleanField) => ({ ...named(field), checked: values[field], onChecked: (checked: boolean) => set(field, checked) }),
  };
}
