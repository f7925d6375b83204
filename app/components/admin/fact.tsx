import type { ReactNode } from "react";
import { Detail } from "~/components/ui/detail-list";
import { cn } from "~/utils/cn";

/**
 * One fact in a staff card's grid of terms (a <dl> of one, two then four columns): a muted label over the
 * value. `wide` gives it the whole row from the two-column width up, for sentences and lists.
 */
export function Fact({ label, wide, children }: { label: string; wide?: boolean; children: ReactNode }) {
  return (
    <Detail label={label} className={wide ? "min-[480px]:col-span-2 lg:col-span-4" : undefined} valueClassName="mt-0.5 font-semibold">
      {children}
    </Detail>
  );
}

/** The reasons given with a decision (denial, counteroffer) as a wide Fact, one bullet a reason. */
export function ReasonsFact({ label, reasons, listClassName, testId }: { label: string; reasons: readonly string[]; listClassName?: string; testId?: string }) {
  return (
    <Fact label={label} wide>
      <ul className={cn("list-inside list-disc", listClassName)} data-testid={testId}>
        {reasons.map((reason) => (
          <li key={reason}>{reason}</li>
        ))}
      </ul>
    </Fact>
  );
}
