import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { isOneOf, LOAN_TYPES } from "~/domain/enums";
import { DRAFT_MESSAGES } from "~/domain/validation/application-draft";
import type { SavedDraft } from "~/domain/views/application-draft";
import { toast } from "~/components/toaster";
import { APPLICATION_MESSAGES, DOCUMENT_FIELDS, documentProblem, type DocumentField } from "~/domain/validation/application";
import { EMPTY_SIGNATURE, hasSignature, signatureToPng, type SignatureValue } from "./signature-pad";
import { useProblemToast } from "./problem-toast";
import { submitWithProgress } from "./submit-with-progress";
import { clearDraft, getIdempotencyKey, readDraft, useWizardDraft } from "./use-wizard-draft";
import { estimateKey, isCompleteEstimate, type PriorEstimate } from "~/domain/calculator-link";
import { restoreStep } from "./wizard-draft";
import { buildDraftBody, draftFiles, draftProblem, draftStep, draftValues, postDraft, SAVED_TOAST, withKeptForDisplay, type DraftAnswer, type KeptValues } from "./server-draft";
import { checkDocuments, checkSchemaStep, isStepNumber, stepOfField, type DocumentFiles, type FieldErrors, type StepCheck, type StepNumber } from "./wizard-steps";
import { buildSubmission } from "./wizard-submission";
import { applyEstimate, emptyValues, type WizardField, type WizardValues } from "./wizard-values";

export type ApplyWizardProps = {
  user: { id: string; name: string; email: string };
  estimate: PriorEstimate | null;
  /** The applicant's saved drafts (Save and Finish Later), and the loan type whose draft to resume. */
  drafts?: SavedDraft[];
  resume?: string | null;
};

/** The spec's simulated upload delay (docs/requirements.md §10). */
export const UPLOAD_DELAY_MS = 800;
export const SUBMIT_URL = "/api/applications";
export const ESTIMATE_LOADED = "Calculator estimate loaded successfully!";
export const SUBMITTED = "Application and documents submitted successfully!";
export const SUBMIT_FAILED = APPLICATION_MESSAGES.submitFailed;
export const SIGNATURE_FAILED = "Couldn't capture signature. Please try again.";

type FocusRequest = { target: "heading" } | { target: "field"; field: string } | { target: "confirmation" };

/**
 * Where the wizard starts: the server draft of the loan type asked for (the dashboard's link) or of the
 * tab's session draft, with the tab's own newer typing over it; else the session draft alone.
 */
function initialState(user: ApplyWizardProps["user"], estimate: PriorEstimate | null, drafts: SavedDraft[], resume: string | null) {
  const session = readDraft(user.id);
  const sessionType = session?.values.loanType || null;
  const server = drafts.find((d) => d.loanType === (resume ?? sessionType)) ?? null;
  const draft = session && (resume === null || sessionType === resume) ? session : null;
  let values = emptyValues(user.email, user.name);
  let step: StepNumber = 1;
  let kept: KeptValues = {};
  let savedFiles: DocumentFiles = {};
  if (server) {
    values = { ...values, ...draftValues(server) };
    step = draftStep(server);
    kept = server.kept;
    savedFiles = draftFiles(server);
  }
  if (draft) {
    values = { ...values, ...draft.values };
    step = Math.max(step, draft.step) as StepNumber;
  }
  if (server || draft) step = restoreStep(step, values, server ? { kept: Object.keys(kept), files: savedFiles } : undefined);
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
  return { values, step, estimateKey: key, announce, restored: draft !== null || server !== null, kept, savedFiles, draftLoanType: server?.loanType ?? null };
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

export function useApplyWizard({ user, estimate, drafts = [], resume = null }: ApplyWizardProps) {
  const idPrefix = `apply${useId().replace(/[^A-Za-z0-9_-]/g, "")}`;
  const [init] = useState(() => initialState(user, estimate, drafts, resume));
  const navigate = useNavigate();
  const [kept, setKept] = useState<KeptValues>(init.kept);
  const [savedFiles, setSavedFiles] = useState<DocumentFiles>(init.savedFiles);
  const [savingForLater, setSavingForLater] = useState(false);
  // The furthest step reached, the loan type the server draft is kept under, and the saves in flight (one at a time, in order).
  const reached = useRef<StepNumber>(init.step);
  const draftLoanType = useRef<string | null>(init.draftLoanType);
  const saves = useRef<Promise<unknown>>(Promise.resolve());
  const submitted = useRef(false);
  // Chosen files a save has stored with the draft: the submission takes them from there.
  const keptFileObjects = useRef(new Set<File>());
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

  const keptFields = Object.keys(kept);
  const shownFiles: DocumentFiles = { ...savedFiles, ...files };

  /** Step 4 checks the documents first, then the bank fields; both sets of errors are shown. */
  const checkStep = (n: StepNumber): StepCheck => {
    if (n !== 4) return checkSchemaStep(n, values, keptFields);
    const documents = checkDocuments(shownFiles);
    const bank = checkSchemaStep(4, values, keptFields);
    if (documents.ok) return bank;
    return { ok: false, errors: { ...documents.errors, ...(bank.ok ? {} : bank.errors) }, first: documents.first };
  };

  /**
   * Saves the server draft after the saves already queued: the values and the documents
   * chosen since, as they are now. Background saves skip a draft the server would refuse (the session
   * draft still holds it); nothing is saved before a loan type is chosen (it names the draft).
   */
  const saveDraft = (explicit: boolean): Promise<DraftAnswer | null> => {
    const snapshot = { values, files, step: reached.current };
    if (!isOneOf(LOAN_TYPES, snapshot.values.loanType) || submitted.current) return Promise.resolve(null);
    if (!explicit && draftProblem(snapshot.values)) return Promise.resolve(null);
    const run = saves.current.then(async () => {
      if (submitted.current) return null;
      const unsaved = Object.fromEntries(Object.entries(snapshot.files).filter(([, file]) => !keptFileObjects.current.has(file)));
      const answer = await postDraft(buildDraftBody(snapshot.values, unsaved, snapshot.step, draftLoanType.current));
      if (answer.ok && answer.draft) {
        draftLoanType.current = answer.draft.loanType;
        setKept(answer.draft.kept);
        setSavedFiles(draftFiles(answer.draft));
        // Kept with the draft now: the submission does not send them again (the slot still shows the chosen file).
        for (const file of Object.values(unsaved)) keptFileObjects.current.add(file);
      }
      return answer;
    });
    saves.current = run.catch(() => undefined);
    return run;
  };

  const goTo = (target: StepNumber) => {
    setErrors({});
    problemToast.clear();
    setStep(target);
    requestFocus({ target: "heading" });
    reached.current = Math.max(reached.current, target) as StepNumber;
    void saveDraft(false);
  };

  const showFieldProblem = (field: string, message: string) => {
    const target = stepOfField(field);
    if (target && target !== step) setStep(target);
    setErrors({ [field]: message });
    problemToast.show(message, field);
    requestFocus({ target: "field", field });
  };

  /** Save and Finish Later: the draft now, then the dashboard (its Continue Your Application card). */
  const onSaveForLater = async () => {
    if (busy || savingForLater) return;
    if (!isOneOf(LOAN_TYPES, values.loanType)) {
      showFieldProblem("loanType", DRAFT_MESSAGES.loanType);
      return;
    }
    const problem = draftProblem(values);
    if (problem) {
      showFieldProblem(problem.field, problem.message);
      return;
    }
    setSavingForLater(true);
    reached.current = Math.max(reached.current, step) as StepNumber;
    const answer = await saveDraft(true);
    setSavingForLater(false);
    if (answer?.ok) {
      toast.success(SAVED_TOAST, { id: "apply-draft-saved" });
      void navigate("/dashboard");
      return;
    }
    if (answer?.status === 401) {
      toast.error(DRAFT_MESSAGES.signIn);
      return;
    }
    if (answer?.field && stepOfField(answer.field)) showFieldProblem(answer.field, answer.message);
    else problemToast.show(answer?.message || DRAFT_MESSAGES.failed);
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
    // A save still in flight finishes first: its documents are then taken from the draft, and no save
    // can land after the submission (which deletes the draft).
    await saves.current;
    submitted.current = true;
    const unsent = Object.fromEntries(Object.entries(files).filter(([, file]) => !keptFileObjects.current.has(file)));
    const body = buildSubmission(values, unsent, png, idempotencyKey.current);
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
      submitted.current = false;
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
    submitted.current = false;
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
    stepProps: { idPrefix, values, errors, set, kept },
    /** Step 4's documents (kept with the draft, or chosen here). */
    documentProps: { files: shownFiles, uploading, onSelectFile, disabled: busy },
    /** Step 5's signature, and its edit links back to a step; kept sensitive values show masked. */
    reviewProps: { files: shownFiles, signature, onSignature, onEdit: goTo, busy, shownValues: withKeptForDisplay(values, kept) },
    /** Save and Finish Later. */
    saveForLater: { onSave: onSaveForLater, saving: savingForLater, offered: step > 1 || isOneOf(LOAN_TYPES, values.loanType) },
  };
}
