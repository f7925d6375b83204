import { ArrowLeft, ArrowRight, Lock, Save, Send } from "lucide-react";
import { useDeferredValue, useSyncExternalStore } from "react";
import { Button } from "~/components/ui/button";
import { Spinner } from "~/components/ui/spinner";
import { Confirmation } from "./confirmation";
import { EstimatePanel } from "./estimate-panel";
import { UploadProgress, WizardProgress } from "./progress";
import { DocumentsStep } from "./step-documents";
import { FinancialInfoStep } from "./step-financial";
import { LoanDetailsStep } from "./step-loan";
import { PersonalInfoStep } from "./step-personal";
import { ReviewStep } from "./step-review";
import { useApplyWizard, type ApplyWizardProps } from "./use-apply-wizard";
import { STEP_COUNT, type StepNumber } from "./wizard-steps";

export type { ApplyWizardProps };

const STEP_HEADINGS: Record<StepNumber, { title: string; intro: string }> = {
  1: { title: "Personal Information", intro: "Tell us about yourself." },
  2: {
    title: "Loan Details",
    intro: "What you would like to borrow, and why.",
  },
  3: {
    title: "Financial Information",
    intro: "Your employment and finances help us find the right terms.",
  },
  4: {
    title: "Documents & Bank Information",
    intro: "Upload your documents and tell us where funds should go.",
  },
  5: {
    title: "Review & Submit",
    intro: "Check everything, sign, and submit your application.",
  },
};

const noopSubscribe = () => () => {};

/** False on the server and during hydration, true afterwards. */
function useHydrated(): boolean {
  return useSyncExternalStore(
    noopSubscribe,
    () => true,
    () => false,
  );
}

/**
 * The loan application wizard (docs/requirements.md §2 'Loan application', §3-§5, §7, §8): five steps, each checked
 * with its shared schema before moving on, a server draft saved on every step change and by Save and
 * Finish Later (resumable on any device), a browser draft from the first field typed (without the SSN,
 * bank numbers, files or signature), documents held in memory, a drawn signature, and one multipart
 * submission with upload progress. Rendered in the browser only: on the server (and until hydration)
 * a spinner stands in, since the draft lives in localStorage.
 */
export function ApplyWizard(props: ApplyWizardProps) {
  // Deferred: right after hydration the wizard (dozens of fields, long selects) is built in a
  // background render that yields to the browser every few milliseconds, instead of one long task
  // that blocks input on a slow phone. On a client-side navigation the value is true from the first
  // render, and the wizard shows at once.
  const hydrated = useDeferredValue(useHydrated());
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-10 sm:px-6 sm:py-14">
      <div className="mb-8 flex flex-col gap-3">
        <h1 className="text-3xl font-bold tracking-tight text-primary sm:text-4xl">
          Loan Application
        </h1>
        <p className="flex items-start gap-2 text-muted-foreground">
          <Lock
            aria-hidden="true"
            className="mt-1 size-4 shrink-0 text-gold-700"
          />
          Five short steps. Your information is sent over an encrypted
          connection, and sensitive numbers are encrypted before they are
          stored.
        </p>
      </div>
      {hydrated ? (
        <WizardBody {...props} />
      ) : (
        // A screen tall, so the footer starts below the fold and the (taller) wizard replacing this does
        // not push a visible footer down: no layout shift (CLS) when the page hydrates.
        <div
          role="status"
          className="flex min-h-screen flex-col items-center gap-3 py-20 text-muted-foreground"
        >
          <Spinner className="size-8 text-primary" />
          <p>Loading your application...</p>
        </div>
      )}
    </div>
  );
}

function WizardBody(props: ApplyWizardProps) {
  const { estimate } = props;
  const {
    idPrefix,
    step,
    busy,
    progress,
    submittedId,
    containerRef,
    headingRef,
    confirmationRef,
    onContinue,
    onBack,
    stepProps,
    documentProps,
    reviewProps,
    saveForLater,
  } = useApplyWizard(props);

  if (submittedId) {
    return (
      <div className="rounded-xl border border-border bg-card p-6 shadow-sm sm:p-10">
        <Confirmation
          headingRef={confirmationRef}
          applicationId={submittedId}
        />
      </div>
    );
  }

  const heading = STEP_HEADINGS[step];

  return (
    <div ref={containerRef} className="flex flex-col gap-6">
      {step === 1 && estimate ? <EstimatePanel estimate={estimate} /> : null}
      <div className="rounded-xl border border-border bg-card p-4 shadow-sm sm:p-8">
        <WizardProgress step={step} />
        <div className="mt-8 mb-6 flex flex-col gap-1">
          <h2
            ref={headingRef}
            tabIndex={-1}
            id={`${idPrefix}-heading`}
            className="text-2xl font-semibold text-primary focus:outline-none focus-visible:outline-3"
          >
            {heading.title}
          </h2>
          <p className="text-sm text-muted-foreground">
            {heading.intro} {step < 5 ? "Fields marked * are required." : null}
          </p>
        </div>
        <form
          noValidate
          onSubmit={onContinue}
          aria-labelledby={`${idPrefix}-heading`}
          className="flex flex-col gap-6"
        >
          {step === 1 ? <PersonalInfoStep {...stepProps} /> : null}
          {step === 2 ? <LoanDetailsStep {...stepProps} /> : null}
          {step === 3 ? <FinancialInfoStep {...stepProps} /> : null}
          {step === 4 ? (
            <DocumentsStep {...stepProps} {...documentProps} />
          ) : null}
          {step === 5 ? <ReviewStep {...stepProps} {...reviewProps} /> : null}

          {busy && progress !== null ? (
            <UploadProgress percent={progress} />
          ) : null}

          <div className="flex flex-col-reverse gap-3 border-t border-border pt-6 sm:flex-row sm:items-center sm:justify-between">
            {step > 1 ? (
              <Button variant="outline" onClick={onBack} disabled={busy}>
                <ArrowLeft aria-hidden="true" />
                Back
              </Button>
            ) : (
              <span aria-hidden="true" />
            )}
            <div className="flex flex-col-reverse gap-3 sm:flex-row sm:items-center">
              {saveForLater.offered ? (
                // Saved on the server: resumes on any device from the dashboard.
                <Button
                  variant="outline"
                  onClick={() => void saveForLater.onSave()}
                  disabled={busy}
                  aria-disabled={saveForLater.saving || undefined}
                >
                  {saveForLater.saving ? (
                    <Spinner className="size-4" />
                  ) : (
                    <Save aria-hidden="true" />
                  )}
                  Save and Finish Later
                </Button>
              ) : null}
              {step < STEP_COUNT ? (
                <Button type="submit">
                  Continue
                  <ArrowRight aria-hidden="true" />
                </Button>
              ) : (
                <Button
                  type="submit"
                  variant="accent"
                  aria-disabled={busy || undefined}
                  className="sm:min-w-48"
                >
                  {busy ? (
                    <>
                      <Spinner className="size-4" />
                      Processing...
                    </>
                  ) : (
                    <>
                      <Send aria-hidden="true" />
                      Submit Application
                    </>
                  )}
                </Button>
              )}
            </div>
          </div>
        </form>
      </div>
    </div>
  );
}
