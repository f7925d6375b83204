import type { Route } from "./+types/home";
import { CalculatorSection } from "~/components/home/calculator-section";
import { ClaimsBand } from "~/components/home/claims-band";
import { ClosingCta } from "~/components/home/closing-cta";
import { HomeHero } from "~/components/home/hero";
import { LoanCardsSection } from "~/components/home/loan-cards-section";
import { LoanHoverGrid } from "~/components/home/loan-hover-grid";
import { TestimonialsPreview } from "~/components/home/testimonials-preview";
import { WhyChooseUs } from "~/components/home/why-choose-us";
import { pageMeta, site } from "~/content/site";

export const meta: Route.MetaFunction = () =>
  pageMeta(
    site.tagline,
    "Private loans for individuals, investors and businesses across the United States: personal, business, private, hard money, debt consolidation, auto and home improvement loans, with a decision within 24 hours.",
  );

export default function Home() {
  return (
    <>
      <HomeHero />
      <ClaimsBand />
      <WhyChooseUs />
      <LoanCardsSection />
      <LoanHoverGrid />
      <CalculatorSection />
      <TestimonialsPreview />
      <ClosingCta />
    </>
  );
}
