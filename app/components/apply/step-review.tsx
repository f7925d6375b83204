import { Pencil } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { formatPercent, formatPhone, formatUsd, parseAmountInput } from "~/domain/formats";
import { monthlyPayment } from "~/domain/loan-math";
import { DOCUMENT_FIELDS } from "~/domain/validation/application";
import { CheckboxField } from "./fields";
import { SignaturePad, type SignatureValue } from "./signature-pad";
import { binder, type StepProps } from "./step-types";
import { ACCOUNT_TYPE_LABELS, EMPLOYMENT_LABELS, LOAN_TYPE_LABELS, termLabel } from "~/domain/labels";
import { maskAccount, maskRouting, maskSsn, sizeInKb } from "./review-masks";
import type { DocumentFiles, StepNumber } from "./wizard-steps";
import { composeDateOfBirth, isLoanType, MONTH_NAMES } from "./wizard-values";

type Row = [label: string, value: ReactNode];

function show(value: string | undefined | null): ReactNode {
  return value && value.trim() ? value : <span className="text-muted-foreground">Not provided</span>;
}

function ReviewSection({
  id,
  title,
  step,
  rows,
  onEdit,
  disabled,
  children,
}: {
  id: string;
  title: string;
  step: StepNumber;
  rows?: Row[];
  onEdit: (step: StepNumber) => void;
  disabled?: boolean;
  children?: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="rounded-lg border border-border p-4">
      <div className="mb-3 flex items-center justify-between gap-2">
        <h3 id={id} className="text-base font-semibold text-primary">
          {title}
        </h3>
        <Button variant="ghost" size="sm" onClick={() => onEdit(step)} disabled={disabled}>
          <Pencil aria-hidden="true" />
          Edit<span className="sr-only"> {title}</span>
        </Button>
      </div>
      {rows ? (
        <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
          {rows.map(([label, value]) => (
            <div key={label} className="flex min-w-0 flex-col">
              <dt className="text-muted-foreground">{label}</dt>
              <dd className="font-medium break-words text-foreground">{value}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      {children}
    </section>
  );
}

function dateForPeople(dob: string): string {
  const [y, m, d] = dob.split("-");
  if (!y || !m || !d) return "";
  return `${MONTH_NAMES[Number(m) - 1] ?? m} ${Number(d)}, ${y}`;
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
}: StepProps & {
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
  const payment = monthlyPayment(amount, rate, months);
  const name = [values.firstName, values.middleInitial ? `${values.middleInitial}.` : "", values.lastName].filter(Boolean).join(" ");
  const address = [values.addressLine1, values.addressLine2, `${values.city}, ${values.state} ${values.zipCode}`].filter(Boolean).join(", ");
  const loanType = isLoanType(values.loanType) ? LOAN_TYPE_LABELS[values.loanType] : values.loanType;
  const employment = values.employmentStatus in EMPLOYMENT_LABELS ? EMPLOYMENT_LABELS[values.employmentStatus as keyof typeof EMPLOYMENT_LABELS] : values.employmentStatus;
  const accountType =
    values.bankAccountType in ACCOUNT_TYPE_LABELS ? ACCOUNT_TYPE_LABELS[values.bankAccountType as keyof typeof ACCOUNT_TYPE_LABELS] : values.bankAccountType;

  const loanRows: Row[] = [
    ["Loan Type", show(loanType)],
    ["Loan Amount", amount > 0 ? formatUsd(amount, { cents: false }) : show("")],
    ["Desired Interest Rate", Number.isFinite(rate) && values.desiredInterestRate ? formatPercent(rate) : show("")],
    ["Loan Duration", months > 0 ? termLabel(months) : show("")],
    ["Loan Purpose", show(values.loanPurpose)],
  ];
  if (values.loanType === "hard-money") loanRows.push(["Property Address", show(values.propertyAddress)]);
  if (values.loanType === "business") {
    loanRows.push(["Business Name", show(values.businessName)], ["Years in Business", show(values.businessYears)]);
  }

  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-muted-foreground">Check your answers. Use Edit to change a section; nothing you entered is lost.</p>
      <ReviewSection
        id={id("review-personal")}
        title="Personal Info"
        step={1}
        onEdit={onEdit}
        disabled={busy}
        rows={[
          ["Name", show(name)],
          ["Date of Birth", show(dateForPeople(composeDateOfBirth(values)))],
          ["Social Security Number", show(maskSsn(values.ssn))],
          ["Email", show(values.email)],
          ["Phone", show(formatPhone(values.phone))],
          ["Address", show(address)],
        ]}
      />
      <ReviewSection id={id("review-loan")} title="Loan Details" step={2} onEdit={onEdit} disabled={busy} rows={loanRows} />
      <ReviewSection
        id={id("review-financial")}
        title="Financial Info"
        step={3}
        onEdit={onEdit}
        disabled={busy}
        rows={[
          ["Employment Status", show(employment)],
          ["Employer Name", show(values.employerName)],
          ["Job Title", show(values.jobTitle)],
          ["Years Employed", show(values.yearsEmployed)],
          ["Monthly Income", values.monthlyIncome ? formatUsd(parseAmountInput(values.monthlyIncome), { cents: false }) : show("")],
          ["Annual Income", values.annualIncome ? formatUsd(parseAmountInput(values.annualIncome), { cents: false }) : show("")],
          ["Credit Score", show(values.creditScore)],
          ["Monthly Debts", values.monthlyDebts ? formatUsd(parseAmountInput(values.monthlyDebts), { cents: false }) : show("")],
          ["Outstanding Loans", values.hasOutstandingLoans ? "Yes" : "No"],
          ["Credit Report Authorized", values.authorizeCreditReport ? "Yes" : "No"],
        ]}
      />
      <ReviewSection id={id("review-documents")} title="Documents" step={4} onEdit={onEdit} disabled={busy}>
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
      </ReviewSection>
      <ReviewSection
        id={id("review-bank")}
        title="Bank Information"
        step={4}
        onEdit={onEdit}
        disabled={busy}
        rows={[
          ["Account Holder Name", show(values.accountHolderName)],
          ["Bank Name", show(values.bankName)],
          ["Bank Address", show(values.bankAddress)],
          ["Account Number", show(maskAccount(values.accountNumber))],
          ["Routing Number", show(maskRouting(values.routingNumber))],
          ["SWIFT Code", show(values.swiftCode)],
          ["Account Type", show(accountType)],
        ]}
      />

      <section aria-labelledby={id("review-payment")} className="on-dark rounded-lg bg-primary p-4 text-primary-foreground">
        <h3 id={id("review-payment")} className="text-sm font-semibold text-navy-100">
          Estimated Monthly Payment
        </h3>
        <p className="mt-1 text-3xl font-bold" data-testid="estimated-payment">
          {formatUsd(payment)}
        </p>
        <p className="mt-1 text-xs text-navy-100">
          {amount > 0 && months > 0 ? `${formatUsd(amount, { cents: false })} at ${formatPercent(rate)} APR over ${months} months. ` : ""}
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
