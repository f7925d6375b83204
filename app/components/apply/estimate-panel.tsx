import { Calculator } from "lucide-react";
import { formatPercent, formatUsd } from "~/domain/formats";
import { formatAmount } from "~/domain/money";
import type { PriorEstimate } from "~/domain/calculator-link";
import { termLabel } from "~/domain/labels";
import { FactList, type Fact } from "./fact-list";

const LOOK = {
  list: "mt-3 grid grid-cols-2 gap-3 text-sm sm:grid-cols-4",
  item: "flex flex-col",
  label: "text-slate-700",
  value: "text-base font-semibold text-foreground",
};

/** The calculator figures the applicant arrived with (shown above step 1). */
export function EstimatePanel({ estimate }: { estimate: PriorEstimate }) {
  const facts: Fact[] = [];
  if (estimate.loanAmount !== undefined) facts.push(["Loan Amount", formatAmount(estimate.loanAmount)]);
  if (estimate.interestRate !== undefined) facts.push(["Interest Rate", formatPercent(estimate.interestRate)]);
  if (estimate.loanTerm !== undefined) facts.push(["Loan Term", termLabel(estimate.loanTerm)]);
  if (estimate.monthlyPayment !== undefined) facts.push(["Monthly Payment", formatUsd(estimate.monthlyPayment)]);
  return (
    <section aria-labelledby="apply-estimate-heading" className="rounded-xl border border-gold-500 bg-gold-200/25 p-4 sm:p-5">
      <h2 id="apply-estimate-heading" className="flex items-center gap-2 text-base font-semibold text-primary">
        <Calculator aria-hidden="true" className="size-5 text-gold-700" />
        Your Calculator Estimate
      </h2>
      <FactList facts={facts} look={LOOK} />
      <p className="mt-3 text-xs text-slate-700">An estimate only. Your rate and terms are set when your application is reviewed.</p>
    </section>
  );
}
