import { BadgeCheck, Building2, FileText, FolderOpen, Landmark } from "lucide-react";
import { Fragment, type ReactNode } from "react";
import { Link } from "react-router";
import { ApplicationStatusBadge } from "~/components/dashboard/status-badge";
import { useDisplayTimeZone } from "~/components/dashboard/format";
import { displayPhone, formatDate, formatFileSize } from "~/domain/formats";
import { formatAmount } from "~/domain/money";
import { loanTypeLabel } from "~/domain/labels";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Detail } from "~/components/ui/detail-list";
import type { ClientDetail as ClientDetailData } from "~/domain/views/admin-clients";
import { displaySsn, documentTypeLabel, formatAddress, MASKED_SSN } from "./format";
import { SensitiveValue } from "./sensitive-value";
import { BankAccountHeading } from "./bank-account-heading";
import { BankNumberFields } from "./bank-number-fields";

function Section({ title, icon, children, action }: { title: string; icon: ReactNode; children: ReactNode; action?: ReactNode }) {
  const id = `client-section-${title.toLowerCase().replace(/\s+/g, "-")}`;
  return (
    <section aria-labelledby={id} className="rounded-xl border border-border bg-card p-4 sm:p-5">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={id} className="flex items-center gap-2 text-base font-semibold text-primary">
          {icon}
          {title}
        </h3>
        {action}
      </div>
      <div className="mt-3">{children}</div>
    </section>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Detail label={label} className="min-w-0" labelClassName="text-sm" valueClassName="mt-0.5 font-medium break-words text-foreground">
      {children}
    </Detail>
  );
}

/**
 * A contact detail: the profile's own when it has one, otherwise the newest application's, labelled
 * so (sign-up asks for neither, so most clients have them only on their applications).
 */
function ContactField({
  label,
  own,
  fromApplication,
  latest,
  timeZone,
}: {
  label: string;
  own: string | null;
  fromApplication: string | null;
  latest: ClientDetailData["latestApplicationContact"];
  timeZone: string;
}) {
  return (
    <Field label={label}>
      {own ?? fromApplication ?? "Not provided"}
      {!own && fromApplication && latest ? (
        <span className="block text-xs font-normal text-muted-foreground" data-testid="contact-source">
          From latest application ({formatDate(latest.submittedAt, timeZone)})
        </span>
      ) : null}
    </Field>
  );
}

/** A section's entries (each rendered by `children` as an <li>), or a line saying there are none. */
function ItemList<T extends { id: string }>({
  items,
  empty,
  className = "flex flex-col gap-3",
  children,
}: {
  items: T[];
  empty: string;
  className?: string;
  children: (item: T) => ReactNode;
}) {
  if (items.length === 0) return <p className="text-sm text-muted-foreground">{empty}</p>;
  return (
    <ul className={className}>
      {items.map((item) => (
        <Fragment key={item.id}>{children(item)}</Fragment>
      ))}
    </ul>
  );
}

/** The selected client: profile, bank accounts (masked), applications (SSN hidden) and documents. */
export function ClientDetail({ client }: { client: ClientDetailData }) {
  const timeZone = useDisplayTimeZone();
  const { profile, latestApplicationContact: latest } = client;
  return (
    <div className="flex flex-col gap-4" data-testid="client-detail">
      <Card className="p-4 sm:p-5">
        <h2 className="text-xl font-bold text-primary">{profile.fullName}</h2>
        <p className="text-sm text-muted-foreground">{profile.email}</p>
      </Card>

      <Section title="Profile" icon={<Building2 aria-hidden="true" className="size-5" />}>
        <dl className="grid grid-cols-1 gap-x-6 gap-y-3 sm:grid-cols-2">
          <Field label="Full Name">{profile.fullName}</Field>
          <Field label="E-mail">{profile.email}</Field>
          <ContactField label="Phone" own={displayPhone(profile.phone)} fromApplication={latest ? displayPhone(latest.phone) : null} latest={latest} timeZone={timeZone} />
          <ContactField label="Address" own={formatAddress(profile)} fromApplication={latest ? formatAddress(latest) : null} latest={latest} timeZone={timeZone} />
        </dl>
      </Section>

      <Section title="Bank Accounts" icon={<Landmark aria-hidden="true" className="size-5" />}>
        <ItemList items={client.bankAccounts} empty="No bank accounts on file.">
          {(account) => (
            <li className="rounded-lg border border-border p-3" data-testid="bank-account">
              <BankAccountHeading account={account}>
                {account.isVerified ? (
                  <Badge variant="success">
                    <BadgeCheck aria-hidden="true" className="mr-1 size-3" />
                    Verified
                  </Badge>
                ) : (
                  <Badge variant="outline">Not verified</Badge>
                )}
              </BankAccountHeading>
              <dl className="mt-2 grid grid-cols-1 gap-x-6 gap-y-2 sm:grid-cols-2">
                <Field label="Account Holder">{account.accountHolderName}</Field>
                <Field label="Added">
                  <time dateTime={account.createdAt}>{formatDate(account.createdAt, timeZone)}</time>
                </Field>
                <BankNumberFields account={account} />
              </dl>
            </li>
          )}
        </ItemList>
      </Section>

      <Section title="Loan Applications" icon={<FileText aria-hidden="true" className="size-5" />}>
        <ItemList items={client.applications} empty="No applications submitted yet.">
          {(app) => {
            const submitted = formatDate(app.submittedAt, timeZone);
            return (
              <li className="rounded-lg border border-border p-3" data-testid="client-application">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <span className="font-semibold text-foreground">{loanTypeLabel(app.loanType)}</span>
                  <span className="flex items-center gap-3">
                    <ApplicationStatusBadge status={app.status} />
                    {/* Every status, including those no list tab shows (Closed as Incomplete). */}
                    <Link
                      to={`/admin/applications/${app.id}`}
                      className="text-sm font-medium text-navy-700 underline underline-offset-2 hover:text-navy-900"
                      aria-label={`View Application: ${loanTypeLabel(app.loanType)} submitted ${submitted}`}
                    >
                      View Application
                    </Link>
                  </span>
                </div>
                <dl className="mt-2 grid grid-cols-1 gap-x-6 gap-y-2 sm:grid-cols-3">
                  <Field label="Amount">{formatAmount(app.requestedAmount)}</Field>
                  <Field label="Submitted">
                    <time dateTime={app.submittedAt}>{submitted}</time>
                  </Field>
                  <Field label="SSN">
                    <SensitiveValue
                      kind="ssn"
                      id={app.id}
                      masked={app.hasSsn ? MASKED_SSN : "Not on file"}
                      available={app.hasSsn}
                      format={displaySsn}
                      label={`for the ${loanTypeLabel(app.loanType)} application submitted ${submitted}`}
                      testId="ssn-value"
                    />
                  </Field>
                </dl>
              </li>
            );
          }}
        </ItemList>
      </Section>

      <Section
        title="Documents"
        icon={<FolderOpen aria-hidden="true" className="size-5" />}
        action={
          <Button asChild variant="outline" size="sm">
            <Link to={`/admin/documents?client=${encodeURIComponent(profile.id)}`}>View All Documents</Link>
          </Button>
        }
      >
        <ItemList items={client.documents} empty="No documents uploaded." className="flex flex-col divide-y divide-border">
          {(doc) => (
            <li className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-2" data-testid="client-document">
              <span className="flex min-w-0 items-center gap-2">
                <FileText aria-hidden="true" className="size-4 shrink-0 text-navy-700" />
                <span className="min-w-0">
                  <span className="block font-medium text-foreground [overflow-wrap:anywhere]">{doc.fileName}</span>
                  <span className="block text-sm text-muted-foreground">{documentTypeLabel(doc.documentType)}</span>
                </span>
              </span>
              <span className="text-sm text-muted-foreground">
                {formatFileSize(doc.fileSize)} · <time dateTime={doc.uploadedAt}>{formatDate(doc.uploadedAt, timeZone)}</time>
              </span>
            </li>
          )}
        </ItemList>
      </Section>
    </div>
  );
}
