import { Link } from "react-router";
import { LoanCard } from "~/components/loans/loan-card";
import { Reveal } from "~/components/reveal";
import { Button } from "~/components/ui/button";
import { loans } from "~/content/loans";
import { SectionHeading } from "./section-heading";

/** The seven loan cards, each with Learn More (spec 000 §2). */
export function LoanCardsSection() {
  return (
    <section aria-labelledby="loans-title" className="py-16 sm:py-24">
      <Reveal className="mx-auto max-w-7xl px-4 sm:px-6">
        <SectionHeading
          id="loans-title"
          eyebrow="Our Loan Solutions"
          title="Financing for Every Goal"
          intro="Seven loan types, one straightforward process. All rates are 5.99% to 35.99% APR."
        />
        <ul className="mt-12 flex flex-wrap justify-center gap-6">
          {loans.map((loan) => (
            <li key={loan.slug} className="w-full sm:w-[calc(50%-0.75rem)] lg:w-[calc((100%-3rem)/3)]">
              <LoanCard loan={loan} />
            </li>
          ))}
        </ul>
        <div className="mt-10 text-center">
          <Button asChild variant="outline" size="lg">
            <Link to="/services">Compare All Loan Services</Link>
          </Button>
        </div>
      </Reveal>
    </section>
  );
}
