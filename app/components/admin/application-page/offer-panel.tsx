import { useStaffCan } from "~/components/admin/admin-shell";
import { Download, Undo2 } from "lucide-react";
import { useRef, useState, type FormEvent } from "react";
import { useFetcher } from "react-router";
import { useActionToast } from "~/components/action-toast";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { ModalDialog } from "~/components/ui/dialog";
import { ReasonAndConfirm, useReason } from "~/components/admin/reason-dialog-form";
import { formatDate, formatDateTime } from "~/domain/formats";
import { DisclosureLines } from "~/components/offer/disclosure-lines";
import { OFFER_LIMITS, type AgreementCertificateView, type OfferView } from "~/domain/loan-offers";
import { issuesToFieldErrors } from "~/domain/validation/field-errors";
import { offerWithdrawSchema, type OfferWithdrawActionData } from "~/domain/validation/offer-withdraw";
import { formatMoney } from "~/domain/money";
import { useEachAnswer } from "~/components/use-each-answer";
import { Fact, ReasonsFact, TextFact } from "~/components/admin/fact";

/** How each status reads on its badge. */
const STATUS_STYLE: Record<OfferView["status"], string> = {
  offered: "bg-blue-100 text-blue-900",
  signed: "bg-green-100 text-green-900",
  declined: "bg-slate-200 text-slate-900",
  expired: "bg-slate-200 text-slate-900",
  withdrawn: "bg-red-100 text-red-900",
};

/**
 * The staff view of an application's loan offers, newest first: status (Offered, Signed,
 * Declined, Expired, Withdrawn), the Counteroffer label and its reasons, the terms and the Truth in
 * Lending figures as stored, the expiry and any withdrawal reason. While the offer is open staff can
 * Withdraw Offer (with a reason the applicant reads); once signed, the signing certificate and the
 * signed agreement's download.
 */
export function OfferPanel({
  applicationId,
  offers,
  certificate,
  timeZone,
}: {
  applicationId: string;
  offers: OfferView[];
  certificate: AgreementCertificateView | null;
  timeZone: string;
}) {
  if (offers.length === 0) return null;
  const [latest, ...earlier] = offers;
  return (
    <Card className="p-4 sm:p-5" role="region" aria-labelledby="loan-offer-heading" data-testid="offer-panel">
      <h2 id="loan-offer-heading" tabIndex={-1} className="text-lg font-semibold text-primary focus-visible:outline-3">
        Loan Offer
      </h2>
      <OfferDetails offer={latest!} applicationId={applicationId} certificate={certificate} timeZone={timeZone} />
      {/* Mounted while the panel is, so its dialog closes, toasts and hands focus back after the offer leaves 'offered'. */}
      <WithdrawOffer applicationId={applicationId} withdrawable={latest!.status === "offered"} />
      {earlier.length > 0 ? (
        <details className="mt-4 border-t border-border pt-3">
          <summary className="cursor-pointer text-sm font-medium">Earlier offers ({earlier.length})</summary>
          <div className="mt-3 flex flex-col gap-4">
            {earlier.map((offer) => (
              <OfferDetails key={offer.id} offer={offer} applicationId={applicationId} certificate={certificate} timeZone={timeZone} />
            ))}
          </div>
        </details>
      ) : null}
    </Card>
  );
}

function OfferDetails({
  offer: o,
  applicationId,
  certificate,
  timeZone,
}: {
  offer: OfferView;
  applicationId: string;
  certificate: AgreementCertificateView | null;
  timeZone: string;
}) {
  return (
    <div className="mt-3 flex flex-col gap-3" data-testid="offer" data-offer-id={o.id} data-status={o.status}>
      <div className="flex flex-wrap items-center gap-2">
        <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS_STYLE[o.status]}`} data-testid="offer-status">
          {o.statusLabel}
        </span>
        {o.isCounteroffer ? (
          <span className="rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-semibold text-amber-900" data-testid="offer-counteroffer">
            Counteroffer
          </span>
        ) : null}
      </div>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm min-[480px]:grid-cols-2 lg:grid-cols-4">
        <Fact label="Amount">{formatMoney(o.amountCents)}</Fact>
        <Fact label="Note Rate">{o.noteRatePercent}%</Fact>
        <Fact label="APR">{o.aprPercent}%</Fact>
        <Fact label="Term">{o.termMonths} months</Fact>
        <Fact label="Monthly Payment">
          {formatMoney(o.paymentCents)}
          {o.finalPaymentCents !== o.paymentCents ? <span className="font-normal"> (last: {formatMoney(o.finalPaymentCents)})</span> : null}
        </Fact>
        <Fact label="Origination Fee">
          {formatMoney(o.originationFeeCents)} ({o.originationFeePercent}%)
        </Fact>
        <Fact label="Amount Financed">{formatMoney(o.amountFinancedCents)}</Fact>
        <Fact label="Finance Charge">{formatMoney(o.financeChargeCents)}</Fact>
        <Fact label="Total of Payments">{formatMoney(o.totalOfPaymentsCents)}</Fact>
        <Fact label="Offered">
          <time dateTime={o.createdAt}>{formatDateTime(o.createdAt, timeZone)}</time>
        </Fact>
        <Fact label={o.status === "offered" ? "Offer Expires" : "Expiry"}>
          <time dateTime={o.expiresAt}>{formatDateTime(o.expiresAt, timeZone)}</time>
        </Fact>
        {o.decidedAt ? (
          <Fact label={`${o.statusLabel} On`}>
            <time dateTime={o.decidedAt}>{formatDateTime(o.decidedAt, timeZone)}</time>
          </Fact>
        ) : null}
        {o.firstPaymentDue ? (
          <Fact label="First Payment Due">
            <time dateTime={o.firstPaymentDue}>{formatDate(`${o.firstPaymentDue}T12:00:00Z`, "UTC")}</time>
          </Fact>
        ) : null}
        {o.isCounteroffer && o.counterofferReasons.length > 0 ? (
          <ReasonsFact label="Counteroffer Reasons" reasons={o.counterofferReasons} listClassName="font-normal" testId="offer-counteroffer-reasons" />
        ) : null}
        {o.withdrawReason ? <TextFact label="Withdrawal Reason" text={o.withdrawReason} className="font-normal break-words whitespace-pre-line" testId="offer-withdraw-reason" /> : null}
      </dl>
      {/* The servicing terms the borrower is shown and signs: staff answer questions from the same words. */}
      <DisclosureLines lines={o.disclosureLines} />
      {o.status === "signed" && certificate ? <Certificate applicationId={applicationId} offerId={o.id} certificate={certificate} timeZone={timeZone} /> : null}
    </div>
  );
}

function Certificate({ applicationId, offerId, certificate: c, timeZone }: { applicationId: string; offerId: string; certificate: AgreementCertificateView; timeZone: string }) {
  return (
    <section aria-labelledby="agreement-certificate-heading" className="rounded-lg border border-border p-4" data-testid="agreement-certificate">
      <h3 id="agreement-certificate-heading" className="text-base font-semibold text-primary">
        Signing Certificate
      </h3>
      <dl className="mt-2 grid grid-cols-1 gap-x-6 gap-y-3 text-sm min-[480px]:grid-cols-2">
        <Fact label="Signer">{c.signerName}</Fact>
        <Fact label="E-mail">
          <span className="break-all">{c.signerEmail}</span>
        </Fact>
        <Fact label="Signed At">
          <time dateTime={c.signedAt}>{formatDateTime(c.signedAt, timeZone, { seconds: true, zone: true })}</time>
        </Fact>
        <Fact label="Signature">{c.signatureKind === "drawn" ? "Drawn" : "Typed"}</Fact>
        <Fact label="IP Address">{c.ipAddress || "—"}</Fact>
        <Fact label="E-SIGN Consent Version">
          {c.consentVersion} (given <time dateTime={c.consentedAt}>{formatDateTime(c.consentedAt, timeZone, { zone: true })}</time>)
        </Fact>
        <Fact label="User Agent" wide>
          <span className="font-normal break-all">{c.userAgent || "—"}</span>
        </Fact>
        <Fact label="SHA-256" wide>
          <span className="font-mono text-xs font-normal break-all" data-testid="agreement-sha256">
            {c.sha256}
          </span>
        </Fact>
      </dl>
      <a
        href={`/admin/applications/${applicationId}/agreement`}
        className="mt-3 inline-flex items-center gap-2 text-sm font-semibold text-primary underline underline-offset-4"
        data-testid="download-agreement"
        download
      >
        <Download aria-hidden="true" className="size-4" />
        Download Signed Agreement
      </a>
      {/* The loan the signing made, found by the agreement's reference (LN- and the offer id's first 8 characters). */}
      <a
        href={`/admin/loans?q=LN-${offerId.slice(0, 8).toUpperCase()}`}
        className="mt-3 ml-4 inline-flex items-center gap-2 text-sm font-semibold text-primary underline underline-offset-4"
        data-testid="view-loan"
      >
        View Loan
      </a>
    </section>
  );
}

/** Withdraw Offer: a dialog asking for the reason (the applicant reads it), posted to /admin/applications/:id/offer. */
function WithdrawOffer({ applicationId, withdrawable }: { applicationId: string; withdrawable: boolean }) {
  // Withdrawing is a decision; a role that may not work applications (the auditor) is not offered it.
  const mayWithdraw = useStaffCan("applications.work");
  const [open, setOpen] = useState(false);
  const reason = useReason();
  const opener = useRef<HTMLButtonElement>(null);
  const fetcher = useFetcher<OfferWithdrawActionData>({ key: `offer-withdraw-${applicationId}` });
  const pending = fetcher.state !== "idle";
  useActionToast(fetcher.data);
  useEachAnswer(fetcher.data, (data) => {
    if (data.ok) {
      setOpen(false);
      reason.clear();
    } else if (data.fieldErrors?.reason) {
      reason.refuse(data.fieldErrors.reason);
    } else {
      // Signed, declined, expired or withdrawn meanwhile: the page reloads to show it.
      setOpen(false);
    }
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const parsed = offerWithdrawSchema.safeParse({ intent: "withdraw", reason: reason.value });
    if (!parsed.success) {
      reason.refuse(issuesToFieldErrors(parsed.error).reason);
      return;
    }
    void fetcher.submit({ intent: "withdraw", reason: parsed.data.reason }, { method: "post", action: `/admin/applications/${applicationId}/offer` });
  }

  return (
    <>
      {withdrawable && mayWithdraw ? (
        <div className="mt-3">
          <Button ref={opener} variant="destructive" onClick={() => setOpen(true)} data-action="withdraw-offer">
            <Undo2 aria-hidden="true" />
            Withdraw Offer
          </Button>
        </div>
      ) : null}
      <ModalDialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (!next) reason.clearErrors();
        }}
        onCloseFocus={() => {
          if (opener.current?.isConnected) opener.current.focus();
          else document.getElementById("loan-offer-heading")?.focus();
        }}
        title="Withdraw Offer"
        description="The offer can no longer be signed. The applicant receives an e-mail with your reason and sees it on their application page."
        testId="withdraw-offer-dialog"
      >
        <form method="post" action={`/admin/applications/${applicationId}/offer`} noValidate onSubmit={onSubmit} className="mt-5 flex flex-col gap-3">
          <ReasonAndConfirm
            {...reason.field}
            hint={`Up to ${OFFER_LIMITS.withdrawReasonMaxLength} characters; the applicant reads it.`}
            maxLength={OFFER_LIMITS.withdrawReasonMaxLength}
            pending={pending}
            confirmLabel="Confirm Withdraw Offer"
            pendingLabel="Withdrawing…"
          >
            <input type="hidden" name="intent" value="withdraw" />
          </ReasonAndConfirm>
        </form>
      </ModalDialog>
    </>
  );
}
