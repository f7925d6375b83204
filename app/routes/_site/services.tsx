import * as arrowRightIcon from "lucide-react/icons/arrow-right";
import * as calculatorIcon from "lucide-react/icons/calculator";
import * as checkCircle2Icon from "lucide-react/icons/circle-check";
import * as messageSquareIcon from "lucide-react/icons/message-square";
import type { Route } from "./+types/services";
import { useApplyHref } from "~/components/auth/apply-href";
import { LoanFacts } from "~/components/loans/loan-facts";
import { LoanIcon } from "~/components/loans/loan-icon";
import { LoanImage } from "~/components/loans/loan-image";
import { UnderwritingNote } from "~/components/loans/underwriting-note";
import { ButtonRow, LinkButton } from "~/components/link-button";
import { CtaPanel } from "~/components/loans/cta-panel";
import { loans, type LoanProduct } from "~/content/loans";
import { pageMeta } from "~/content/site";
import { cn } from "~/utils/cn";
import { inlineIcons } from "~/components/ui/inline-icon";

const [ArrowRight, Calculator, CheckCircle2, MessageSquare] = inlineIcons(arrowRightIcon, calculatorIcon, checkCircle2Icon, messageSquareIcon);

export const meta: Route.MetaFunction = () =>
  pageMeta(
    "Loan Services",
    "Compare our seven loan types: personal, business, private, hard money / bridge, debt consolidation, auto and home improvement loans from $5,000 to $50,000,000 at 5.99% to 35.99% APR.",
  );

/** One loan: a stacked card on small screens; on large ones picture and text side by side, alternating. */
function LoanSection({ loan, index }: { loan: LoanProduct; index: number }) {
  const headingId = `loan-${loan.slug}-title`;
  const flipped = index % 2 === 1;
  const applyHref = useApplyHref(loan.applyHref);
  return (
    <article
      aria-labelledby={headingId}
      className={cn(
        "grid items-center gap-6 overflow-hidden rounded-xl border border-border bg-white shadow-sm",
        "lg:grid-cols-2 lg:gap-12 lg:overflow-visible lg:rounded-none lg:border-0 lg:bg-transparent lg:shadow-none",
      )}
    >
      <div className={cn(flipped && "lg:order-2")}>
        <LoanImage loan={loan} eager={index === 0} className="aspect-[3/2] object-cover lg:rounded-2xl lg:shadow-md" />
      </div>
      <div className="px-6 pb-6 lg:px-0 lg:pb-0">
        <span className="flex size-11 items-center justify-center rounded-lg bg-primary text-gold-400">
          <LoanIcon name={loan.icon} className="size-6" />
        </span>
        <h2 id={headingId} className="mt-4 scroll-mt-6 text-2xl font-bold tracking-tight text-primary sm:text-3xl">
          {loan.title}
        </h2>
        <p className="mt-2 text-lg font-medium text-slate-800">{loan.tagline}</p>
        <p className="mt-3 text-muted-foreground">{loan.description}</p>
        <LoanFacts loan={loan} className="mt-6 sm:grid-cols-2" />
        <ul className="mt-6 grid gap-2">
          {loan.benefits.slice(0, 3).map((benefit) => (
            <li key={benefit} className="flex items-start gap-2 text-slate-700">
              <CheckCircle2 aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-gold-700" />
              {benefit}
            </li>
          ))}
        </ul>
        <ButtonRow className="mt-8">
          <LinkButton to={loan.href} iconAfter={ArrowRight}>
            Learn More<span className="sr-only"> about {loan.title}</span>
          </LinkButton>
          <LinkButton to={applyHref} variant="outline">
            Apply Now<span className="sr-only"> for {loan.title}</span>
          </LinkButton>
        </ButtonRow>
      </div>
    </article>
  );
}

export default function ServicesPage() {
  return (
    <>
      <section aria-labelledby="services-title" className="on-dark bg-gradient-to-br from-navy-950 to-navy-800 text-white">
        <div className="mx-auto max-w-7xl px-4 py-14 sm:px-6 sm:py-20">
          <p className="text-sm font-semibold tracking-widest text-gold-400 uppercase">Our Loan Services</p>
          <h1 id="services-title" className="mt-2 text-4xl font-extrabold tracking-tight sm:text-5xl">
            Loan Services
          </h1>
          <p className="mt-4 max-w-2xl text-lg text-navy-100">
            Seven ways to borrow, one straightforward process. From a $5,000 personal loan to $50,000,000 of business or
            real estate financing, every loan is underwritten by people who take the time to understand your situation,
            with a decision within 24 hours.
          </p>
          <nav aria-label="Loan types" className="mt-8">
            <ul className="flex flex-wrap gap-2">
              {loans.map((loan) => (
                <li key={loan.slug}>
                  <a
                    href={`#loan-${loan.slug}-title`}
                    className="inline-flex items-center gap-1.5 rounded-full border border-white/25 px-3 py-1.5 text-sm font-medium text-white hover:border-gold-400 hover:text-gold-200"
                  >
                    <LoanIcon name={loan.icon} className="size-4 text-gold-400" />
                    {loan.title}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        </div>
      </section>

      <div className="mx-auto flex w-full max-w-7xl flex-col gap-8 px-4 py-12 sm:px-6 lg:gap-24 lg:py-20">
        {loans.map((loan, index) => (
          <LoanSection key={loan.slug} loan={loan} index={index} />
        ))}
      </div>

      <div className="mx-auto w-full max-w-7xl px-4 sm:px-6">
        <UnderwritingNote />
      </div>

      <CtaPanel
        id="services-cta-title"
        centered
        title="Not Sure Which Loan Is Right for You?"
        text="Talk it through with a lending specialist, or run the numbers yourself first with our loan calculator."
      >
        <ButtonRow centered className="mt-8">
          <LinkButton to="/contact" variant="accent" size="lg" icon={MessageSquare}>
            Contact Us
          </LinkButton>
          <LinkButton to="/calculator" tone="on-dark" size="lg" icon={Calculator}>
            Use the Loan Calculator
          </LinkButton>
        </ButtonRow>
      </CtaPanel>
    </>
  );
}
