import { LoanCard } from "~/components/loans/loan-card";
import { LinkButton } from "~/components/link-button";
import { LoanRow } from "./loan-row";
import { HomeSection } from "./section-heading";

/** The seven loan cards, each with Learn More (docs/requirements.md §2). */
export function LoanCardsSection() {
  return (
    <HomeSection
      id="loans-title"
      eyebrow="Our Loan Solutions"
      title="Financing for Every Goal"
      intro="Seven loan types, one straightforward process. All rates are 5.99% to 35.99% APR."
    >
      <LoanRow gap="gap-6" itemClassName="w-full sm:w-[calc(50%-0.75rem)] lg:w-[calc((100%-3rem)/3)]">
        {(loan) => <LoanCard loan={loan} />}
      </LoanRow>
      <div className="mt-10 text-center">
        <LinkButton to="/services" variant="outline" size="lg">
          Compare All Loan Services
        </LinkButton>
      </div>
    </HomeSection>
  );
}
