import { ArrowRight } from "lucide-react";
import { Link } from "react-router";
import { LoanCalculator } from "~/components/calculator/loan-calculator";
import { Reveal } from "~/components/reveal";
import { SectionHeading } from "./section-heading";

/** The embedded loan calculator (spec 000 §2), with a way on to the full calculator page. */
export function CalculatorSection() {
  return (
    <section aria-labelledby="calculator-title" className="bg-navy-50 py-16 sm:py-24">
      <Reveal className="mx-auto max-w-7xl px-4 sm:px-6">
        <SectionHeading
          id="calculator-title"
          eyebrow="Loan Calculator"
          title="Estimate Your Monthly Payment"
          intro="Adjust the amount, rate and term to see what a loan could cost. Results are estimates only; your actual rate and payment are set at approval."
        />
        <LoanCalculator headingLevel="h3" className="mt-12" />
        <p className="mt-8 text-center">
          <Link to="/calculator" className="rounded-sm font-semibold text-link hover:underline">
            See the full calculator with an amortization schedule
            <ArrowRight aria-hidden="true" className="ml-1.5 inline size-4 align-[-0.125em]" />
          </Link>
        </p>
      </Reveal>
    </section>
  );
}
