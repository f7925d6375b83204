import type { FieldErrors, WizardField, WizardValues } from "./wizard-model";

/** What every step component receives from the wizard. */
export type StepProps = {
  /** Prefix for element ids (unique per wizard). */
  idPrefix: string;
  values: WizardValues;
  errors: FieldErrors;
  set: <K extends WizardField>(field: K, value: WizardValues[K]) => void;
};
