import type { ReactNode } from "react";
import { CardGrid } from "~/components/card-grid";
import { loans, type LoanProduct } from "~/content/loans";
import { cn } from "~/utils/cn";

/**
 * The seven loans on the home page as a wrapping row of cards, each drawn by `children`; a short last
 * row stays centred. `className` sets the gap and `itemClassName` the widths that make the columns.
 */
export function LoanRow({ className, itemClassName, children }: { className: string; itemClassName: string; children: (loan: LoanProduct) => ReactNode }) {
  return (
    <CardGrid items={loans} itemKey={(loan) => loan.slug} className={cn("mt-12 flex flex-wrap justify-center", className)} itemClassName={itemClassName}>
      {children}
    </CardGrid>
  );
}
