import { ArrowRight } from "lucide-react";
import { LinkButton } from "~/components/link-button";
import { formatDate } from "~/domain/formats";
import { loanTypeLabel } from "~/domain/labels";
import { nextStep } from "~/domain/next-step";
import type { DraftSummary } from "~/domain/views/application-draft";
import { DiscardDraft } from "./discard-draft";
import { ItemCard } from "./item-card";

const STEP_COUNT = 5;

/**
 * Save and Finish Later: one card per saved application, with the step reached and when
 * the draft expires; its link resumes the wizard on that step, on this device or any other.
 */
export function ContinueApplicationSection({ drafts, timeZone }: { drafts: DraftSummary[]; timeZone: string }) {
  if (drafts.length === 0) return null;
  return (
    <section aria-labelledby="drafts-heading">
      <h2 id="drafts-heading" className="text-2xl font-bold tracking-tight text-primary">
        Applications in Progress
      </h2>
      <ul className="mt-5 flex flex-col gap-4" aria-label="Your saved applications">
        {drafts.map((draft) => (
          <li key={draft.loanType} data-testid="draft" data-loan-type={draft.loanType}>
            <ItemCard
              heading={<h3 className="min-w-0 text-lg font-semibold text-primary">{loanTypeLabel(draft.loanType)}</h3>}
              badge={
                <span className="rounded-full bg-navy-50 px-3 py-1 text-sm font-semibold text-navy-700">
                  Step {draft.step} of {STEP_COUNT}
                </span>
              }
            >
              <p className="mt-3 text-sm text-muted-foreground">
                Saved at {draft.stepTitle ? <span className="font-semibold text-foreground">{draft.stepTitle}</span> : "your last step"}. Kept until{" "}
                <span className="font-semibold text-foreground">{formatDate(draft.expiresAt, timeZone)}</span>, then removed with its documents.
              </p>
              <p className="mt-2 text-sm text-slate-800" data-testid="draft-next-step">
                <strong className="font-semibold">Next step:</strong> {nextStep({ kind: "draft" })}
              </p>
              <div className="mt-4 flex flex-wrap items-center justify-end gap-3">
                <DiscardDraft loanType={draft.loanType} />
                <LinkButton to={`/apply?loanType=${encodeURIComponent(draft.loanType)}`} size="sm" iconAfter={ArrowRight} className="w-full sm:w-auto">
                  Continue Your Application<span className="sr-only"> for a {loanTypeLabel(draft.loanType)}</span>
                </LinkButton>
              </div>
            </ItemCard>
          </li>
        ))}
      </ul>
    </section>
  );
}
