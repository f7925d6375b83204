import { randomUUID } from "node:crypto";
import { makeJpeg, makePdf, makePng } from "./files";

/**
 * A complete, valid loan application for tests and the benchmark: its text fields, its documents, the
 * multipart form the wizard sends, and that form posted to /api/applications over HTTP.
 */

/** Where the test applicant lives and is called, as the wizard's fields hold them. */
export const applicantContact = {
  phone: "(302) 555-0199",
  addressLine1: "12 Market Street",
  city: "Wilmington",
  state: "DE",
  zipCode: "19801",
} as const;

export const validFields: Record<string, string> = {
  firstName: "Jane",
  middleInitial: "q",
  lastName: "Doe-Smith",
  dateOfBirth: "1988-04-12",
  ssn: "123-45-6789",
  email: "jane@example.com",
  ...applicantContact,
  loanType: "personal",
  loanAmount: "50,000",
  desiredInterestRate: "8.5",
  loanDuration: "60",
  loanPurpose: "Consolidating two credit cards into one payment",
  employmentStatus: "full-time",
  employerName: "Acme Corp",
  jobTitle: "Engineer",
  yearsEmployed: "6",
  monthlyIncome: "8,500",
  annualIncome: "102,000",
  creditScore: "720",
  monthlyDebts: "900",
  hasOutstandingLoans: "true",
  authorizeCreditReport: "true",
  accountHolderName: "Jane Doe-Smith",
  bankName: "First Bank",
  accountNumber: "000123456789",
  routingNumber: "021000021",
  swiftCode: "",
  bankAccountType: "checking",
  agreeToTerms: "true",
};

/** One uploaded file of a submission. */
export type UploadFile = { bytes: Buffer; name: string; type: string };

export function validFiles(): Record<string, UploadFile> {
  return {
    idCardFront: { bytes: makeJpeg(4000), name: "front.jpg", type: "image/jpeg" },
    idCardBack: { bytes: makePng(), name: "back.png", type: "image/png" },
    bankStatement1: { bytes: makePdf(3000), name: "jan.pdf", type: "application/pdf" },
    bankStatement2: { bytes: makePdf(3000), name: "feb.pdf", type: "application/pdf" },
    bankStatement3: { bytes: makePdf(3000), name: "mar.pdf", type: "application/pdf" },
    utilityBill: { bytes: makePdf(2000), name: "bill.pdf", type: "application/pdf" },
    signature: { bytes: makePng(40, 10), name: "signature.png", type: "image/png" },
  };
}


/**
 * The wizard's multipart body: `fields` (the valid ones, or another set), an idempotency key (`null`
 * leaves it out) and `files` (the valid documents, or another set).
 */
export function applicationForm(
  fields: Record<string, string> = validFields,
  files: Record<string, UploadFile> = validFiles(),
  idempotencyKey: string | null = randomUUID(),
): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (idempotencyKey !== null) form.append("idempotencyKey", idempotencyKey);
  for (const [k, f] of Object.entries(files)) form.append(k, new Blob([new Uint8Array(f.bytes)], { type: f.type }), f.name);
  return form;
}

export type SubmitOptions = {
  /** Replaces some of the valid fields. */
  fields?: Record<string, string>;
  /** Replaces some of the valid documents. */
  files?: Record<string, UploadFile>;
  /** Sent as X-Forwarded-For (the server trusts it when TRUST_PROXY is set). */
  ip?: string;
};

/** POSTs a valid application (with `overrides`) to /api/applications as the wizard does; the reply as is. */
export async function postApplication(base: string, cookie: string, overrides: SubmitOptions = {}) {
  const form = applicationForm({ ...validFields, ...overrides.fields }, { ...validFiles(), ...overrides.files });
  const res = await fetch(`${base}/api/applications`, {
    method: "POST",
    body: form,
    headers: { cookie, origin: base, ...(overrides.ip ? { "x-forwarded-for": overrides.ip } : {}) },
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & { applicationId?: string } };
}

/** Submits a valid application (with `overrides`) and returns its id; throws unless the server answers 201. */
export async function submitApplication(base: string, cookie: string, overrides: SubmitOptions = {}): Promise<string> {
  const { status, body } = await postApplication(base, cookie, overrides);
  if (status !== 201 || typeof body.applicationId !== "string") throw new Error(`submission answered ${status}: ${JSON.stringify(body)}`);
  return body.applicationId;
}
