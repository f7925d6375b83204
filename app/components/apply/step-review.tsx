import { Pencil } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { formatPercent } from "~/domain/formats";
import { formatAmount, formatMoney, parseAmountInput, roundToCents, roundToRate } from "~/domain/money";
import { DESIRED_RATE_LABEL } from "~/domain/labels";
import { monthlyPayment } from "~/domain/loan-math";
import { DOCUMENT_FIELDS } from "~/domain/validation/application";
import { FactList, type Fact } from "./fact-list";
import { CheckboxField } from "./fields";
import { bankFacts, financialFacts, loanFacts, personalFacts } from "./review-facts";
import { sizeInKb } from "./review-masks";
import { SignaturePad, type SignatureValue } from "./signature-pad";
import { binder, type StepProps } from "./step-types";
import type { DocumentFiles, StepNumber } from "./wizard-steps";
import type { WizardValues } from "./wizard-values";

const LOOK = {
  list: "grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2",
  item: "flex min-w-0 flex-col",
  label: "text-muted-foreground",
  value: "font-medium break-words text-foreground",
};

/** One section of answers with its Edit button (back to the step that asks them). */
type ReviewPart = { key: string; title: string; step: StepNumber; facts?: readonly Fact[]; children?: ReactNode };

function ReviewSection({ id, part, onEdit, disabled }: { id: string; part: ReviewPart; onEdit: (step: StepNumber) => void; disabled?: boolean }) {
  return (
    <section aria-labelledby={id} className="rounded-lg border border-border p-4">
      <div className="mb-3 flex items-center justify-between gap-2">
        <h3 id={id} className="text-base font-semibold text-primary">
          {part.title}
        </h3>
        <Button variant="ghost" size="sm" onClick={() => onEdit(part.step)} disabled={disabled}>
          <Pencil aria-hidden="true" />
          Edit<span className="sr-only"> {part.title}</span>
        </Button>
      </div>
      {part.facts ? <FactList facts={part.facts} look={LOOK} /> : null}
      {part.children}
    </section>
  );
}

/** Each document slot with the file attached to it (name and size), or 'Not provided'. */
function DocumentList({ files }: { files: DocumentFiles }) {
  return (
    <ul className="flex flex-col gap-1.5 text-sm">
      {DOCUMENT_FIELDS.map((doc) => {
        const file = files[doc.field];
        return (
          <li key={doc.field} className="flex min-w-0 flex-wrap gap-x-2">
            <span className="text-muted-foreground">{doc.label}:</span>
            {file ? (
              <span className="min-w-0 font-medium break-all">
                {file.name} <span className="font-normal text-muted-foreground">({sizeInKb(file.size)})</span>
              </span>
            ) : (
              <span className="text-muted-foreground">Not provided</span>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** Step 5: everything entered, the recomputed payment, the signature and the terms (docs/requirements.md §5, §6 Submit). */
export function ReviewStep({
  idPrefix,
  values,
  errors,
  set,
  files,
  signature,
  onSignature,
  onEdit,
  busy,
  shownValues,
}: StepProps & {
  /** The values as the review lists them (sensitive values a saved draft keeps, by their last digits). */
  shownValues?: WizardValues;
  files: DocumentFiles;
  signature: SignatureValue;
  onSignature: (value: SignatureValue) => void;
  onEdit: (step: StepNumber) => void;
  busy: boolean;
}) {
  const id = (name: string) => `${idPrefix}-${name}`;
  const bind = binder({ idPrefix, values, errors, set });
  const amount = parseAmountInput(values.loanAmount);
  const rate = Number(values.desiredInterestRate);
  const months = Number(values.loanDuration);
  const payment = monthlyPayment(roundToCents(amount), roundToRate(rate), months);
  const parts: ReviewPart[] = [
    { key: "personal", title: "Personal Info", step: 1, facts: personalFacts(shownValues ?? values) },
    { key: "loan", title: "Loan Details", step: 2, facts: loanFacts(values) },
    { key: "financial", title: "Financial Info", step: 3, facts: financialFacts(values) },
    { key: "documents", title: "Documents", step: 4, children: <DocumentList files={files} /> },
    { key: "bank", title: "Bank Information", step: 4, facts: bankFacts(shownValues ?? values) },
  ];

  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-muted-foreground">Check your answers. Use Edit to change a section; nothing you entered is lost.</p>
      {parts.map((part) => (
        <ReviewSection key={part.key} id={id(`review-${part.key}`)} part={part} onEdit={onEdit} disabled={busy} />
      ))}

      <section aria-labelledby={id("review-payment")} className="on-dark rounded-lg bg-primary p-4 text-primary-foreground">
        <h3 id={id("review-payment")} className="text-sm font-semibold text-navy-100">
          Estimated Monthly Payment
        </h3>
        <p className="mt-1 text-3xl font-bold" data-testid="estimated-payment">
          {formatMoney(payment)}
        </p>
        <p className="mt-1 text-xs text-navy-100">
          {amount > 0 && months > 0 ? `${formatAmount(amount)} over ${months} months, ${DESIRED_RATE_LABEL}: ${formatPercent(rate)}. ` : ""}
          An estimate only; your final rate and terms are set at underwriting.
        </p>
      </section>

      <section aria-labelledby={id("review-sign")} className="flex flex-col gap-4 rounded-lg border border-border p-4">
        <h3 id={id("review-sign")} className="text-base font-semibold text-primary">
          Signature and Terms
        </h3>
        <SignaturePad id={id("signature")} value={signature} onChange={onSignature} error={errors.signature} disabled={busy} />
        <CheckboxField
          {...bind.check("agreeToTerms")}
          required
          label={
            <>
              I agree to the{" "}
              <Link to="/terms" target="_blank" rel="noopener noreferrer" className="text-link underline underline-offset-2">
                Terms of Service
                <span className="sr-only"> (opens in a new tab)</span>
              </Link>{" "}
              and{" "}
              <Link to="/privacy" target="_blank" rel="noopener noreferrer" className="text-link underline underline-offset-2">
                Privacy Policy
                <span className="sr-only"> (opens in a new tab)</span>
              </Link>
            </>
          }
          description={
            <>
              By signing above and checking this box, I consent to use electronic records and signatures for this application under
              the federal E-SIGN Act, my electronic signature has the same effect as a handwritten one, and I confirm that the
              information I provided is true and complete.
            </>
          }
        />
      </section>
    </div>
  );
}
