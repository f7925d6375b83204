import type { ComponentProps, ReactNode } from "react";
import { AmountField, CheckboxField, MaskedField, SelectField, TextareaField, TextField } from "./fields";
import { binder, type StepProps } from "./step-types";
import type { BooleanField, TextField as TextName, WizardValues } from "./wizard-values";

/** What the binder gives a field from the wizard's state, so a spec leaves it out. */
type Bound = "id" | "field" | "value" | "onValue" | "checked" | "onChecked" | "error";

type Spec<Kind extends string, Name, Props> = {
  kind: Kind;
  /** The value it edits (also its form name and the end of its id). */
  name: Name;
  /** Shown only while this holds (fields that belong to one loan type). */
  when?: (values: WizardValues) => boolean;
} & Omit<Props, Bound>;

/** The controls that edit a text value, by the `kind` a spec names. */
const TEXT_CONTROLS = { text: TextField, amount: AmountField, masked: MaskedField, select: SelectField, textarea: TextareaField };
type TextKind = keyof typeof TEXT_CONTROLS;
type TextSpec = { [K in TextKind]: Spec<K, TextName, ComponentProps<(typeof TEXT_CONTROLS)[K]>> }[TextKind];

/** One field of a step as data: which control, the value it edits, and the control's own props. */
export type FieldSpec = TextSpec | Spec<"check", BooleanField, ComponentProps<typeof CheckboxField>>;

/** A step's fields from its table, in order (the step lays them out in its grid). */
export function StepFields({ fields, ...step }: StepProps & { fields: readonly FieldSpec[] }) {
  const bind = binder(step);
  const shown = fields.filter((spec) => spec.when?.(step.values) ?? true).map((spec) => withKeptHint(spec, step));
  return (
    <>
      {shown.map((spec) => (
        <StepField key={spec.name} spec={spec} bind={bind} />
      ))}
    </>
  );
}

function StepField({ spec, bind }: { spec: FieldSpec; bind: ReturnType<typeof binder> }) {
  if (spec.kind === "check") return <CheckboxField {...bind.check(spec.name)} {...controlProps(spec)} />;
  // TypeScript cannot tie TEXT_CONTROLS[spec.kind] to that kind's props; TextSpec is built from the same table.
  const Control = TEXT_CONTROLS[spec.kind] as (props: ReturnType<typeof bind.text> & ReturnType<typeof controlProps<TextSpec>>) => ReactNode;
  return <Control {...bind.text(spec.name)} {...controlProps(spec)} />;
}

/**
 * A sensitive field whose value a saved draft keeps says so while it is blank: the browser
 * never gets the number back, only its last digits.
 */
function withKeptHint(spec: FieldSpec, step: StepProps): FieldSpec {
  if (spec.kind !== "masked") return spec;
  const mask = step.kept?.[spec.name];
  if (!mask || step.values[spec.name]) return spec;
  return { ...spec, hint: <>Saved as {mask}. Leave it blank to keep it, or type it again to change it.</> };
}

/** A spec without what only the table reads (the rest goes to the control). */
function controlProps<S extends FieldSpec>({ kind: _kind, name: _name, when: _when, ...props }: S) {
  return props;
}
