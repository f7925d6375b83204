import * as arrowRightIcon from "lucide-react/icons/arrow-right";
import { Link } from "react-router";
import { LoanCalculator } from "~/components/calculator/loan-calculator";
import { HomeSection } from "./section-heading";
import { inlineIcon } from "~/components/ui/inline-icon";

const ArrowRight = inlineIcon(arrowRightIcon);

/** The embedded loan calculator (docs/requirements.md §2), with a way on to the full calculator page. */
export function CalculatorSection() {
  return (
    <HomeSection
      id="calculator-title"
      className="bg-navy-50"
      eyebrow="Loan Calculator"
      title="Estimate Your Monthly Payment"
      intro="Adjust the amount, rate and term to see what a loan could cost. Results are estimates only; your actual rate and payment are set at approval."
    >
      <LoanCalculator headingLevel="h3" className="mt-12" />
      <p className="mt-8 text-center">
        <Link to="/calculator" className="rounded-sm font-semibold text-link hover:underline">
          See the full calculator with an amortization schedule
          <ArrowRight aria-hidden="true" className="ml-1.5 inline size-4 align-[-0.125em]" />
        </Link>
      </p>
    </HomeSection>
  );
}
