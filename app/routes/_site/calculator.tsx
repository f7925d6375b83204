import * as alertTriangleIcon from "lucide-react/icons/triangle-exclamation-point";
import * as calendarClockIcon from "lucide-react/icons/calendar-clock";
import * as circleDollarSignIcon from "lucide-react/icons/circle-dollar-sign";
import * as percentIcon from "lucide-react/icons/percent";
import type { Route } from "./+types/calculator";
import { LoanCalculator } from "~/components/calculator/loan-calculator";
import { CALCULATOR_SEO } from "~/content/seo";
import { pageMeta } from "~/content/site";
import { inlineIcons } from "~/components/ui/inline-icon";

const [AlertTriangle, CalendarClock, CircleDollarSign, Percent] = inlineIcons(
  alertTriangleIcon, calendarClockIcon, circleDollarSignIcon, percentIcon,
);

/**
 * /calculator: the calculator with its chart and schedule, what the figures mean, and the way on to
 * /apply with the estimate. No loader and no action: the page makes no network calls.
 */

export const meta: Route.MetaFunction = () => pageMeta(CALCULATOR_SEO.title, CALCULATOR_SEO.description);

const explanations = [
  {
    icon: CalendarClock,
    title: "Monthly payment",
    text: "The fixed amount you would pay each month. It is the standard amortized payment: each month's interest is the yearly rate divided by 12, charged on what you still owe, and the rest of the payment repays the loan, so the balance reaches zero with the last payment.",
  },
  {
    icon: Percent,
    title: "Total interest paid",
    text: "What borrowing costs you over the whole term: the total of all payments minus the amount borrowed. A longer term lowers the monthly payment but raises the total interest.",
  },
  {
    icon: CircleDollarSign,
    title: "Total repayable",
    text: "Everything you would pay back: the monthly payment times the number of months, which is the amount borrowed plus the total interest.",
  },
] as const;

export default function CalculatorPage() {
  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-12 sm:px-6 sm:py-16">
      <header className="max-w-3xl">
        <h1 className="text-3xl font-bold tracking-tight text-primary sm:text-4xl">Loan Calculator</h1>
        <p className="mt-4 text-lg text-muted-foreground">
          Estimate your monthly payment, total interest and total repayment. Change the amount, rate or term and the
          figures update at once.
        </p>
      </header>

      <LoanCalculator detailed showApplyButton headingLevel="h2" className="mt-10" />

      <section aria-labelledby="calculator-explained" className="mt-12">
        <h2 id="calculator-explained" className="text-2xl font-bold text-primary">
          Understanding your results
        </h2>
        <dl className="mt-6 grid gap-6 md:grid-cols-3">
          {explanations.map(({ icon: Icon, title, text }) => (
            <div key={title} className="rounded-xl border border-border bg-card p-6 shadow-sm">
              <dt className="flex items-center gap-2 text-lg font-semibold text-primary">
                <Icon aria-hidden="true" className="size-5 text-gold-700" />
                {title}
              </dt>
              <dd className="mt-3 text-sm leading-relaxed text-muted-foreground">{text}</dd>
            </div>
          ))}
        </dl>
      </section>

      <aside
        aria-label="Estimates only"
        className="mt-10 flex items-start gap-3 rounded-lg border border-gold-500 bg-gold-200/30 p-4 text-sm text-slate-800"
      >
        <AlertTriangle aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-gold-700" />
        <p>
          <strong className="font-semibold">Results are estimates only.</strong> They are not a loan offer or a
          commitment to lend. Your actual rate, payment and terms depend on your credit, the loan term, any collateral
          and our underwriting review, and may include fees not shown here.
        </p>
      </aside>
    </div>
  );
}
