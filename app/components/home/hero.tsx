import * as arrowRightIcon from "lucide-react/icons/arrow-right";
import * as calculatorIcon from "lucide-react/icons/calculator";
import * as checkCircle2Icon from "lucide-react/icons/circle-check";
import { ButtonRow, LinkButton } from "~/components/link-button";
import { useApplyHref } from "~/components/auth/apply-href";
import { LOAN_RATE } from "~/content/loans";
import { site } from "~/content/site";
import { TypingTitle } from "./typing-title";
import { inlineIcons } from "~/components/ui/inline-icon";

const [ArrowRight, Calculator, CheckCircle2] = inlineIcons(arrowRightIcon, calculatorIcon, checkCircle2Icon);

const highlights = [
  "Decision within 24 hours",
  `Rates from ${LOAN_RATE.display}`,
  "Loans from $5,000 to $50,000,000",
] as const;

/** Home hero: the typed title, the tagline, Apply Now (/auth, or /apply when signed in) and Estimate Your Loan (/calculator). */
export function HomeHero() {
  const applyHref = useApplyHref();
  return (
    <section
      aria-labelledby="hero-title"
      className="on-dark relative overflow-hidden bg-gradient-to-br from-navy-950 via-navy-900 to-navy-800 text-white"
    >
      <div className="mx-auto grid max-w-7xl items-center gap-10 px-4 py-14 sm:px-6 sm:py-20 lg:grid-cols-[1.1fr_1fr] lg:py-24">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full border border-gold-400/40 bg-white/5 px-3 py-1 text-sm font-medium text-gold-200">
            <span aria-hidden="true" className="size-2 rounded-full bg-gold-400" />
            Private lending across the United States
          </p>
          <TypingTitle
            id="hero-title"
            text={site.name}
            className="mt-5 text-5xl leading-[1.05] font-extrabold tracking-tight sm:text-6xl lg:text-7xl"
          />
          <p className="mt-4 text-xl font-semibold text-gold-200 sm:text-2xl">{site.tagline}</p>
          <p className="mt-4 max-w-xl text-lg text-navy-100">
            Discreet, fast and secure financing for individuals, investors and businesses. Tell us what you need, and a
            real lending specialist gives you a clear answer within 24 hours.
          </p>
          <ButtonRow className="mt-8">
            <LinkButton to={applyHref} variant="accent" size="lg" iconAfter={ArrowRight}>
              Apply Now
            </LinkButton>
            <LinkButton to="/calculator" tone="on-dark" size="lg" icon={Calculator}>
              Estimate Your Loan
            </LinkButton>
          </ButtonRow>
          <ul className="mt-8 flex flex-col gap-2 text-sm text-navy-100 sm:flex-row sm:flex-wrap sm:gap-x-6">
            {highlights.map((item) => (
              <li key={item} className="flex items-center gap-2">
                <CheckCircle2 aria-hidden="true" className="size-4 shrink-0 text-gold-400" />
                {item}
              </li>
            ))}
          </ul>
        </div>
        <div className="mx-auto w-full max-w-md lg:max-w-none">
          <img
            src="/images/home/hero.svg"
            alt="A house, a shield, a stack of gold coins and a rising chart: secure private lending"
            width={560}
            height={440}
            loading="eager"
            fetchPriority="high"
            decoding="async"
            className="h-auto w-full"
          />
        </div>
      </div>
    </section>
  );
}
