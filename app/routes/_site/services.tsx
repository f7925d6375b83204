import { ArrowRight, Calculator, CheckCircle2, MessageSquare } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/services";
import { LoanFacts } from "~/components/loans/loan-facts";
import { LoanIcon } from "~/components/loans/loan-icon";
import { LoanImage } from "~/components/loans/loan-image";
import { UnderwritingNote } from "~/components/loans/underwriting-note";
import { Button } from "~/components/ui/button";
import { loans, type LoanProduct } from "~/content/loans";
import { pageMeta } from "~/content/site";
import { cn } from "~/utils/cn";

export const meta: Route.MetaFunction = () =>
  pageMeta(
    "Loan Services",
    "Compare our seven loan types: personal, business, private, hard money / bridge, debt consolidation, auto and home improvement loans from $5,000 to $50,000,000 at 5.99% to 35.99% APR.",
  );

/** One loan: a stacked card on small screens; on large ones picture and text side by side, alternating. */
function LoanSection({ loan, index }: { loan: LoanProduct; index: number }) {
  const headingId = `loan-${loan.slug}-title`;
  const flipped = index % 2 === 1;
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
        <div className="mt-8 flex flex-col gap-3 sm:flex-row">
          <Button asChild>
            <Link to={loan.href}>
              Learn More<span className="sr-only"> about {loan.title}</span>
              <ArrowRight aria-hidden="true" />
            </Link>
          </Button>
          <Button asChild variant="outline">
            <Link to={loan.applyHref}>
              Apply Now<span className="sr-only"> for {loan.title}</span>
            </Link>
          </Button>
        </div>
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

      <section aria-labelledby="services-cta-title" className="mx-auto w-full max-w-7xl px-4 py-12 sm:px-6 sm:py-16">
        <div className="on-dark rounded-2xl bg-primary px-6 py-10 text-center text-white sm:px-12">
          <h2 id="services-cta-title" className="text-2xl font-bold tracking-tight sm:text-3xl">
            Not Sure Which Loan Is Right for You?
          </h2>
          <p className="mx-auto mt-3 max-w-2xl text-navy-100">
            Talk it through with a lending specialist, or run the numbers yourself first with our loan calculator.
          </p>
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
            <Button asChild variant="accent" size="lg">
              <Link to="/contact">
                <MessageSquare aria-hidden="true" />
                Contact Us
              </Link>
            </Button>
            <Button asChild variant="outline" size="lg" className="border-white bg-transparent text-white hover:bg-white/10">
              <Link to="/calculator">
                <Calculator aria-hidden="true" />
                Use the Loan Calculator
              </Link>
            </Button>
          </div>
        </div>
      </section>
    </>
  );
}
