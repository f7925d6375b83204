import { DOCUMENT_FIELDS, IDEMPOTENCY_FIELD, SIGNATURE_FIELD, type DocumentField } from "~/domain/validation/application";
import { schemaInput, type WizardValues } from "./wizard-values";

/** The wizard's one multipart request: its body and the idempotency key that makes a retry safe. */

// Shared with other forms that must post once (Record Payment); kept importable from here.
export { newIdempotencyKey } from "~/components/idempotency-key";

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

