import { ArrowLeft, ArrowRight, Lock, Send } from "lucide-react";
import { useDeferredValue, useEffect, useId, useRef, useState, useSyncExternalStore, type FormEvent } from "react";
import { toast } from "~/components/toaster";
import { Button } from "~/components/ui/button";
import { Spinner } from "~/components/ui/spinner";
import { APPLICATION_MESSAGES, DOCUMENT_FIELDS, uploadProblem, type DocumentField } from "~/domain/validation/application";
import { Confirmation } from "./confirmation";
import { EstimatePanel } from "./estimate-panel";
import { WizardProgress } from "./progress";
import { EMPTY_SIGNATURE, hasSignature, signatureToPng, type SignatureValue } from "./signature-pad";
import { DocumentsStep } from "./step-documents";
import { FinancialInfoStep } from "./step-financial";
import { LoanDetailsStep } from "./step-loan";
import { PersonalInfoStep } from "./step-personal";
import { ReviewStep } from "./step-review";
import { submitWithProgress } from "./submit-with-progress";
import { clearDraft, getIdempotencyKey, readDraft, useWizardDraft } from "./use-wizard-draft";
import {
  applyEstimate,
  buildSubmission,
  checkDocuments,
  checkSchemaStep,
  emptyValues,
  estimateKey,
  isCompleteEstimate,
  isStepNumber,
  restoreStep,
  STEP_COUNT,
  stepOfField,
  type FieldErrors,
  type PriorEstimate,
  type StepCheck,
  type StepNumber,
  type WizardField,
  type WizardValues,
} from "./wizard-model";

/**
 * The loan application wizard (spec 000 §2 'Loan application', §3-§5, §7, §8): five steps, each checked
 * with its shared schema before moving on, a session draft that survives a reload (without the SSN,
 * bank numbers, files or signature), documents held in memory, a drawn signature, and one multipart
 * submission with upload progress. Rendered in the browser only: on the server (and until hydration)
 * a spinner stands in, since the draft lives in sessionStorage.
 */

export type ApplyWizardProps = {
  user: { id: string; name: string; email: string };
  estimate: PriorEstimate | null;
};

/** The spec's simulated upload delay (000 §9). */
export const UPLOAD_DELAY_MS = 800;
export const SUBMIT_URL = "/api/applications";
export const ESTIMATE_LOADED = "Calculator estimate loaded successfully!";
export const SUBMITTED = "Application and documents submitted successfully!";
export const SUBMIT_FAILED = APPLICATION_MESSAGES.submitFailed;
export const SIGNATURE_FAILED = "Couldn't capture signature. Please try again.";

const STEP_HEADINGS: Record<StepNumber, { title: string; intro: string }> = {
  1: { title: "Personal Information", intro: "Tell us about yourself." },
  2: { title: "Loan Details", intro: "What you would like to borrow, and why." },
  3: { title: "Financial Information", intro: "Your employment and finances help us find the right terms." },
  4: { title: "Documents & Bank Information", intro: "Upload your documents and tell us where funds should go." },
  5: { title: "Review & Submit", intro: "Check everything, sign, and submit your application." },
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

export function ApplyWizard(props: ApplyWizardProps) {
  // Deferred: right after hydration the wizard (dozens of fields, long selects) is built in a
  // background render that yields to the browser every few milliseconds, instead of one long task
  // that blocks input on a slow phone. On a client-side navigation the value is true from the first
  // render, and the wizard shows at once.
  const hydrated = useDeferredValue(useHydrated());
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-10 sm:px-6 sm:py-14">
      <div className="mb-8 flex flex-col gap-3">
        <h1 className="text-3xl font-bold tracking-tight text-primary sm:text-4xl">Loan Application</h1>
        <p className="flex items-start gap-2 text-muted-foreground">
          <Lock aria-hidden="true" className="mt-1 size-4 shrink-0 text-gold-700" />
          Five short steps. Your information is sent over an encrypted connection, and sensitive numbers are encrypted before
          they are stored.
        </p>
      </div>
      {hydrated ? (
        <WizardBody {...props} />
      ) : (
        // A screen tall, so the footer starts below the fold and the (taller) wizard replacing this does
        // not push a visible footer down: no layout shift (CLS) when the page hydrates.
        <div role="status" className="flex min-h-screen flex-col items-center gap-3 py-20 text-muted-foreground">
          <Spinner className="size-8 text-primary" />
          <p>Loading your application...</p>
        </div>
      )}
    </div>
  );
}

type FocusRequest = { target: "heading" } | { target: "field"; field: string } | { target: "confirmation" };

function initialState(user: ApplyWizardProps["user"], estimate: PriorEstimate | null) {
  const draft = readDraft(user.id);
  let values = emptyValues(user.email);
  let step: StepNumber = 1;
  if (draft) {
    values = { ...values, ...draft.values };
    step = restoreStep(draft.step, values);
  }
  let key = draft?.estimateKey ?? null;
  let announce = false;
  if (isCompleteEstimate(estimate)) {
    const k = estimateKey(estimate);
    if (k !== key) {
      values = applyEstimate(values, estimate);
      key = k;
      announce = true;
    }
  }
  return { values, step, estimateKey: key, announce, restored: draft !== null };
}

function WizardBody({ user, estimate }: ApplyWizardProps) {
  const idPrefix = `apply${useId().replace(/[^A-Za-z0-9_-]/g, "")}`;
  const [init] = useState(() => initialState(user, estimate));
  const [values, setValues] = useState<WizardValues>(init.values);
  const [step, setStep] = useState<StepNumber>(init.step);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [files, setFiles] = useState<Partial<Record<DocumentField, File>>>({});
  const [uploading, setUploading] = useState<Partial<Record<DocumentField, boolean>>>({});
  const [signature, setSignature] = useState<SignatureValue>(EMPTY_SIGNATURE);
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [submittedId, setSubmittedId] = useState<string | null>(null);
  const [focusRequest, setFocusRequest] = useState<{ request: FocusRequest; n: number } | null>(null);

  const containerRef = useRef<HTMLDivElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const confirmationRef = useRef<HTMLHeadingElement>(null);
  const idempotencyKey = useRef<string | null>(null);
  const uploadTimers = useRef(new Map<DocumentField, number>());
  const announced = useRef(false);

  useWizardDraft({ userId: user.id, step, values, estimateKey: init.estimateKey }, submittedId === null);

  useEffect(() => {
    if (!init.announce || announced.current) return;
    announced.current = true;
    toast.success(ESTIMATE_LOADED, { id: "apply-estimate-loaded" });
  }, [init.announce]);

  useEffect(() => {
    const timers = uploadTimers.current;
    return () => timers.forEach((timer) => window.clearTimeout(timer));
  }, []);

  // Focus moves after the new content is on screen (so its error is already wired to the field).
  useEffect(() => {
    if (!focusRequest) return;
    const { request } = focusRequest;
    if (request.target === "heading") {
      window.scrollTo({ top: 0 });
      headingRef.current?.focus({ preventScroll: true });
    } else if (request.target === "confirmation") {
      window.scrollTo({ top: 0 });
      confirmationRef.current?.focus({ preventScroll: true });
    } else {
      const name = request.field === "signature" ? "signature-typed" : request.field;
      const element = containerRef.current?.querySelector<HTMLElement>(`[data-field="${name}"]`);
      if (element) element.focus();
      else headingRef.current?.focus();
    }
  }, [focusRequest]);

  const requestFocus = (request: FocusRequest) => setFocusRequest((current) => ({ request, n: (current?.n ?? 0) + 1 }));

  const clearError = (key: string) =>
    setErrors((current) => {
      if (!current[key]) return current;
      const next = { ...current };
      delete next[key];
      return next;
    });

  const set = <K extends WizardField>(field: K, value: WizardValues[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    clearError(field.startsWith("dob") ? "dateOfBirth" : field);
  };

  const showProblem = (check: Exclude<StepCheck, { ok: true }>) => {
    setErrors(check.errors);
    toast.error(check.first.message);
    requestFocus({ target: "field", field: check.first.field });
  };

  /** Step 4 checks the documents first, then the bank fields; both sets of errors are shown. */
  const checkStep = (n: StepNumber): StepCheck => {
    if (n !== 4) return checkSchemaStep(n, values);
    const documents = checkDocuments(files);
    const bank = checkSchemaStep(4, values);
    if (documents.ok) return bank;
    return { ok: false, errors: { ...documents.errors, ...(bank.ok ? {} : bank.errors) }, first: documents.first };
  };

  const goTo = (target: StepNumber) => {
    setErrors({});
    setStep(target);
    requestFocus({ target: "heading" });
  };

  const onContinue = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (step === 5) {
      void submit();
      return;
    }
    const check = checkStep(step);
    if (!check.ok) {
      showProblem(check);
      return;
    }
    goTo((step + 1) as StepNumber);
  };

  const onBack = () => {
    if (busy || step === 1) return;
    goTo((step - 1) as StepNumber);
  };

  const onSelectFile = (field: DocumentField, file: File, count: number) => {
    const doc = DOCUMENT_FIELDS.find((d) => d.field === field)!;
    const problem = count > 1 ? APPLICATION_MESSAGES.file : uploadProblem(file);
    if (problem) {
      toast.error(problem);
      setErrors((current) => ({ ...current, [field]: problem }));
      return;
    }
    clearError(field);
    setUploading((current) => ({ ...current, [field]: true }));
    const timers = uploadTimers.current;
    window.clearTimeout(timers.get(field));
    timers.set(
      field,
      window.setTimeout(() => {
        timers.delete(field);
        setFiles((current) => ({ ...current, [field]: file }));
        setUploading((current) => ({ ...current, [field]: false }));
        toast.success(`${doc.label} uploaded successfully!`);
      }, UPLOAD_DELAY_MS),
    );
  };

  const fail = (message: string) => {
    setBusy(false);
    setProgress(null);
    toast.error(message);
  };

  async function submit() {
    // Every earlier step once more (a restored draft or an edit could have left one incomplete).
    for (const n of [1, 2, 3, 4] as const) {
      const check = checkStep(n);
      if (!check.ok) {
        setStep(n);
        showProblem(check);
        return;
      }
    }
    const problems: FieldErrors = {};
    if (!hasSignature(signature)) problems.signature = APPLICATION_MESSAGES.signature;
    const terms = checkSchemaStep(5, values);
    if (!terms.ok) Object.assign(problems, terms.errors);
    const first = problems.signature ? "signature" : problems.agreeToTerms ? "agreeToTerms" : null;
    if (first) {
      setErrors(problems);
      toast.error(problems[first]!);
      requestFocus({ target: "field", field: first });
      return;
    }

    setErrors({});
    setBusy(true);
    setProgress(0);
    let png: Blob;
    try {
      png = await signatureToPng(signature);
    } catch {
      fail(SIGNATURE_FAILED);
      setErrors({ signature: SIGNATURE_FAILED });
      return;
    }
    idempotencyKey.current ??= getIdempotencyKey();
    const body = buildSubmission(values, files, png, idempotencyKey.current);
    const result = await submitWithProgress(SUBMIT_URL, body, setProgress);
    const answer = result.body;

    if (result.status >= 200 && result.status < 300 && answer?.ok && answer.applicationId) {
      clearDraft();
      idempotencyKey.current = null;
      setSubmittedId(answer.applicationId);
      setBusy(false);
      setProgress(null);
      toast.success(SUBMITTED);
      requestFocus({ target: "confirmation" });
      return;
    }
    if (result.status === 401) {
      // The session ended: the draft (not the files or signature) survives signing in again.
      setBusy(false);
      setProgress(null);
      toast.error(APPLICATION_MESSAGES.signIn, {
        action: {
          label: "Sign In",
          onClick: () => window.location.assign(`/auth?redirectTo=${encodeURIComponent(window.location.pathname + window.location.search)}`),
        },
      });
      return;
    }
    const clientError = result.status >= 400 && result.status < 500 && result.status !== 403;
    if (clientError && answer?.message) {
      fail(answer.message);
      const field = answer.field ?? "";
      const target = isStepNumber(answer.step) ? answer.step : field ? stepOfField(field) : null;
      if (target) {
        setStep(target);
        if (field) {
          setErrors({ [field]: answer.message });
          requestFocus({ target: "field", field });
        } else {
          requestFocus({ target: "heading" });
        }
      }
      return;
    }
    // Network failure, 5xx, anything unexpected: everything stays; a retry reuses the same key.
    fail(SUBMIT_FAILED);
  }

  if (submittedId) {
    return (
      <div className="rounded-xl border border-border bg-card p-6 shadow-sm sm:p-10">
        <Confirmation headingRef={confirmationRef} applicationId={submittedId} />
      </div>
    );
  }

  const heading = STEP_HEADINGS[step];
  const stepProps = { idPrefix, values, errors, set };

  return (
    <div ref={containerRef} className="flex flex-col gap-6">
      {step === 1 && estimate ? <EstimatePanel estimate={estimate} /> : null}
      <div className="rounded-xl border border-border bg-card p-4 shadow-sm sm:p-8">
        <WizardProgress step={step} />
        <div className="mt-8 mb-6 flex flex-col gap-1">
          <h2 ref={headingRef} tabIndex={-1} id={`${idPrefix}-heading`} className="text-2xl font-semibold text-primary focus:outline-none focus-visible:outline-3">
            {heading.title}
          </h2>
          <p className="text-sm text-muted-foreground">
            {heading.intro} {step < 5 ? "Fields marked * are required." : null}
          </p>
        </div>
        <form noValidate onSubmit={onContinue} aria-labelledby={`${idPrefix}-heading`} className="flex flex-col gap-6">
          {step === 1 ? <PersonalInfoStep {...stepProps} /> : null}
          {step === 2 ? <LoanDetailsStep {...stepProps} /> : null}
          {step === 3 ? <FinancialInfoStep {...stepProps} /> : null}
          {step === 4 ? <DocumentsStep {...stepProps} files={files} uploading={uploading} onSelectFile={onSelectFile} disabled={busy} /> : null}
          {step === 5 ? (
            <ReviewStep
              {...stepProps}
              files={files}
              signature={signature}
              onSignature={(value) => {
                setSignature(value);
                if (hasSignature(value)) clearError("signature");
              }}
              onEdit={goTo}
              busy={busy}
            />
          ) : null}

          {busy && progress !== null ? <UploadProgress percent={progress} /> : null}

          <div className="flex flex-col-reverse gap-3 border-t border-border pt-6 sm:flex-row sm:items-center sm:justify-between">
            {step > 1 ? (
              <Button variant="outline" onClick={onBack} disabled={busy}>
                <ArrowLeft aria-hidden="true" />
                Back
              </Button>
            ) : (
              <span aria-hidden="true" />
            )}
            {step < STEP_COUNT ? (
              <Button type="submit">
                Continue
                <ArrowRight aria-hidden="true" />
              </Button>
            ) : (
              <Button type="submit" variant="accent" aria-disabled={busy || undefined} className="sm:min-w-48">
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
        </form>
      </div>
    </div>
  );
}

function UploadProgress({ percent }: { percent: number }) {
  const label = percent < 100 ? `Uploading… ${percent}%` : "Upload complete. Processing your application…";
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm font-medium text-primary">{label}</p>
      <div
        role="progressbar"
        aria-label="Upload progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2 w-full overflow-hidden rounded-full bg-navy-100"
      >
        <div className="h-full rounded-full bg-gold-500 transition-[width] duration-200 motion-reduce:transition-none" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
