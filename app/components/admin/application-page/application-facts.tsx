import { useStaffCan } from "~/components/admin/admin-shell";
import { Download, Eye, FileText, Landmark } from "lucide-react";
import type { ReactNode } from "react";
import { displaySsn, documentTypeLabel, MASKED_SSN } from "~/components/admin/clients/format";
import { SensitiveValue } from "~/components/admin/clients/sensitive-value";
import { DocumentPreviewDialog } from "~/components/admin/documents/document-preview-dialog";
import { useDocumentLinks } from "~/components/admin/documents/use-document-links";
import { Card } from "~/components/ui/card";
import { Detail } from "~/components/ui/detail-list";
import { PendingButton } from "~/components/ui/pending-button";
import { displayPhone, formatDate, formatFileSize, formatPercent, formatUsd } from "~/domain/formats";
import { formatAmount } from "~/domain/money";
import { DESIRED_RATE_LABEL, employmentLabel, loanTypeLabel } from "~/domain/labels";
import type { AdminApplicationDetail } from "~/domain/views/admin-application-page";
import { BankAccountHeading } from "~/components/admin/clients/bank-account-heading";
import { BankNumberFields } from "~/components/admin/clients/bank-number-fields";

/**
 * Every field the applicant entered, grouped as the wizard asked for them, plus the bank accounts
 * (masked, each number revealed on its own audited request) and the documents (previewed or downloaded
 * through 60-second signed links, each audited).
 */

function Section({ id, title, icon, children }: { id: string; title: string; icon?: ReactNode; children: ReactNode }) {
  return (
    <Card className="p-4 sm:p-5" role="region" aria-labelledby={id}>
      <h2 id={id} className="flex items-center gap-2 text-lg font-semibold text-primary">
        {icon}
        {title}
      </h2>
      <div className="mt-3">{children}</div>
    </Card>
  );
}

function Field({ label, children, wide }: { label: string; children: ReactNode; wide?: boolean }) {
  return (
    <Detail
      label={label}
      className={wide ? "min-w-0 sm:col-span-2" : "min-w-0"}
      labelClassName="text-sm"
      valueClassName="mt-0.5 font-medium break-words text-foreground"
    >
      {children}
    </Detail>
  );
}

const grid = "grid grid-cols-1 gap-x-6 gap-y-3 sm:grid-cols-2";
const none = "Not provided";
const yesNo = (value: boolean) => (value ? "Yes" : "No");
/** A calendar date ('yyyy-MM-dd') as written, without shifting it through a time zone. */
const calendarDate = (value: string) => formatDate(`${value}T12:00:00Z`, "UTC");

export function LoanDetails({ application: a }: { application: AdminApplicationDetail }) {
  const s = a.summary;
  return (
    <Section id="loan-details" title="Loan Details">
      <dl className={grid}>
        <Field label="Loan Type">{loanTypeLabel(s.loanType)}</Field>
        <Field label="Requested Amount">{formatAmount(s.requestedAmount)}</Field>
        <Field label={DESIRED_RATE_LABEL}>{formatPercent(s.desiredInterestRate)}</Field>
        <Field label="Loan Duration">{s.loanDuration} months</Field>
        <Field label="Purpose" wide>
          <span className="whitespace-pre-line">{s.purpose}</span>
        </Field>
        <Field label="Property Address" wide>
          {a.loan.propertyAddress ?? none}
        </Field>
        <Field label="Business Name">{a.loan.businessName ?? none}</Field>
        <Field label="Years in Business">{a.loan.businessYears ?? none}</Field>
      </dl>
    </Section>
  );
}

export function PersonalDetails({ application: a }: { application: AdminApplicationDetail }) {
  const p = a.personal;
  return (
    <Section id="personal-details" title="Personal Information">
      <dl className={grid}>
        <Field label="First Name">{p.firstName}</Field>
        <Field label="Middle Initial">{p.middleInitial ?? none}</Field>
        <Field label="Last Name">{p.lastName}</Field>
        <Field label="Date of Birth">
          <time dateTime={p.dateOfBirth}>{calendarDate(p.dateOfBirth)}</time>
        </Field>
        <Field label="E-mail">{p.email}</Field>
        <Field label="Phone">{displayPhone(p.phone) ?? p.phone}</Field>
        <Field label="Address" wide>
          <span className="block">{p.addressLine1}</span>
          {p.addressLine2 ? <span className="block">{p.addressLine2}</span> : null}
          <span className="block">
            {p.city}, {p.state} {p.zipCode}
          </span>
        </Field>
        <Field label="SSN" wide>
          <SensitiveValue
            kind="ssn"
            id={a.summary.id}
            masked={p.hasSsn ? MASKED_SSN : "Not on file"}
            available={p.hasSsn}
            format={displaySsn}
            label={`of ${p.firstName} ${p.lastName}`}
            testId="ssn-value"
          />
        </Field>
      </dl>
    </Section>
  );
}

export function EmploymentDetails({ application: a }: { application: AdminApplicationDetail }) {
  const e = a.employment;
  return (
    <Section id="employment-details" title="Employment and Finances">
      <dl className={grid}>
        <Field label="Employment Status">{employmentLabel(e.employmentStatus)}</Field>
        <Field label="Employer">{e.employerName}</Field>
        <Field label="Job Title">{e.jobTitle ?? none}</Field>
        <Field label="Years Employed">{e.yearsEmployed ?? none}</Field>
        <Field label="Monthly Income">{formatUsd(e.monthlyIncome)}</Field>
        <Field label="Annual Income">{e.annualIncome === null ? none : formatUsd(e.annualIncome)}</Field>
        <Field label="Credit Score">{e.creditScore ?? none}</Field>
        <Field label="Outstanding Loans">{yesNo(e.hasOutstandingLoans)}</Field>
        <Field label="Monthly Debts">{e.monthlyDebts === null ? none : formatUsd(e.monthlyDebts)}</Field>
        <Field label="Credit Report Authorized">{yesNo(e.authorizeCreditReport)}</Field>
      </dl>
    </Section>
  );
}

export function BankAccounts({ application: a }: { application: AdminApplicationDetail }) {
  return (
    <Section id="bank-accounts" title="Bank Accounts" icon={<Landmark aria-hidden="true" className="size-5" />}>
      {a.bankAccounts.length === 0 ? (
        <p className="text-sm text-muted-foreground">No bank account with this application.</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {a.bankAccounts.map((account) => (
            <li key={account.id} className="rounded-lg border border-border p-3" data-testid="bank-account">
              <BankAccountHeading account={account} />
              <dl className={`mt-2 ${grid}`}>
                <Field label="Account Holder">{account.accountHolderName}</Field>
                <BankNumberFields account={account} />
              </dl>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

export function ApplicationDocuments({ application: a, timeZone }: { application: AdminApplicationDetail; timeZone: string }) {
  const links = useDocumentLinks();
  // Opening a document is a reveal; a role without reveals (the auditor) gets no buttons.
  const mayOpen = useStaffCan("sensitive.reveal");
  return (
    <Section id="application-documents" title="Documents" icon={<FileText aria-hidden="true" className="size-5" />}>
      {a.documents.length === 0 ? (
        <p className="text-sm text-muted-foreground">No documents uploaded.</p>
      ) : (
        <ul className="flex flex-col divide-y divide-border">
          {a.documents.map((doc) => {
            const what = `${documentTypeLabel(doc.documentType)}, ${doc.fileName}`;
            return (
              <li key={doc.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-2" data-testid="application-document" data-document-id={doc.id}>
                <span className="min-w-0">
                  <span className="block font-medium break-all text-foreground">{documentTypeLabel(doc.documentType)}</span>
                  <span className="block text-sm break-all text-muted-foreground">
                    {doc.fileName} · {formatFileSize(doc.fileSize)} · <time dateTime={doc.uploadedAt}>{formatDate(doc.uploadedAt, timeZone)}</time>
                    {doc.requestItemId ? " · In answer to a request" : ""}
                  </span>
                </span>
                {mayOpen ? (
                <span className="flex shrink-0 gap-2">
                  <PendingButton
                    variant="outline"
                    size="sm"
                    onClick={() => links.requestPreview(doc.id)}
                    pending={links.previewPendingId === doc.id}
                    icon={<Eye aria-hidden="true" />}
                    aria-label={`Preview ${what}`}
                  >
                    Preview
                  </PendingButton>
                  <PendingButton
                    size="sm"
                    onClick={() => links.requestDownload(doc.id)}
                    pending={links.downloadPendingId === doc.id}
                    icon={<Download aria-hidden="true" />}
                    aria-label={`Download ${what}`}
                  >
                    Download
                  </PendingButton>
                </span>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
      <DocumentPreviewDialog
        link={links.preview}
        onClose={links.closePreview}
        onDownload={links.requestDownload}
        downloading={links.downloadPendingId !== null}
      />
    </Section>
  );
}
