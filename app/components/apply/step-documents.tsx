import type { ReactNode } from "react";
import { ACCOUNT_NUMBER_DIGITS, ACCOUNT_NUMBER_HINT } from "~/domain/bank-account-number";
import { BANK_ACCOUNT_TYPES } from "~/domain/enums";
import { ACCOUNT_TYPE_LABELS } from "~/domain/labels";
import { DOCUMENT_FIELDS, type DocumentField } from "~/domain/validation/application";
import { DocumentUpload } from "./document-upload";
import { digitsUpTo } from "./fields";
import { StepFields, type FieldSpec } from "./step-fields";
import type { StepProps } from "./step-types";
import type { DocumentFiles } from "./wizard-steps";

const ACCOUNT_TYPE_OPTIONS = BANK_ACCOUNT_TYPES.map((type) => ({ value: type, label: ACCOUNT_TYPE_LABELS[type] }));
const swiftCode = (typed: string) => typed.replace(/[^A-Za-z0-9]/g, "").toUpperCase().slice(0, 11);

const BANK_FIELDS: readonly FieldSpec[] = [
  { kind: "text", name: "accountHolderName", label: "Account Holder Name", required: true, autoComplete: "name", maxLength: 200 },
  { kind: "text", name: "bankName", label: "Bank Name", required: true, autoComplete: "off", maxLength: 200 },
  { kind: "text", name: "bankAddress", label: "Bank Address", autoComplete: "off", maxLength: 300, className: "sm:col-span-2" },
  { kind: "masked", name: "accountNumber", what: "account number", label: "Account Number", required: true, maxLength: ACCOUNT_NUMBER_DIGITS.max, hint: ACCOUNT_NUMBER_HINT, transform: digitsUpTo(ACCOUNT_NUMBER_DIGITS.max) },
  { kind: "masked", name: "routingNumber", what: "routing number", label: "Routing Number", required: true, maxLength: 9, hint: "9 digits", transform: digitsUpTo(9) },
  {
    kind: "text",
    name: "swiftCode",
    label: "SWIFT Code",
    autoComplete: "off",
    autoCapitalize: "characters",
    spellCheck: false,
    maxLength: 11,
    hint: "For international transfers only.",
    transform: swiftCode,
  },
  { kind: "select", name: "bankAccountType", label: "Account Type", required: true, options: ACCOUNT_TYPE_OPTIONS },
];

/** Step 4: the seven document slots, then the bank account (docs/requirements.md §4 Files and Bank, §5 step 4). */
export function DocumentsStep({
  files,
  uploading,
  onSelectFile,
  disabled,
  ...step
}: StepProps & {
  files: DocumentFiles;
  uploading: Partial<Record<DocumentField, boolean>>;
  onSelectFile: (field: DocumentField, file: File, count: number) => void;
  disabled?: boolean;
}) {
  const id = (name: string) => `${step.idPrefix}-${name}`;
  return (
    <div className="flex flex-col gap-8">
      <Section
        headingId={id("documents-heading")}
        title="Required Documents"
        intro="A government-issued ID (front and back), bank statements for the last 3 months and a recent utility bill. PDF, JPG or PNG, one file each, up to 5 MB."
      >
        <div className="grid gap-x-4 gap-y-2 sm:grid-cols-2">
          {DOCUMENT_FIELDS.map((doc) => (
            <DocumentUpload
              key={doc.field}
              id={id(doc.field)}
              field={doc.field}
              label={doc.label}
              required={doc.required}
              file={files[doc.field]}
              uploading={Boolean(uploading[doc.field])}
              error={step.errors[doc.field]}
              disabled={disabled}
              onSelect={(file, count) => onSelectFile(doc.field, file, count)}
            />
          ))}
        </div>
      </Section>
      <Section
        headingId={id("bank-heading")}
        title="Bank Information"
        intro="The account for disbursement and repayments. Account and routing numbers are encrypted and never saved in your browser."
      >
        <div className="grid gap-x-4 gap-y-3 sm:grid-cols-2">
          <StepFields {...step} fields={BANK_FIELDS} />
        </div>
      </Section>
    </div>
  );
}

function Section({ headingId, title, intro, children }: { headingId: string; title: string; intro: string; children: ReactNode }) {
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h3 id={headingId} className="text-lg font-semibold text-primary">
        {title}
      </h3>
      <p className="text-sm text-muted-foreground">{intro}</p>
      {children}
    </section>
  );
}
