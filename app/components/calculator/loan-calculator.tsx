import { Calculator as CalculatorIcon, Info } from "lucide-react";
import { useDeferredValue, useId, useMemo, useState } from "react";
import { Link } from "react-router";
import { AmountInput } from "~/components/ui/amount-input";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { applyLink } from "~/domain/calculator-link";
import { LOAN_DURATIONS } from "~/domain/enums";
import { formatAmountInput, termLabel } from "~/domain/formats";
import { centsFromDollars, dollarsOf, formatMoney, parseAmountInput, roundToCents, roundToRate } from "~/domain/money";
import {
  amortizationSchedule,
  CALCULATOR_DEFAULTS,
  calculatorProblems,
  estimateLoan,
  LOAN_AMOUNT_BOUNDS,
  LOAN_AMOUNT_WHOLE_DOLLARS,
  NEVER_REPAYS_WARNING,
  RATE_BOUNDS,
  repaysInEqualPayments,
  yearlySchedule,
  type LoanEstimate,
} from "~/domain/loan-math";
import { cn } from "~/utils/cn";
import { AmortizationChart } from "./amortization-chart";
import { AmortizationSchedule } from "./amortization-schedule";
import { RATE_HINT, RATE_INPUT } from "./rate-input";

export const APR_STATEMENT = `Rates from ${RATE_BOUNDS.min}% to ${RATE_BOUNDS.max}% APR; your rate depends on credit, term and collateral.`;

export type LoanCalculatorValues = {
  /** Loan amount in dollars as typed (whole dollars; cents are refused with a message). */
  amount: number;
  /** Annual interest rate in percent (8.5 = 8.5 %). */
  ratePercent: number;
  /** Term in months (one of LOAN_DURATIONS). */
  termMonths: number;
};

export type LoanCalculatorProps = {
  /** Also show the principal-versus-interest chart and the yearly amortization schedule. Default false. */
  detailed?: boolean;
  /** Show the 'Apply Now with This Estimate' button (to /apply with the current figures). Default false. */
  showApplyButton?: boolean;
  /** Level of the calculator's own headings, to fit the page's outline. Default "h2". */
  headingLevel?: "h2" | "h3";
  /** Starting values; each defaults to CALCULATOR_DEFAULTS (50,000 / 8.5 % / 60 months). */
  initialValues?: Partial<LoanCalculatorValues>;
  className?: string;
};

/**
 * The loan calculator: amount, rate and term in; monthly payment, total payment and total interest out,
 * updated as you type (the figures come from ~/domain/loan-math). Works without a network: it never
 * loads or posts anything. Embeddable anywhere with no props.
 */
export function LoanCalculator({
  detailed = false,
  showApplyButton = false,
  headingLevel = "h2",
  initialValues,
  className,
}: LoanCalculatorProps = {}) {
  const id = useId();
  const Heading = headingLevel;
  const [amountText, setAmountText] = useState(() => formatAmountInput(initialValues?.amount ?? CALCULATOR_DEFAULTS.amount));
  const [rateText, setRateText] = useState(() => String(initialValues?.ratePercent ?? CALCULATOR_DEFAULTS.ratePercent));
  const [termMonths, setTermMonths] = useState<number>(() => initialValues?.termMonths ?? CALCULATOR_DEFAULTS.termMonths);

  const values: LoanCalculatorValues = {
    amount: parseAmountInput(amountText),
    ratePercent: rateText.trim() === "" ? Number.NaN : Number(rateText),
    termMonths,
  };
  const problems = calculatorProblems(values);
  // Above the largest loan the figures would mean nothing (a trillion dollars is not a loan we make); an
  // amount with cents is refused (its message is on the field), never figured as some other amount.
  const estimate =
    values.amount > LOAN_AMOUNT_BOUNDS.max || problems.amount === LOAN_AMOUNT_WHOLE_DOLLARS
      ? null
      : estimateLoan(roundToCents(values.amount), roundToRate(values.ratePercent), values.termMonths);
  // A payment that never repays would hide a balloon behind equal-looking figures: a warning instead.
  const repays = estimate !== null && repaysInEqualPayments(roundToCents(values.amount), roundToRate(values.ratePercent), values.termMonths);
  const applicable = repays && !problems.amount && !problems.rate;

  const amountId = `${id}-amount`;
  const rateId = `${id}-rate`;
  const termId = `${id}-term`;
  const resultsHeadingId = `${id}-results`;

  return (
    <div className={cn("flex flex-col gap-8", className)}>
      <div className="grid gap-6 lg:grid-cols-2">
        <section aria-labelledby={`${id}-inputs`} className="rounded-xl border border-border bg-card p-6 shadow-sm">
          <Heading id={`${id}-inputs`} className="flex items-center gap-2 text-xl font-semibold text-primary">
            <CalculatorIcon aria-hidden="true" className="size-5 text-gold-700" />
            Loan Details
          </Heading>
          <div className="mt-6 flex flex-col gap-5">
            <Field id={amountId} label="Loan Amount" errors={problems.amount}>
              {(a11y) => <AmountInput {...a11y} name="loanAmount" value={amountText} onValue={setAmountText} />}
            </Field>
            <Field id={rateId} label="Interest Rate (%)" hint={RATE_HINT} errors={problems.rate}>
              {(a11y) => (
                <Input
                  {...a11y}
                  name="interestRate"
                  {...RATE_INPUT}
                  value={rateText}
                  onChange={(event) => setRateText(event.currentTarget.value)}
                />
              )}
            </Field>
            <div className="flex flex-col gap-2">
              <Label htmlFor={termId}>Loan Term</Label>
              <select
                id={termId}
                name="loanTerm"
                value={termMonths}
                onChange={(event) => setTermMonths(Number(event.currentTarget.value))}
                className="h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-base text-foreground focus-visible:outline-3 focus-visible:outline-offset-1 sm:text-sm"
              >
                {LOAN_DURATIONS.map((months) => (
                  <option key={months} value={months}>
                    {termLabel(months)}
                  </option>
                ))}
              </select>
            </div>
          </div>
        </section>

        <section aria-labelledby={resultsHeadingId} className="on-dark flex flex-col rounded-xl bg-primary p-6 text-primary-foreground shadow-sm">
          <Heading id={resultsHeadingId} className="text-xl font-semibold">
            Your Estimate
          </Heading>
          <div aria-live="polite" aria-atomic="true" className="mt-6 flex-1" data-testid="calculator-results">
            {estimate && repays ? (
              <Figures estimate={estimate} />
            ) : estimate ? (
              <p className="font-semibold text-gold-400" data-testid="never-repays">
                {NEVER_REPAYS_WARNING}
              </p>
            ) : (
              <NoResults values={values} wholeDollars={problems.amount === LOAN_AMOUNT_WHOLE_DOLLARS} />
            )}
          </div>
          <p className="mt-6 flex items-start gap-2 border-t border-white/20 pt-4 text-sm text-navy-100">
            <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-gold-400" />
            <span>{APR_STATEMENT}</span>
          </p>
          {showApplyButton ? <ApplyButton values={values} estimate={applicable ? estimate : null} /> : null}
        </section>
      </div>

      {detailed ? <Details values={values} estimate={repays ? estimate : null} headingLevel={headingLevel} /> : null}
    </div>
  );
}

/** The three results: the monthly payment across the panel, the two totals side by side below it. */
const figures = [
  { label: "Monthly Payment", key: "monthlyPaymentCents", testId: "monthly-payment", wide: true },
  { label: "Total Payment", key: "totalPaymentCents", testId: "total-payment", wide: false },
  { label: "Total Interest", key: "totalInterestCents", testId: "total-interest", wide: false },
] as const;

function Figures({ estimate }: { estimate: LoanEstimate }) {
  return (
    <dl className="grid grid-cols-2 gap-x-4 gap-y-5">
      {figures.map((figure) => (
        <div key={figure.key} className={figure.wide ? "col-span-2" : undefined}>
          <dt className="text-sm text-navy-100">{figure.label}</dt>
          <dd
            className={figure.wide ? "text-4xl font-bold tracking-tight text-gold-400" : "text-xl font-semibold"}
            data-testid={figure.testId}
          >
            {formatMoney(estimate[figure.key])}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function NoResults({ values, wholeDollars }: { values: LoanCalculatorValues; wholeDollars: boolean }) {
  const message = wholeDollars
    ? "Enter the amount in whole dollars to see your estimate."
    : !(values.amount > 0)
    ? "Enter a loan amount above zero to see your estimate."
    : values.amount > LOAN_AMOUNT_BOUNDS.max
      ? `Enter an amount up to ${formatMoney(centsFromDollars(LOAN_AMOUNT_BOUNDS.max), { cents: false })} to see your estimate.`
      : !Number.isFinite(values.ratePercent) || values.ratePercent < 0
      ? "Enter an interest rate to see your estimate."
      : "Choose a loan term to see your estimate.";
  return <p className="text-navy-100">{message}</p>;
}

/** Offered only for an estimate the application would accept (`estimate` null otherwise). */
function ApplyButton({ values, estimate }: { values: LoanCalculatorValues; estimate: LoanEstimate | null }) {
  // At least 44 px tall, and taller when a narrow phone wraps the label onto two lines.
  const look =
    "mt-6 inline-flex min-h-11 items-center justify-center gap-2 rounded-md bg-accent px-6 py-2 text-center text-base font-semibold text-accent-foreground transition-colors hover:bg-gold-300";
  if (!estimate) {
    return (
      <button type="button" disabled className={cn(look, "cursor-not-allowed opacity-60")}>
        Apply Now with This Estimate
      </button>
    );
  }
  // discover="none": the calculator makes no network calls while you use it (route discovery included).
  return (
    <Link to={applyLink({ ...values, monthlyPayment: dollarsOf(estimate.monthlyPaymentCents) })} discover="none" className={look}>
      Apply Now with This Estimate
    </Link>
  );
}

function Details({
  values,
  estimate,
  headingLevel,
}: {
  values: LoanCalculatorValues;
  estimate: LoanEstimate | null;
  headingLevel: "h2" | "h3";
}) {
  const Heading = headingLevel;
  const id = useId();
  // The schedule may be 360 rows: let typing stay responsive and redraw it just after.
  const deferred = useDeferredValue(values);
  const years = useMemo(
    () => yearlySchedule(amortizationSchedule(roundToCents(deferred.amount), roundToRate(deferred.ratePercent), deferred.termMonths)),
    [deferred.amount, deferred.ratePercent, deferred.termMonths],
  );
  if (!estimate || years.length === 0) return null;
  return (
    <section aria-labelledby={`${id}-heading`} className="rounded-xl border border-border bg-card p-6 shadow-sm">
      <Heading id={`${id}-heading`} className="text-xl font-semibold text-primary">
        Principal and Interest Over Time
      </Heading>
      <p className="mt-2 text-sm text-muted-foreground">
        Each bar is one year of payments: the part that repays the loan and the part that pays interest. The table
        below lists the same figures; expand a year to see its months.
      </p>
      <AmortizationChart years={years} principalCents={roundToCents(deferred.amount)} className="mt-6" />
      <AmortizationSchedule years={years} className="mt-8" />
    </section>
  );
}
