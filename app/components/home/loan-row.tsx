import type { ReactNode } from "react";
import { CardGrid } from "~/components/card-grid";
import { loans, type LoanProduct } from "~/content/loans";

/**
 * The seven loans as a centred, wrapping row of tiles (the home page's loan cards and its hover grid).
 * The gap and the tiles' widths (how many fit a row at each breakpoint) are the caller's.
 */
export function LoanRow({ gap, itemClassName, children }: { gap: "gap-4" | "gap-6"; itemClassName: string; children: (loan: LoanProduct) => ReactNode }) {
  return (
    <CardGrid items={loans} itemKey={(loan) => loan.slug} className={`mt-12 flex flex-wrap justify-center ${gap}`} itemClassName={itemClassName}>
      {children}
    </CardGrid>
  );
}
