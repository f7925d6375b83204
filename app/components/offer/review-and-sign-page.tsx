import { formatDay, formatMoment } from "~/domain/formats";
import { Breadcrumb } from "~/components/ui/breadcrumb";
import { Download, Undo2 } from "lucide-react";
import { Link } from "react-router";
import { applicationReference } from "~/components/dashboard/format";
import { Card } from "~/components/ui/card";
import { SubmitButton, useFormFetcher, type FormToast } from "~/components/ui/form";
import type { OfferSigningActionData } from "~/domain/validation/offer-signing";
import { formatAgreementDay, type ReviewAndSignPageData } from "~/domain/views/agreement-preview";
import { AgreementView } from "./agreement-view";
import { EsignConsentForm } from "./esign-consent-form";
import { SignForm } from "./sign-form";

type Answer = OfferSigningActionData & { toast: FormToast };

/**
 * Review and Sign (/dashboard/applications/:id/offer): the E-SIGN consent first; then the
 * agreement (the same data the signed PDF is made of), Withdraw E-SIGN Consent and the signature
 * block; or, for an offer that can no longer be signed, why (and the download once signed).
 */
export function ReviewAndSignPage({ data, actionData }: { data: ReviewAndSignPageData; actionData?: Answer }) {
  const reference = applicationReference(data.applicationId);
  const applicationPath = `/dashboard/applications/${data.applicationId}`;
  const consent = useFormFetcher<Answer>(actionData?.intent === "consent" ? actionData : undefined);
  const withdraw = useFormFetcher<Answer>(actionData?.intent === "withdraw-consent" ? actionData : undefined);
  const sign = useFormFetcher<Answer>(actionData?.intent === "sign" ? actionData : undefined);

  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-8 sm:px-6 sm:py-12 lg:px-8">
      <Breadcrumb crumbs={[{ label: "Dashboard", to: "/dashboard" }, { label: `Application ${reference}`, to: applicationPath }, { label: "Review and Sign" }]} />

      <header className="mt-4 mb-8">
        <h1 className="text-3xl font-bold tracking-tight text-primary sm:text-4xl">Review and Sign</h1>
        <p className="mt-2 text-muted-foreground">
          Your loan offer for application {reference}
          {data.state === "consent" || data.state === "sign"
            ? data.expiresAt
              ? `: sign by ${formatDay(data.expiresAt)}.`
              : "."
            : "."}
        </p>
      </header>

      {data.state === "closed" || data.state === "signed" ? (
        <Card className="flex flex-col gap-4 p-6" data-testid="offer-closed" role="status">
          <h2 className="text-xl font-semibold text-foreground">{data.state === "signed" ? "Agreement signed" : `This offer can no longer be signed${data.statusLabel ? ` (${data.statusLabel})` : ""}`}</h2>
          <p>{data.state === "signed" ? `Your loan agreement is signed and your loan is active.${data.firstPaymentDue ? ` The first payment is due ${formatAgreementDay(data.firstPaymentDue)}.` : ""}` : data.closedMessage}</p>
          <div className="flex flex-wrap gap-3">
            {data.state === "signed" ? (
              <a href={`${applicationPath}/agreement`} download className="inline-flex items-center gap-2 rounded-md bg-primary px-4 py-2 text-sm font-medium text-primary-foreground hover:bg-primary/90">
                <Download aria-hidden="true" className="size-4" />
                Download Signed Agreement
              </a>
            ) : null}
            <Link to={applicationPath} className="inline-flex items-center rounded-md border px-4 py-2 text-sm font-medium hover:bg-muted">
              Back to your application
            </Link>
          </div>
        </Card>
      ) : null}

      {data.state === "consent" ? <EsignConsentForm fetcher={consent.fetcher} pending={consent.pending} errors={consent.data?.fieldErrors?.agree} /> : null}

      {data.state === "sign" && data.agreement ? (
        <div className="flex flex-col gap-10">
          <Card className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between" data-testid="consent-status">
            <p className="text-sm">
              You gave your E-SIGN consent (version {data.consent?.version}) on{" "}
              {data.consent ? formatMoment(data.consent.consentedAt) : ""}. You may withdraw it until
              you sign; we would then send the agreement on paper.
            </p>
            <withdraw.fetcher.Form method="post">
              <input type="hidden" name="intent" value="withdraw-consent" />
              <SubmitButton variant="outline" pending={withdraw.pending} label="Withdraw E-SIGN Consent" pendingLabel="Withdrawing…" icon={Undo2} className="sm:w-auto" />
            </withdraw.fetcher.Form>
          </Card>
          <AgreementView agreement={data.agreement} />
          <SignForm fetcher={sign.fetcher} pending={sign.pending} serverErrors={sign.data?.fieldErrors} signerName={data.signerName} signedOn={data.agreement.signedOn} />
        </div>
      ) : null}
    </div>
  );
}
