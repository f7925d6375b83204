import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { toast } from "~/components/toaster";
import { APPLICATION_MESSAGES, DOCUMENT_FIELDS, documentProblem, type DocumentField } from "~/domain/validation/application";
import { EMPTY_SIGNATURE, hasSignature, signatureToPng, type SignatureValue } from "./signature-pad";
import { useProblemToast } from "./problem-toast";
import { submitWithProgress } from "./submit-with-progress";
import { clearDraft, getIdempotencyKey, readDraft, useWizardDraft } from "./use-wizard-draft";
import { estimateKey, isCompleteEstimate, type PriorEstimate } from "~/domain/calculator-link";
import { restoreStep } from "./wizard-draft";
import { checkDocuments, checkSchemaStep, isStepNumber, stepOfField, type FieldErrors, type StepCheck, type StepNumber } from "./wizard-steps";
import { buildSubmission } from "./wizard-submission";
import { applyEstimate, emptyValues, type WizardField, type WizardValues } from "./wizard-values";

export type ApplyWizardProps = {
  user: { id: string; name: string; email: string };
  estimate: PriorEstimate | null;
};

/** The spec's simulated upload delay (docs/requirements.md §10). */
export const UPLOAD_DELAY_MS = 800;
export const SUBMIT_URL = "/api/applications";
export const ESTIMATE_LOADED = "Calculator estimate loaded successfully!";
export const SUBMITTED = "Application and documents submitted successfully!";
export const SUBMIT_FAILED = APPLICATION_MESSAGES.submitFailed;
export const SIGNATURE_FAILED = "Couldn't capture signature. Please try again.";

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

/**
 * The wizard's state and rules: values and step (with the session draft), per-field errors and where
 * focus goes next, documents (held in memory after a simulated upload), the signature, and the
 * submission with its progress and answers. The component only lays out what this returns.
 */
const isDocumentField = (field: string): field is DocumentField => DOCUMENT_FIELDS.some((d) => d.field === field);

function withoutFile<T>(files: Partial<Record<DocumentField, T>>, field: DocumentField) {
  if (!files[field]) return files;
  const next = { ...files };
  delete next[field];
  return next;
}

export function useApplyWizard({ user, estimate }: ApplyWizardProps) {
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
  // The latest choice per slot: a slower check of an earlier choice must not overwrite it.
  const uploadChoices = useRef(new Map<DocumentField, number>());
  const problemToast = useProblemToast();
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

  const clearError = (key: string) => {
    problemToast.clearFor(key);
    setErrors((current) => {
      if (!current[key]) return current;
      const next = { ...current };
      delete next[key];
      return next;
    });
  };

  const set = <K extends WizardField>(field: K, value: WizardValues[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    clearError(field.startsWith("dob") ? "dateOfBirth" : field);
  };

  const showProblem = (check: Exclude<StepCheck, { ok: true }>) => {
    setErrors(check.errors);
    problemToast.show(check.first.message, check.first.field);
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
    problemToast.clear();
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

  const refuseFile = (field: DocumentField, problem: string) => {
    // A refused choice replaces the slot's file: the slot never shows a file it would not send.
    setFiles((current) => withoutFile(current, field));
    setUploading((current) => ({ ...current, [field]: false }));
    setErrors((current) => ({ ...current, [field]: problem }));
    problemToast.show(problem, field);
  };

  const onSelectFile = async (field: DocumentField, file: File, count: number) => {
    const doc = DOCUMENT_FIELDS.find((d) => d.field === field)!;
    const timers = uploadTimers.current;
    window.clearTimeout(timers.get(field));
    const choice = (uploadChoices.current.get(field) ?? 0) + 1;
    uploadChoices.current.set(field, choice);
    // The same rules as the server, on the file's bytes, before the slot says anything about it.
    setUploading((current) => ({ ...current, [field]: true }));
    const problem = count > 1 ? APPLICATION_MESSAGES.file : await documentProblem(doc.label, file).catch(() => APPLICATION_MESSAGES.file);
    if (uploadChoices.current.get(field) !== choice) return;
    if (problem) {
      refuseFile(field, problem);
      return;
    }
    clearError(field);
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

  const fail = (message: string, field?: string) => {
    setBusy(false);
    setProgress(null);
    problemToast.show(message, field);
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
      problemToast.show(problems[first]!, first);
      requestFocus({ target: "field", field: first });
      return;
    }

    setErrors({});
    problemToast.clear();
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
      fail(answer.message, answer.field);
      const field = answer.field ?? "";
      const target = isStepNumber(answer.step) ? answer.step : field ? stepOfField(field) : null;
      if (target) {
        setStep(target);
        if (isDocumentField(field)) {
          setFiles((current) => withoutFile(current, field));
        }
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

  const onSignature = (value: SignatureValue) => {
    setSignature(value);
    if (hasSignature(value)) clearError("signature");
  };

  return {
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
    /** What every step gets. */
    stepProps: { idPrefix, values, errors, set },
    /** Step 4's documents. */
    documentProps: { files, uploading, onSelectFile, disabled: busy },
    /** Step 5's signature, and its edit links back to a step. */
    reviewProps: { files, signature, onSignature, onEdit: goTo, busy },
  };
}
