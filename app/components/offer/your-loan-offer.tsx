import { Download, FileSignature, XCircle } from "lucide-react";
import { useRef, useState } from "react";
import { Link, useFetcher } from "react-router";
import { useActionToast } from "~/components/action-toast";
import { useEachAnswer } from "~/components/use-each-answer";
import { Badge, type BadgeVariant } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Detail } from "~/components/ui/detail-list";
import { ModalDialog } from "~/components/ui/dialog";
import { ConfirmDialogForm } from "~/components/ui/confirm-dialog-form";
import { formatDateTime, formatDay, termLabel } from "~/domain/formats";
import type { OfferStatus, OfferView } from "~/domain/loan-offers";
import type { OfferDeclineActionData } from "~/domain/validation/offer-decline";
import { formatMoney } from "~/domain/money";
import { DisclosureLines } from "./disclosure-lines";

/**
 * Your Loan Offer: the terms and the Truth in Lending figures of one offer, as the applicant
 * sees them on the dashboard and on the application page. A Counteroffer (other terms than requested)
 * is labelled so, with its reasons. An open offer leads to Review and Sign (the offer page) or to
 * Decline Offer (a confirm dialog that posts intent=decline; the page reloads its data and a toast
 * says what happened); a signed one links to its signed agreement. Dashboard-only code: no public
 * page imports it.
 */

const STATUS_VARIANT: Record<OfferStatus, BadgeVariant> = {
  offered: "info",
  signed: "success",
  declined: "secondary",
  expired: "warning",
  withdrawn: "secondary",
};

export const offerPagePath = (applicationId: string) => `/dashboard/applications/${applicationId}/offer`;
export const offerDeclinePath = (applicationId: string) => `/dashboard/applications/${applicationId}/offer-decline`;
export const signedAgreementPath = (applicationId: string) => `/dashboard/applications/${applicationId}/agreement`;

export function YourLoanOffer({
  offer,
  timeZone,
  headingLevel = "h2",
  focusAfterDecline = "heading",
}: {
  offer: OfferView;
  timeZone: string;
  headingLevel?: "h2" | "h3";
  /** Where focus goes once declined: the card's heading (the card stays, with its new status) or the page's main region (the card goes). */
  focusAfterDecline?: "heading" | "main";
}) {
  const headingId = `loan-offer-${offer.id}`;
  const headingRef = useRef<HTMLHeadingElement>(null);
  const open = offer.status === "offered";

  return (
    <Card data-testid="your-loan-offer" data-offer-id={offer.id} data-offer-status={offer.status} aria-labelledby={headingId} role="region">
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <CardTitle as={headingLevel} id={headingId} ref={headingRef} tabIndex={-1}>
            Your Loan Offer
          </CardTitle>
          {offer.isCounteroffer ? (
            <p className="mt-1 text-sm text-muted-foreground">The terms differ from the ones you requested.</p>
          ) : null}
        </div>
        <div className="flex flex-wrap gap-2">
          {offer.isCounteroffer ? (
            <Badge variant="warning" data-testid="counteroffer-badge">
              Counteroffer
            </Badge>
          ) : null}
          {open ? null : (
            <Badge variant={STATUS_VARIANT[offer.status]} data-testid="offer-status">
              {offer.statusLabel}
            </Badge>
          )}
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-5">
        {offer.isCounteroffer && offer.counterofferReasons.length > 0 ? (
          <div className="rounded-md border border-yellow-300 bg-yellow-50 p-3 text-sm text-yellow-950" data-testid="counteroffer-reasons">
            <p className="font-semibold">Why we offer different terms</p>
            <ul className="mt-1 list-disc pl-5">
              {offer.counterofferReasons.map((reason) => (
                <li key={reason}>{reason}</li>
              ))}
            </ul>
          </div>
        ) : null}
        <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm min-[400px]:grid-cols-2 md:grid-cols-3">
          <Detail label="Amount">{formatMoney(offer.amountCents)}</Detail>
          <Detail label="APR">{offer.aprPercent}%</Detail>
          <Detail label="Note Rate">{offer.noteRatePercent}%</Detail>
          <Detail label="Monthly Payment">
            {formatMoney(offer.paymentCents)}
            {offer.finalPaymentCents !== offer.paymentCents ? (
              <span className="block text-xs font-normal text-muted-foreground">final payment {formatMoney(offer.finalPaymentCents)}</span>
            ) : null}
          </Detail>
          <Detail label="Term">{termLabel(offer.termMonths)}</Detail>
          <Detail label="Origination Fee">
            {formatMoney(offer.originationFeeCents)} <span className="font-normal text-muted-foreground">({offer.originationFeePercent}%)</span>
          </Detail>
          <Detail label="Amount Financed">{formatMoney(offer.amountFinancedCents)}</Detail>
          <Detail label="Finance Charge">{formatMoney(offer.financeChargeCents)}</Detail>
          <Detail label="Total of Payments">{formatMoney(offer.totalOfPaymentsCents)}</Detail>
          <Detail label="Offer Expires">
            <time dateTime={offer.expiresAt}>{formatDateTime(offer.expiresAt, timeZone, { zone: true })}</time>
          </Detail>
          {!open && offer.decidedAt ? (
            <Detail label={`${offer.statusLabel} On`}>
              <time dateTime={offer.decidedAt}>{formatDateTime(offer.decidedAt, timeZone, { zone: true })}</time>
            </Detail>
          ) : null}
          {offer.status === "signed" && offer.firstPaymentDue ? <Detail label="First Payment Due">{formatDay(offer.firstPaymentDue)}</Detail> : null}
        </dl>
        {open ? (
          <p className="text-xs text-muted-foreground" data-testid="offer-figures-day">
            These figures are for an agreement signed on {formatDay(offer.createdAt.slice(0, 10))}. Interest accrues by the day from the day you sign, so Review and
            Sign shows the payment and the figures for the day you sign, which may differ slightly.
          </p>
        ) : null}
        <DisclosureLines lines={offer.disclosureLines} className="border-t pt-4" />
        {offer.status === "withdrawn" && offer.withdrawReason ? (
          <p className="text-sm">
            <span className="font-semibold">Withdrawn: </span>
            <span className="break-words">{offer.withdrawReason}</span>
          </p>
        ) : null}
        {open ? (
          <div className="flex flex-col gap-3 sm:flex-row">
            <Button asChild>
              <Link to={offerPagePath(offer.applicationId)}>
                <FileSignature aria-hidden="true" />
                Review and Sign
              </Link>
            </Button>
            <DeclineOfferButton
              offer={offer}
              onDeclined={() => (focusAfterDecline === "main" ? document.getElementById("main") : headingRef.current)?.focus()}
            />
          </div>
        ) : null}
        {offer.status === "signed" ? (
          <div>
            <Button asChild variant="outline">
              <a href={signedAgreementPath(offer.applicationId)} download>
                <Download aria-hidden="true" />
                Download Signed Agreement
              </a>
            </Button>
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}

/** Decline Offer: a confirm dialog (focus trapped, Escape closes, focus returns) posting intent=decline. */
function DeclineOfferButton({ offer, onDeclined }: { offer: OfferView; onDeclined: () => void }) {
  const fetcher = useFetcher<OfferDeclineActionData>({ key: `offer-decline-${offer.applicationId}` });
  const [dialogOpen, setDialogOpen] = useState(false);
  useActionToast(fetcher.data);

  // The answer (it arrives before the page's data reloads) shows its toast and closes the dialog; once
  // declined this button goes away with the reload, so focus moves on (onDeclined).
  const declined = useRef(false);
  useEachAnswer(fetcher.data, (answer) => {
    declined.current = answer.ok;
    setDialogOpen(false);
  });

  return (
    <ModalDialog
      open={dialogOpen}
      onOpenChange={setDialogOpen}
      onCloseFocus={() => {
        if (declined.current) onDeclined();
        else document.getElementById(`decline-offer-${offer.id}`)?.focus();
      }}
      testId="decline-offer-dialog"
      title="Decline this offer?"
      description={
        offer.isCounteroffer
          ? "If you decline this counteroffer, no loan will be made on this application. We will e-mail you a notice of our action with the reasons."
          : "If you decline this offer, no loan will be made on this application. We will e-mail you a confirmation."
      }
      trigger={
        <Button id={`decline-offer-${offer.id}`} variant="outline">
          <XCircle aria-hidden="true" />
          Decline Offer
        </Button>
      }
    >
      <ConfirmDialogForm
        fetcher={fetcher}
        action={offerDeclinePath(offer.applicationId)}
        intent="decline"
        keepLabel="Keep Offer"
        confirmLabel="Decline Offer"
        icon={<XCircle aria-hidden="true" />}
      />
    </ModalDialog>
  );
}
