import { Check } from "lucide-react";
import { useState } from "react";
import { ConsentCheckbox } from "~/components/ui/consent-checkbox";
import { SubmitButton } from "~/components/ui/form";
import { ESIGN_CONSENT_SECTIONS, ESIGN_CONSENT_STATEMENT, ESIGN_CONSENT_TITLE, ESIGN_CONSENT_VERSION } from "~/domain/esign-consent";
import type { FormToast } from "~/components/ui/form";
import { consentSchema, type OfferSigningActionData } from "~/domain/validation/offer-signing";
import type { useFetcher } from "react-router";
import { OfferStep } from "./offer-step";

/**
 * The E-SIGN consent (15 U.S.C. 7001(c)) asked before the agreement, the first electronic disclosure,
 * is shown: the versioned text, the statement to check and "I Agree". Where to withdraw it is said
 * here, since the application page links to this page for it.
 */
export function EsignConsentForm({
  fetcher,
  pending,
  errors,
}: {
  fetcher: ReturnType<typeof useFetcher<OfferSigningActionData & { toast: FormToast }>>;
  pending: boolean;
  errors?: string[];
}) {
  const [clientError, setClientError] = useState<string[] | undefined>(undefined);
  const shown = clientError ?? errors;
  return (
    <OfferStep
      titleId="esign-title"
      title={ESIGN_CONSENT_TITLE}
      lead={<>Before we show you the loan agreement and its Truth in Lending disclosure electronically, the law asks for your consent. Version {ESIGN_CONSENT_VERSION}.</>}
      className="flex flex-col gap-5"
      data-testid="esign-consent"
    >
      {ESIGN_CONSENT_SECTIONS.map((section) => (
        <div key={section.heading} className="flex flex-col gap-2">
          <h3 className="text-lg font-semibold text-foreground">{section.heading}</h3>
          {section.paragraphs.map((p) => (
            <p key={p.slice(0, 40)} className="text-sm leading-relaxed">
              {p}
            </p>
          ))}
        </div>
      ))}
      <p className="rounded-md border bg-muted/40 p-3 text-sm">
        After you agree, a <strong>Withdraw E-SIGN Consent</strong> button on this Review and Sign page (reached with Review and Sign from your application page) withdraws it until you sign; you can also send us a message from your application page at any time.
      </p>
      <fetcher.Form
        method="post"
        noValidate
        className="flex flex-col gap-4"
        onSubmit={(event) => {
          const form = new FormData(event.currentTarget);
          const parsed = consentSchema.safeParse({ intent: "consent", agree: form.get("agree") ?? undefined });
          if (!parsed.success) {
            event.preventDefault();
            setClientError([parsed.error.issues[0]!.message]);
            return;
          }
          setClientError(undefined);
        }}
      >
        <input type="hidden" name="intent" value="consent" />
        <ConsentCheckbox id="esign-agree" name="agree" label={ESIGN_CONSENT_STATEMENT} errors={shown} onChange={() => setClientError(undefined)} />
        <SubmitButton pending={pending} label="I Agree" pendingLabel="Saving…" icon={Check} className="sm:w-auto sm:self-start" />
      </fetcher.Form>
    </OfferStep>
  );
}
