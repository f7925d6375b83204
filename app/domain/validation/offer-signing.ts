import type { ActionResult, Toast } from "~/domain/action-result";
import { OFFER_LIMITS } from "~/domain/loan-offers";
import { inspectUpload } from "~/domain/upload-rules";
import { MAX_SIGNATURE_BYTES } from "./application-constants";
import { CONTROL_CHARACTER_MESSAGE, hasNoControlCharacters } from "./text-rules";
import { intentSchemas } from "./text-fields";
import { z } from "./zod";

/**
 * The Review and Sign page's forms: the E-SIGN consent ("I Agree"), its withdrawal and the
 * signature. One schema per intent, used by the page before posting and by the action (the authority).
 * Inputs are the strings a form posts. Pure, no I/O, safe in the browser.
 *
 * A drawn signature travels as a PNG data URL (the pad's canvas export) in an ordinary form field: the
 * content rules as the wizard's signature file (a complete PNG without markup or archives,
 * app/domain/upload-rules.ts) and a quarter of its size limit (MAX_OFFER_SIGNATURE_BYTES). A typed signature is the signer's name;
 * the server also checks that it is one of the borrower's names (~/domain/signer-names).
 */

export const OFFER_SIGNING_INTENTS = ["consent", "withdraw-consent", "sign"] as const;
export type OfferSigningIntent = (typeof OFFER_SIGNING_INTENTS)[number];

export const PNG_DATA_URL_PREFIX = "data:image/png;base64,";

/**
 * A drawn signature here is the pad's 600x200 PNG (a few to a few dozen KB). Its limit is a quarter of
 * the wizard's file limit because it travels inside an ordinary form: the form's limit (the PNG in
 * base64, 4/3, plus the other fields) stays under 200 KB, like every other action's, so an oversized
 * body is refused before much of it is read.
 */
export const MAX_OFFER_SIGNATURE_BYTES = MAX_SIGNATURE_BYTES / 4;

/** The largest form the sign intent accepts: the PNG in base64 (4/3) plus the other fields. */
export const MAX_SIGN_FORM_BYTES = Math.ceil((MAX_OFFER_SIGNATURE_BYTES * 4) / 3) + 16 * 1024;

export const AGREE_TO_SIGN_LABEL = "I have read the agreement and agree to sign it electronically";

export const OFFER_SIGNING_MESSAGES = {
  consentRequired: "Check the box to confirm that you agree to receive records and sign electronically.",
  agreeRequired: "Check the box to confirm that you have read the agreement and agree to sign it electronically.",
  signatureKind: "Choose how you sign: draw your signature or type your name.",
  drawnRequired: "Draw your signature in the box before signing.",
  drawnInvalid: "Couldn't read your drawn signature. Clear it and draw it again.",
  drawnTooLarge: "Your drawn signature is too large. Clear it and draw it again.",
  typedRequired: "Type your full name to sign.",
  typedLength: `Your typed name must be 2 to ${OFFER_LIMITS.typedSignatureMaxLength} characters.`,
  typedMismatch: "Type your full name as you gave it when you signed up or applied",
  signingDayMissing: "This form is missing the agreement's date. Reload the page, review the agreement and sign.",
} as const;

const checked = (message: string) =>
  z
    .string({ error: message })
    .refine((v) => v === "on" || v === "true" || v === "yes", message)
    .transform(() => true as const);

export const consentSchema = z.object({
  intent: z.literal("consent"),
  agree: checked(OFFER_SIGNING_MESSAGES.consentRequired),
});

export const withdrawConsentSchema = z.object({
  intent: z.literal("withdraw-consent"),
});

/** The PNG bytes of a data URL, or null when it is not base64 PNG data. Browser and Node both have atob. */
export function decodePngDataUrl(value: string): Uint8Array | null {
  if (!value.startsWith(PNG_DATA_URL_PREFIX)) return null;
  const b64 = value.slice(PNG_DATA_URL_PREFIX.length);
  if (b64.length === 0 || b64.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) return null;
  try {
    const binary = atob(b64);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return null;
  }
}

/** Why a drawn signature's data URL is refused, or null when it is a signature PNG within the limit. */
export function drawnSignatureProblem(value: string): string | null {
  if (!value) return OFFER_SIGNING_MESSAGES.drawnRequired;
  if (value.length > MAX_SIGN_FORM_BYTES) return OFFER_SIGNING_MESSAGES.drawnTooLarge;
  const bytes = decodePngDataUrl(value);
  if (!bytes) return OFFER_SIGNING_MESSAGES.drawnInvalid;
  if (bytes.length > MAX_OFFER_SIGNATURE_BYTES) return OFFER_SIGNING_MESSAGES.drawnTooLarge;
  const verdict = inspectUpload({ filename: "signature.png", declaredType: "image/png", bytes }, ["image/png"]);
  return verdict.ok ? null : OFFER_SIGNING_MESSAGES.drawnInvalid;
}

/**
 * The day the page computed the agreement for ('yyyy-MM-dd'): interest accrues by the day from signing,
 * so the final payment, finance charge and APR shown depend on it, and the server refuses to sign for
 * another day (the page was opened before midnight UTC) rather than sign figures the signer did not see.
 */
const signedOn = z.string({ error: OFFER_SIGNING_MESSAGES.signingDayMissing }).regex(/^\d{4}-\d{2}-\d{2}$/, OFFER_SIGNING_MESSAGES.signingDayMissing);

const typedName = z
  .string({ error: OFFER_SIGNING_MESSAGES.typedRequired })
  .trim()
  .min(1, OFFER_SIGNING_MESSAGES.typedRequired)
  .min(2, OFFER_SIGNING_MESSAGES.typedLength)
  .max(OFFER_LIMITS.typedSignatureMaxLength, OFFER_SIGNING_MESSAGES.typedLength)
  .refine((v) => hasNoControlCharacters(v) && !/[\t\r\n]/.test(v), CONTROL_CHARACTER_MESSAGE);

export const signSchema = z.discriminatedUnion(
  "signatureKind",
  [
    z.object({
      intent: z.literal("sign"),
      signatureKind: z.literal("drawn"),
      signedOn,
      signaturePng: z.string({ error: OFFER_SIGNING_MESSAGES.drawnRequired }).superRefine((value, ctx) => {
        const problem = drawnSignatureProblem(value);
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      }),
      agree: checked(OFFER_SIGNING_MESSAGES.agreeRequired),
    }),
    z.object({
      intent: z.literal("sign"),
      signatureKind: z.literal("typed"),
      signedOn,
      typedName,
      agree: checked(OFFER_SIGNING_MESSAGES.agreeRequired),
    }),
  ],
  { error: OFFER_SIGNING_MESSAGES.signatureKind },
);

export type SignInput = z.infer<typeof signSchema>;

/** The schema for a posted intent, or null for an unknown one. */
export const offerSigningSchemaFor = intentSchemas({ consent: consentSchema, "withdraw-consent": withdrawConsentSchema, sign: signSchema });

/** What the page's action answers (a successful sign redirects instead). */
export type OfferSigningActionData = ActionResult<{ intent: OfferSigningIntent | null; at: number; toast: Toast }>;
