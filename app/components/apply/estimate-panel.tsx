import { Calculator } from "lucide-react";
import { formatPercent, formatUsd } from "~/domain/formats";
import type { PriorEstimate } from "~/domain/calculator-link";
import { termLabel } from "~/domain/labels";

/** The calculator figures the applicant arrived with (shown above step 1). */
export function EstimatePanel({ estimate }: { estimate: PriorEstimate }) {
  const rows: [string, string][] = [];
  if (estimate.loanAmount !== undefined) rows.push(["Loan Amount", formatUsd(estimate.loanAmount, { cents: false })]);
  if (estimate.interestRate !== undefined) rows.push(["Interest Rate", formatPercent(estimate.interestRate)]);
  if (estimate.loanTerm !== undefined) rows.push(["Loan Term", termLabel(estimate.loanTerm)]);
  if (estimate.monthlyPayment !== undefined) rows.push(["Monthly Payment", formatUsd(estimate.monthlyPayment)]);
  return (
    <section aria-labelledby="apply-estimate-heading" className="rounded-xl border border-gold-500 bg-gold-200/25 p-4 sm:p-5">
      <h2 id="apply-estimate-heading" className="flex items-center gap-2 text-base font-semibold text-primary">
        <Calculator aria-hidden="true" className="size-5 text-gold-700" />
        Your Calculator Estimate
      </h2>
      <dl className="mt-3 grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
        {rows.map(([label, value]) => (
          <div key={label} className="flex flex-col">
            <dt className="text-slate-700">{label}</dt>
            <dd className="text-base font-semibold text-foreground">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-3 text-xs text-slate-700">An estimate only. Your rate and terms are set when your application is reviewed.</p>
    </section>
  );
}
