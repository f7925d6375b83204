import { DOCUMENT_FIELDS, IDEMPOTENCY_FIELD, SIGNATURE_FIELD, type DocumentField } from "~/domain/validation/application";
import { schemaInput, type WizardValues } from "./wizard-values";

/** The wizard's one multipart request: its body and the idempotency key that makes a retry safe. */

/** A v4 UUID: crypto.randomUUID where available (secure contexts), else from getRandomValues. */
export function newIdempotencyKey(cryptoImpl: Pick<Crypto, "getRandomValues"> & { randomUUID?: () => string } = crypto): string {
  if (typeof cryptoImpl.randomUUID === "function") return cryptoImpl.randomUUID();
  const bytes = cryptoImpl.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The one multipart body: every text field, the documents, the signature PNG and the idempotency key. */
export function buildSubmission(
  values: WizardValues,
  files: Partial<Record<DocumentField, Blob & { name?: string }>>,
  signature: Blob,
  idempotencyKey: string,
): FormData {
  const body = new FormData();
  const fields = schemaInput({ ...values, agreeToTerms: true });
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  body.append(IDEMPOTENCY_FIELD, idempotencyKey);
  for (const doc of DOCUMENT_FIELDS) {
    const file = files[doc.field];
    if (file) body.append(doc.field, file, file.name || doc.field);
  }
  body.append(SIGNATURE_FIELD, signature, "signature.png");
  return body;
}

