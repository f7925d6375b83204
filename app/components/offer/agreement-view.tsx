import { Card } from "~/components/ui/card";
import { HeadedSection, type HeadedSectionProps } from "~/components/ui/headed-section";
import { TableHead } from "~/components/ui/table";
import { formatAgreementDay, type AgreementPreview } from "~/domain/views/agreement-preview";
import { formatMoney } from "~/domain/money";
import { AGREEMENT_TITLE, TILA_BOX_HEADINGS, type PostalAddress, type TruthInLendingBox } from "~/domain/views/loan-agreement";
import { OfferStep } from "./offer-step";
import { InstallmentCells } from "~/components/loans/installment-cells";
import { DisclosureLines } from "./disclosure-lines";

/**
 * The loan agreement on screen (Review and Sign): the same AgreementPreview the signed PDF is
 * rendered from (app/server/offers/agreement-document.server.ts), so screen and paper cannot disagree:
 * the parties, the federal Truth in Lending box (Regulation Z headings, model form H-2), the loan
 * terms, the payment schedule and the note terms. The signature block is the sign form below it.
 */

function boxValue(key: keyof TruthInLendingBox, box: TruthInLendingBox): string {
  return key === "aprPercent" ? `${box.aprPercent}%` : formatMoney(box[key]);
}

function Address({ address }: { address: PostalAddress }) {
  return (
    <>
      <span className="block">{address.line1}</span>
      {address.line2 ? <span className="block">{address.line2}</span> : null}
      <span className="block">
        {address.city}, {address.state} {address.postalCode}
      </span>
    </>
  );
}

const left = (label: string) => ({ label, className: "text-left" });
const right = (label: string) => ({ label, className: "text-right" });
const SCHEDULE_COLUMNS = [left("No."), left("Due date"), right("Payment"), right("Principal"), right("Interest"), right("Balance")];

/** A part of the agreement: an h3 under the agreement's h2. */
function Part(props: Omit<HeadedSectionProps, "level" | "headingClassName">) {
  return <HeadedSection level="h3" headingClassName="text-lg font-semibold text-foreground" {...props} />;
}

export function AgreementView({ agreement }: { agreement: AgreementPreview }) {
  const { terms, disclosure, schedule } = agreement;
  return (
    <OfferStep
      as="article"
      titleId="agreement-title"
      title={AGREEMENT_TITLE}
      lead={
        <>
          Agreement {agreement.reference} · due dates as of signing on {formatAgreementDay(agreement.signedOn)}
        </>
      }
      className="flex flex-col gap-6"
      data-testid="agreement"
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <Card className="p-4 text-sm">
          <h3 className="font-semibold text-foreground">Lender</h3>
          <p className="mt-1">
            <span className="block font-medium">{agreement.lender.name}</span>
            <Address address={agreement.lender.address} />
            {agreement.lender.nmlsId ? <span className="block">NMLS ID {agreement.lender.nmlsId}</span> : null}
          </p>
        </Card>
        <Card className="p-4 text-sm">
          <h3 className="font-semibold text-foreground">Borrower</h3>
          <p className="mt-1">
            <span className="block font-medium">{agreement.borrower.name}</span>
            <Address address={agreement.borrower.address} />
            <span className="block">{agreement.borrower.email}</span>
          </p>
        </Card>
      </div>

      <Part titleId="tila-box-title" title="Federal Truth in Lending Disclosure">
        <dl className="mt-3 grid grid-cols-1 border-2 border-foreground sm:grid-cols-2 lg:grid-cols-4" data-testid="tila-box">
          {TILA_BOX_HEADINGS.map((box, i) => (
            <div key={box.key} className={`flex flex-col gap-1 p-4 ${i > 0 ? "border-t-2 border-foreground sm:border-t-0 sm:border-l-2" : ""}`}>
              <dt>
                <span className={`block text-sm uppercase ${i < 2 ? "font-bold" : "font-semibold"}`}>{box.heading}</span>
                <span className="block text-xs text-muted-foreground">{box.description}</span>
              </dt>
              <dd className={`mt-auto text-xl ${i < 2 ? "font-bold" : "font-semibold"}`}>{boxValue(box.key, disclosure)}</dd>
            </div>
          ))}
        </dl>
        <DisclosureLines lines={agreement.disclosureLines} className="border-2 border-t-0 border-foreground p-4" />
      </Part>

      <Part titleId="loan-terms-title" title="Loan terms">
        <dl className="mt-3 grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
          {(
            [
              ["Loan amount", formatMoney(terms.amountCents)],
              ["Origination Fee (prepaid finance charge)", formatMoney(terms.originationFeeCents)],
              ["Interest rate (note rate)", `${terms.noteRatePercent}%`],
              ["Term", `${terms.termMonths} months`],
              ["Monthly payment", formatMoney(terms.monthlyPaymentCents)],
              ["First payment due", formatAgreementDay(terms.firstPaymentDue)],
              ["Final payment due", formatAgreementDay(agreement.maturityDate)],
            ] as const
          ).map(([label, value]) => (
            <div key={label} className="flex justify-between gap-4 border-b py-1">
              <dt className="text-muted-foreground">{label}</dt>
              <dd className="font-medium">{value}</dd>
            </div>
          ))}
        </dl>
      </Part>

      <Part titleId="schedule-title" title="Payment schedule">
        <p className="text-sm text-muted-foreground">
          {schedule.length} monthly payments. The dates count from the day you sign; signing on another day moves them.
        </p>
        <div className="mt-3 max-h-96 overflow-auto rounded-md border" tabIndex={0} role="region" aria-label="Payment schedule table (scrolls)">
          <table className="w-full text-sm" data-testid="payment-schedule">
            <caption className="sr-only">Payment schedule</caption>
            <TableHead columns={SCHEDULE_COLUMNS} className="sticky top-0 bg-muted" cellClassName="px-3 py-2" />
            <tbody>
              {schedule.map((row) => (
                <tr key={row.number} className="border-t">
                  <InstallmentCells row={row} day={formatAgreementDay} cell="px-3 py-1.5" moneyCell="px-3 py-1.5 text-right tabular-nums" />
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Part>

      <Part titleId="note-terms-title" title="Note terms">
        <div className="mt-2 flex flex-col gap-3 text-sm leading-relaxed">
          {agreement.noteTerms.map((paragraph) => (
            <p key={paragraph.slice(0, 40)}>{paragraph}</p>
          ))}
        </div>
      </Part>
    </OfferStep>
  );
}
