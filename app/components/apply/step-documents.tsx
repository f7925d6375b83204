import { BANK_ACCOUNT_TYPES } from "~/domain/enums";
import { digitsOnly } from "~/domain/formats";
import { DOCUMENT_FIELDS, type DocumentField } from "~/domain/validation/application";
import { DocumentUpload } from "./document-upload";
import { MaskedField, SelectField, TextField } from "./fields";
import { binder, type StepProps } from "./step-types";
import { ACCOUNT_TYPE_LABELS } from "~/domain/labels";
import type { DocumentFiles } from "./wizard-steps";

const ACCOUNT_TYPE_OPTIONS = BANK_ACCOUNT_TYPES.map((type) => ({ value: type, label: ACCOUNT_TYPE_LABELS[type] }));

/** Step 4: the seven document slots, then the bank account (docs/requirements.md §4 Files and Bank, §5 step 4). */
export function DocumentsStep({
  idPrefix,
  values,
  errors,
  set,
  files,
  uploading,
  onSelectFile,
  disabled,
}: StepProps & {
  files: DocumentFiles;
  uploading: Partial<Record<DocumentField, boolean>>;
  onSelectFile: (field: DocumentField, file: File, count: number) => void;
  disabled?: boolean;
}) {
  const id = (name: string) => `${idPrefix}-${name}`;
  const bind = binder({ idPrefix, values, errors, set });
  return (
    <div className="flex flex-col gap-8">
      <section aria-labelledby={id("documents-heading")} className="flex flex-col gap-3">
        <h3 id={id("documents-heading")} className="text-lg font-semibold text-primary">
          Required Documents
        </h3>
        <p className="text-sm text-muted-foreground">
          A government-issued ID (front and back), bank statements for the last 3 months and a recent utility bill. PDF, JPG
          or PNG, one file each, up to 5 MB.
        </p>
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
              error={errors[doc.field]}
              disabled={disabled}
              onSelect={(file, count) => onSelectFile(doc.field, file, count)}
            />
          ))}
        </div>
      </section>

      <section aria-labelledby={id("bank-heading")} className="flex flex-col gap-3">
        <h3 id={id("bank-heading")} className="text-lg font-semibold text-primary">
          Bank Information
        </h3>
        <p className="text-sm text-muted-foreground">
          The account for disbursement and repayments. Account and routing numbers are encrypted and never saved in your
          browser.
        </p>
        <div className="grid gap-x-4 gap-y-3 sm:grid-cols-2">
          <TextField
            {...bind.text("accountHolderName")}
            label="Account Holder Name"
            required
            autoComplete="name"
            maxLength={200}
          />
          <TextField
            {...bind.text("bankName")}
            label="Bank Name"
            required
            autoComplete="off"
            maxLength={200}
          />
          <TextField
            {...bind.text("bankAddress")}
            label="Bank Address"
            autoComplete="off"
            maxLength={300}
            className="sm:col-span-2"
          />
          <MaskedField
            {...bind.text("accountNumber")}
            what="account number"
            label="Account Number"
            required
            maxLength={17}
            hint="10-12 digits"
            transform={(v) => digitsOnly(v).slice(0, 17)}
          />
          <MaskedField
            {...bind.text("routingNumber")}
            what="routing number"
            label="Routing Number"
            required
            maxLength={9}
            hint="9 digits"
            transform={(v) => digitsOnly(v).slice(0, 9)}
          />
          <TextField
            {...bind.text("swiftCode")}
            label="SWIFT Code"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={11}
            hint="For international transfers only."
            transform={(v) => v.replace(/[^A-Za-z0-9]/g, "").toUpperCase().slice(0, 11)}
          />
          <SelectField
            {...bind.text("bankAccountType")}
            label="Account Type"
            required
            options={ACCOUNT_TYPE_OPTIONS}
          />
        </div>
      </section>
    </div>
  );
}
