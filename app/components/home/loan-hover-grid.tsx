import * as arrowRightIcon from "lucide-react/icons/arrow-right";
import { Link } from "react-router";
import { LoanIcon } from "~/components/loans/loan-icon";
import { formatDollars, type LoanProduct } from "~/content/loans";
import { LoanRow } from "./loan-row";
import { HomeSection } from "./section-heading";
import { inlineIcon } from "~/components/ui/inline-icon";

const ArrowRight = inlineIcon(arrowRightIcon);

function Tile({ loan }: { loan: LoanProduct }) {
  return (
    <div
      className="group loan-tile"
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
        <div className="loan-tile-summary">
          <p className="text-sm text-navy-100">{loan.tagline}</p>
          <p className="mt-auto pt-4 text-sm font-semibold text-gold-400">From {formatDollars(loan.amount.min)}</p>
        </div>
        <dl className="loan-tile-details">
          <div>
            <dt className="loan-tile-term">Amount</dt>
            <dd className="font-medium text-white">{loan.amount.display}</dd>
          </div>
          <div>
            <dt className="loan-tile-term">Rate</dt>
            <dd className="font-medium text-white">{loan.rate.display}</dd>
          </div>
          <div>
            <dt className="loan-tile-term">Term</dt>
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
      <LoanRow gap="gap-4" itemClassName="w-full sm:w-[calc((100%-1rem)/2)] lg:w-[calc((100%-3rem)/4)]">
        {(loan) => <Tile loan={loan} />}
      </LoanRow>
    </HomeSection>
  );
}
