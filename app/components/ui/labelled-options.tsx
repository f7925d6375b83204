/** A <select>'s options, one per value in the list's order, each shown by its label. */
export function LabelledOptions<Value extends string>({ values, labels }: { values: readonly Value[]; labels: Record<Value, string> }) {
  return values.map((value) => (
    <option key={value} value={value}>
      {labels[value]}
    </option>
  ));
}
