/**
 * An enumeration written once, as its labels in order: the values (the database's CHECK list and the
 * forms' choices, in that order) are read from the label record, so a value cannot be added without
 * its label, nor a label kept for a value that is gone. Pure, no I/O, safe in the browser.
 */
export function labelledEnum<const Labels extends Record<string, string>>(labels: Labels) {
  type Value = keyof Labels & string;
  return {
    values: Object.keys(labels) as readonly string[] as readonly [Value, ...Value[]],
    labels: labels as Readonly<Record<Value, string>>,
    /** The label of any string: a value this code does not know (an old row) shows `fallback`. */
    label: (value: string, fallback: string): string => (labels as Record<string, string>)[value] ?? fallback,
  };
}
