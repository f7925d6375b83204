import type { ReactNode } from "react";

/** A label and what it stands for ("Loan Amount", "$50,000"). */
export type Fact = readonly [label: string, value: ReactNode];

/** The classes of a fact list: the list, each pair, its label and its value. */
export type FactListLook = { list: string; item: string; label: string; value: string };

/** Label-value pairs as a description list (labels are unique within one list). */
export function FactList({ facts, look }: { facts: readonly Fact[]; look: FactListLook }) {
  return (
    <dl className={look.list}>
      {facts.map(([label, value]) => (
        <div key={label} className={look.item}>
          <dt className={look.label}>{label}</dt>
          <dd className={look.value}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
