import * as infoIcon from "lucide-react/icons/info";
import { cn } from "~/utils/cn";
import { inlineIcon } from "~/components/ui/inline-icon";

const Info = inlineIcon(infoIcon);

/** The services disclaimer (docs/requirements.md §2): approval is subject to underwriting. */
export function UnderwritingNote({ className }: { className?: string }) {
  return (
    <aside
      aria-label="Loan disclaimer"
      className={cn("flex items-start gap-3 rounded-xl border border-gold-500 bg-gold-200/25 p-5 text-sm text-slate-800", className)}
    >
      <Info aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-gold-700" />
      <p>
        <strong className="font-semibold text-foreground">Approval is subject to underwriting.</strong> All loans are
        subject to credit review, verification of the information you provide and, where a loan is secured, appraisal of
        the collateral. Amounts, rates (5.99% to 35.99% APR) and terms shown are ranges: the offer you receive depends
        on your credit profile, income, collateral and the loan term you choose. Not every applicant will qualify.
      </p>
    </aside>
  );
}
