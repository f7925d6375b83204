import { PenLine } from "lucide-react";
import { useState, type FormEvent } from "react";
import type { useFetcher } from "react-router";
import { EMPTY_SIGNATURE, hasSignature, SignaturePad, signatureToPng, type SignatureValue } from "~/components/apply/signature-pad";
import { InputField, SubmitButton, type FieldErrors, type FormToast } from "~/components/ui/form";
import { issuesToFieldErrors } from "~/domain/validation/field-errors";
import { AGREE_TO_SIGN_LABEL, OFFER_SIGNING_MESSAGES, signSchema, type OfferSigningActionData } from "~/domain/validation/offer-signing";
import { OFFER_LIMITS, type SignatureKind } from "~/domain/loan-offers";
import { OfferStep } from "./offer-step";
import { ConsentCheckbox } from "~/components/ui/consent-checkbox";

/**
 * The signature block of Review and Sign: draw (the wizard's signature pad, sent as a PNG data URL)
 * or type the full name, check "I have read the agreement…" and Sign Agreement. The schema is the
 * server's; a drawn signature is turned into its PNG here, before posting.
 */

function blobToDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error("read failed"));
    reader.readAsDataURL(blob);
  });
}

export function SignForm({
  fetcher,
  pending,
  serverErrors,
  signerName,
  signedOn,
}: {
  fetcher: ReturnType<typeof useFetcher<OfferSigningActionData & { toast: FormToast }>>;
  pending: boolean;
  serverErrors?: FieldErrors;
  signerName: string;
  /** The day the agreement on the page was computed for; the server refuses to sign for another. */
  signedOn: string;
}) {
  const [kind, setKind] = useState<SignatureKind>("typed");
  const [drawn, setDrawn] = useState<SignatureValue>(EMPTY_SIGNATURE);
  const [errors, setErrors] = useState<FieldErrors | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const shown = errors ?? serverErrors ?? {};

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const values: Record<string, string> = { intent: "sign", signatureKind: kind, signedOn };
    const agree = form.get("agree");
    if (typeof agree === "string") values.agree = agree;
    if (kind === "typed") {
      values.typedName = String(form.get("typedName") ?? "");
    } else {
      if (!hasSignature(drawn)) {
        setErrors({ signaturePng: [OFFER_SIGNING_MESSAGES.drawnRequired] });
        return;
      }
      setBusy(true);
      try {
        values.signaturePng = await blobToDataUrl(await signatureToPng(drawn));
      } catch {
        setErrors({ signaturePng: ["Couldn't capture signature. Please try again."] });
        return;
      } finally {
        setBusy(false);
      }
    }
    const parsed = signSchema.safeParse(values);
    if (!parsed.success) {
      setErrors(issuesToFieldErrors(parsed.error));
      return;
    }
    setErrors(undefined);
    const body = new FormData();
    for (const [key, value] of Object.entries(values)) body.set(key, value);
    void fetcher.submit(body, { method: "post", encType: "multipart/form-data" });
  }

  return (
    <OfferStep titleId="sign-title" title="Signature" className="flex flex-col gap-4" data-testid="sign-form">
      <fetcher.Form method="post" encType="multipart/form-data" noValidate className="flex flex-col gap-4" onSubmit={(e) => void onSubmit(e)}>
        <input type="hidden" name="intent" value="sign" />
        <input type="hidden" name="signatureKind" value={kind} />
        <input type="hidden" name="signedOn" value={signedOn} />
        <fieldset className="flex flex-col gap-2">
          <legend className="text-sm font-medium">How do you want to sign?</legend>
          <div className="flex flex-wrap gap-4">
            {(
              [
                ["typed", "Type my name"],
                ["drawn", "Draw my signature"],
              ] as const
            ).map(([value, label]) => (
              <label key={value} className="flex items-center gap-2 text-sm">
                <input
                  type="radio"
                  name="signatureKindChoice"
                  value={value}
                  checked={kind === value}
                  onChange={() => {
                    setKind(value);
                    setErrors(undefined);
                  }}
                  className="size-4 accent-primary"
                />
                {label}
              </label>
            ))}
          </div>
        </fieldset>
        {kind === "typed" ? (
          <InputField
            id="sign-typed-name"
            name="typedName"
            label="Full Name"
            hint={`Type your full name as you gave it: ${signerName}. Capitals, spaces and punctuation do not matter.`}
            autoComplete="name"
            maxLength={OFFER_LIMITS.typedSignatureMaxLength}
            errors={shown.typedName}
          />
        ) : (
          <div>
            <SignaturePad id="sign-pad" value={drawn} onChange={setDrawn} error={shown.signaturePng?.[0]} disabled={pending || busy} />
          </div>
        )}
        <ConsentCheckbox id="sign-agree" name="agree" label={AGREE_TO_SIGN_LABEL} errors={shown.agree} />
        <SubmitButton pending={pending || busy} label="Sign Agreement" pendingLabel="Signing…" icon={PenLine} className="sm:w-auto sm:self-start" />
      </fetcher.Form>
    </OfferStep>
  );
}
