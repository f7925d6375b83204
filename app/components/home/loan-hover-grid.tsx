import { ArrowRight } from "lucide-react";
import { Link } from "react-router";
import { CardGrid } from "~/components/card-grid";
import { LoanIcon } from "~/components/loans/loan-icon";
import { formatDollars, loans, type LoanProduct } from "~/content/loans";
import { cn } from "~/utils/cn";
import { HomeSection } from "./section-heading";

function Tile({ loan }: { loan: LoanProduct }) {
  return (
    <div
      className={cn(
        "group relative flex h-full flex-col rounded-xl border border-white/10 bg-navy-900 p-6 transition-colors",
        "hover:border-gold-400/60 hover:bg-navy-800 focus-within:border-gold-400 focus-within:bg-navy-800",
      )}
    >
      <span className="flex size-11 items-center justify-center rounded-lg bg-gold-400 text-navy-950">
        <LoanIcon name={loan.icon} className="size-6" />
      </span>
      <h3 className="mt-4 text-lg font-bold text-white">
        <Link to={loan.href} className="rounded-sm after:absolute after:inset-0 after:rounded-xl">
          {loan.title}
        </Link>
      </h3>
      {/*
        Summary and details share one grid cell and cross-fade on hover or focus; the cell is as tall as
        the taller of the two, so the tile does not jump.
      */}
      <div className="mt-3 grid flex-1">
        <div
          className={cn(
            "col-start-1 row-start-1 flex flex-col transition duration-300",
            "group-focus-within:opacity-0 group-hover:opacity-0",
          )}
        >
          <p className="text-sm text-navy-100">{loan.tagline}</p>
          <p className="mt-auto pt-4 text-sm font-semibold text-gold-400">From {formatDollars(loan.amount.min)}</p>
        </div>
        <dl
          className={cn(
            "col-start-1 row-start-1 grid translate-y-2 content-start gap-2 text-sm opacity-0 transition duration-300",
            "group-focus-within:translate-y-0 group-focus-within:opacity-100 group-hover:translate-y-0 group-hover:opacity-100",
          )}
        >
          <div>
            <dt className="text-xs font-semibold tracking-wide text-gold-400 uppercase">Amount</dt>
            <dd className="font-medium text-white">{loan.amount.display}</dd>
          </div>
          <div>
            <dt className="text-xs font-semibold tracking-wide text-gold-400 uppercase">Rate</dt>
            <dd className="font-medium text-white">{loan.rate.display}</dd>
          </div>
          <div>
            <dt className="text-xs font-semibold tracking-wide text-gold-400 uppercase">Term</dt>
            <dd className="font-medium text-white">
              {loan.term.display}
              {loan.closing ? `; closing in ${loan.closing}` : ""}
            </dd>
          </div>
        </dl>
      </div>
      <span aria-hidden="true" className="mt-5 inline-flex items-center gap-1 text-sm font-semibold text-gold-400">
        View details
        <ArrowRight className="size-4 transition-transform group-hover:translate-x-1" />
      </span>
    </div>
  );
}

/**
 * The seven loans as tiles whose details (amount, rate, term) appear on hover or keyboard focus
 * (docs/requirements.md §2, home page "hover grid").
 *
 * The details are always in the document, so screen readers read them. Each tile's heading link
 * stretches over the whole tile; focusing it with the keyboard reveals the details. A touch screen
 * (`hover: none`) cannot hover, and the loan cards above already list the same seven loans with their
 * amounts and terms, so there the grid is not shown at all: a phone scrolls past the loans once.
 */
export function LoanHoverGrid() {
  return (
    <HomeSection
      id="glance-title"
      className="on-dark bg-navy-950 [@media(hover:none)]:hidden"
      tone="dark"
      eyebrow="Loans at a Glance"
      title="Find the Right Fit"
      intro="Compare amounts, rates and terms side by side, then open any loan for the full picture."
    >
      <p className="mt-2 text-center text-sm text-navy-100">
        Hover over a loan, or move to it with the Tab key, to see its details.
      </p>
      <CardGrid
        items={loans}
        itemKey={(loan) => loan.slug}
        className="mt-12 flex flex-wrap justify-center gap-4"
        itemClassName="w-full sm:w-[calc((100%-1rem)/2)] lg:w-[calc((100%-3rem)/4)]"
      >
        {(loan) => <Tile loan={loan} />}
      </CardGrid>
    </HomeSection>
  );
}
