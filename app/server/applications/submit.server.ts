import { transitionFor } from "~/domain/application-lifecycle";
import { recordEvent } from "~/server/conversation/index.server";
import { ENCRYPTION_PURPOSES } from "~/server/platform/crypto/encryption-purposes.server";
import { and, count, eq, sql } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import {
  APPLICATION_MESSAGES,
  DOCUMENT_FIELDS,
  SIGNATURE_FIELD,
  validateApplicationFields,
  type ApplicationFields,
} from "~/domain/validation/application";
import { getConfig } from "~/server/platform/config.server";
import { encryptField } from "~/server/platform/crypto/field-encryption.server";
import { sealedBankNumbers } from "~/server/platform/crypto/bank-numbers.server";
import { BLIND_INDEX_PURPOSES, lastFourToken } from "~/server/platform/crypto/blind-index.server";
import { getDb, type Db } from "~/server/platform/db/client.server";
import { bankAccounts, loanApplications, loanDocuments } from "~/server/platform/db/schema.server";
import type { ServiceAnswer } from "~/server/platform/http/action-answer.server";
import { enqueueEmail } from "~/server/platform/mail/outbox.server";
import { THROTTLES, throttleRefusal } from "~/server/platform/security/throttle.server";
import { applicationNotificationEmail, applicationReceivedEmail } from "~/server/platform/mail/templates.server";
import { documentKey, getStorage, type DocumentStorage } from "~/server/platform/storage/storage.server";
import { checkUploadedFile, storeUploadedFile } from "./file-work.server";
import { DOCUMENT_MIME_TYPES, originalFileName } from "~/domain/upload-rules";
import { draftForSubmission, takeDraft, type DraftForSubmission } from "./drafts.server";
import { isOneOf, LOAN_TYPES } from "~/domain/enums";
import { SENSITIVE_DRAFT_FIELDS } from "~/domain/validation/application-draft";
import { submissionRejected, type ParsedSubmission, type UploadedFile } from "./upload-parser.server";
import { AppError } from "~/server/platform/http/app-error.server";
import { logFailure } from "~/server/platform/log/describe-error.server";
import { screenApplicant } from "~/server/sanctions/index.server";
import { screeningSubjectOf } from "./screening-subjects.server";

/**
 * The application submission: all or nothing. Files are written to storage first, then the
 * application, its documents, its bank account and both e-mails are committed in one transaction;
 * if anything fails, nothing is committed and the files written are removed. A retried or
 * double-clicked submission (same idempotency key) yields the one application.
 */

export type Applicant = { id: string; name: string; email: string };

/** The SSN could not be encrypted (a key problem): nothing is stored, the spec's message is shown on step 1. */
export const ssnProcessingFailed = () => new AppError("ssn_processing", 503, "Failed to securely process your SSN. Please try again.", { field: "ssn", details: { step: 1 } });

function encryptSsn(ssn: string | undefined): string | null {
  if (!ssn) return null;
  try {
    return encryptField(ssn, ENCRYPTION_PURPOSES.ssn);
  } catch {
    throw ssnProcessingFailed();
  }
}
export type SubmissionResult = { applicationId: string; duplicate: boolean };

/** Counts this applicant's submission (THROTTLES.applicationPerUser); the 429 answer when over the limit, else null. */
export function submissionThrottled(user: Pick<Applicant, "id">): Promise<ServiceAnswer<{ ok: false; message: string }> | null> {
  return throttleRefusal([[`application:user:${user.id}`, THROTTLES.applicationPerUser]], (message) => ({ ok: false as const, message }));
}

/** A file of the application: received now (`source`), or kept with the applicant's draft (stored already). */
type PreparedFile = { field: string; type: string; key: string; mime: string; size: number; fileName: string; source?: UploadedFile };

const IDEMPOTENCY = /^[A-Za-z0-9_-]{16,64}$/;

/** Test seam: lets a test fail the submission after the files are written. */
export type SubmitHooks = { afterFilesWritten?: () => Promise<void> | void };

/** Checks every file by its content (nothing is stored yet) and names where each will be stored. */
async function prepareFiles(submission: ParsedSubmission, userId: string, applicationId: string, draft: DraftForSubmission | null): Promise<PreparedFile[]> {
  const prepared: PreparedFile[] = [];
  const check = checkUploadedFile;
  for (const doc of DOCUMENT_FIELDS) {
    const file = submission.files.get(doc.field);
    if (!file) {
      // Not sent again: the one kept with the draft (checked by content when it was saved).
      const kept = draft?.documents.find((d) => d.type === doc.type);
      if (kept) {
        prepared.push({ field: doc.field, type: doc.type, key: kept.key, mime: kept.mime, size: kept.size, fileName: kept.fileName });
        continue;
      }
      if (doc.required) throw submissionRejected(400, { step: 4, field: doc.field, message: APPLICATION_MESSAGES.documents });
      continue;
    }
    const type = await check(file, DOCUMENT_MIME_TYPES);
    prepared.push({
      field: doc.field,
      type: doc.type,
      key: documentKey(userId, applicationId, doc.type, type.ext),
      mime: type.mime,
      size: file.size,
      // Stored under our own key; the borrower's name for the file, sanitised, is kept for display only.
      fileName: originalFileName(file.filename, type.ext, `${doc.type}.${type.ext}`),
      source: file,
    });
  }
  const signature = submission.files.get(SIGNATURE_FIELD);
  if (!signature) throw submissionRejected(400, { step: 5, field: SIGNATURE_FIELD, message: APPLICATION_MESSAGES.signature });
  await check(signature, ["image/png"]);
  prepared.push({
    field: SIGNATURE_FIELD,
    type: "signature",
    key: documentKey(userId, applicationId, "signature", "png"),
    mime: "image/png",
    size: signature.size,
    fileName: "signature.png",
    source: signature,
  });
  return prepared;
}

async function findByIdempotencyKey(db: Db, userId: string, key: string): Promise<string | undefined> {
  const [row] = await db
    .select({ id: loanApplications.id })
    .from(loanApplications)
    .where(and(eq(loanApplications.userId, userId), eq(loanApplications.idempotencyKey, key)))
    .limit(1);
  return row?.id;
}

/** The loan_applications row for validated fields (SSN encrypted): shared with the demo seeder. */
export function applicationRow(id: string, applicant: Pick<Applicant, "id">, f: ApplicationFields, idempotencyKey: string) {
  return {
    id,
    userId: applicant.id,
    status: transitionFor("submit").to,
    loanType: f.loanType,
    requestedAmountCents: f.loanAmount,
    desiredRateMilli: f.desiredInterestRate,
    loanDuration: f.loanDuration,
    purpose: f.loanPurpose,
    propertyAddress: f.loanType === "hard-money" ? (f.propertyAddress ?? null) : null,
    businessName: f.businessName ?? null,
    businessYears: f.businessYears ?? null,
    firstName: f.firstName,
    middleInitial: f.middleInitial ?? null,
    lastName: f.lastName,
    dateOfBirth: f.dateOfBirth,
    email: f.email,
    phone: f.phone,
    addressLine1: f.addressLine1,
    addressLine2: f.addressLine2 ?? null,
    city: f.city,
    state: f.state,
    zipCode: f.zipCode,
    ssnEncrypted: encryptSsn(f.ssn),
    ssnLast4Index: f.ssn ? lastFourToken(f.ssn, BLIND_INDEX_PURPOSES.ssnLast4) : null,
    employmentStatus: f.employmentStatus,
    employerName: f.employerName,
    jobTitle: f.jobTitle ?? null,
    yearsEmployed: f.yearsEmployed ?? null,
    monthlyIncomeCents: f.monthlyIncome,
    annualIncomeCents: f.annualIncome ?? null,
    creditScore: f.creditScore ?? null,
    hasOutstandingLoans: f.hasOutstandingLoans,
    monthlyDebtsCents: f.monthlyDebts ?? null,
    authorizeCreditReport: f.authorizeCreditReport,
    idempotencyKey,
  };
}

/** The bank_accounts row (numbers encrypted, only the last 4 / last 2 digits in clear). */
export function bankAccountRow(userId: string, applicationId: string, f: ApplicationFields, isPrimary: boolean) {
  return {
    userId,
    applicationId,
    accountHolderName: f.accountHolderName,
    bankName: f.bankName,
    bankAddress: f.bankAddress ?? null,
    accountType: f.bankAccountType,
    ...sealedBankNumbers(f.accountNumber, f.routingNumber),
    swiftCode: f.swiftCode ?? null,
    isPrimary,
  };
}

export async function submitApplication(
  applicant: Applicant,
  submission: ParsedSubmission,
  options: { db?: Db; storage?: DocumentStorage; hooks?: SubmitHooks } = {},
): Promise<SubmissionResult> {
  const db = options.db ?? getDb();
  const storage = options.storage ?? getStorage();

  const idempotencyKey = submission.fields.idempotencyKey ?? "";
  if (!IDEMPOTENCY.test(idempotencyKey)) {
    throw submissionRejected(400, { message: "The application form is out of date. Please reload the page and try again." });
  }
  const existing = await findByIdempotencyKey(db, applicant.id, idempotencyKey);
  if (existing) return { applicationId: existing, duplicate: true };

  // The applicant's draft for this loan type completes what was not sent again: the SSN
  // and bank numbers left blank because they were kept, and the documents uploaded with the draft.
  const loanType = submission.fields.loanType ?? "";
  const draft = isOneOf(LOAN_TYPES, loanType) ? await draftForSubmission(db, applicant.id, loanType) : null;
  const raw = { ...submission.fields };
  for (const field of SENSITIVE_DRAFT_FIELDS) {
    const kept = draft?.sensitive[field];
    if (kept && !raw[field]?.trim()) raw[field] = kept;
  }

  const validated = validateApplicationFields(raw);
  if (!validated.ok) throw submissionRejected(400, validated.problem);
  const fields = validated.value;

  const applicationId = randomUUID();
  const files = await prepareFiles(submission, applicant.id, applicationId, draft);

  const written: string[] = [];
  let leftOver: string[] = [];
  try {
    for (const file of files) {
      if (!file.source) continue;
      await storeUploadedFile(storage, file.source, file.key, file.mime);
      written.push(file.key);
    }
    await options.hooks?.afterFilesWritten?.();
    const baseUrl = getConfig().publicUrl;
    await db.transaction(async (tx) => {
      // Close My Account locks the profile FOR UPDATE and refuses while an application is open; this
      // share lock orders a submission against a closing, so no application lands on a closed account.
      // (The row is locked whatever its state, then read: a WHERE on closed_at would skip the lock.)
      const profileRows = await tx.execute(sql`select closed_at from profiles where id = ${applicant.id} for share`);
      if ((profileRows as unknown as { rows: { closed_at: unknown }[] }).rows.some((r) => r.closed_at !== null)) {
        throw submissionRejected(409, { message: "This account is closed. Sign in with an open account to apply." });
      }
      if (draft) {
        // The draft becomes this application: deleted here, so a failed submission keeps it whole.
        const current = await takeDraft(tx, draft.id, applicant.id);
        const used = new Set(files.filter((f) => !f.source).map((f) => f.key));
        const stillThere = new Set((current ?? []).map((d) => d.key));
        if ([...used].some((key) => !stillThere.has(key))) {
          throw submissionRejected(409, { step: 4, message: "Your saved application changed while it was being submitted. Please check your documents and submit again." });
        }
        leftOver = [...stillThere].filter((key) => !used.has(key));
      }
      await tx.insert(loanApplications).values(applicationRow(applicationId, applicant, fields, idempotencyKey));
      await recordEvent(tx, { applicationId, ownerId: applicant.id, kind: "submitted", actorId: applicant.id, actorSide: "applicant" });
      await tx.insert(loanDocuments).values(
        files.map((f) => ({
          applicationId,
          userId: applicant.id,
          documentType: f.type as (typeof loanDocuments.$inferInsert)["documentType"],
          fileName: f.fileName,
          filePath: f.key,
          fileSize: f.size,
          mimeType: f.mime as (typeof loanDocuments.$inferInsert)["mimeType"],
        })),
      );
      const [{ value: accounts } = { value: 0 }] = await tx
        .select({ value: count() })
        .from(bankAccounts)
        .where(eq(bankAccounts.userId, applicant.id));
      await tx.insert(bankAccounts).values(bankAccountRow(applicant.id, applicationId, fields, accounts === 0));
      // Screened against the sanctions lists with the submission (decision 0089). A failed screening
      // (its savepoint rolled back) does not lose the application: it stays "not screened", which
      // blocks funding until a list load or Fund Loan screens it again. No list loaded is recorded as a
      // screening against nothing, which is not "clear" either.
      try {
        await screenApplicant(tx, screeningSubjectOf({ id: applicationId, firstName: fields.firstName, lastName: fields.lastName, dateOfBirth: fields.dateOfBirth }), "submission");
      } catch (error) {
        logFailure("applicant", "screening a submission against the sanctions lists failed", error, { applicationId });
      }
      const applicantName = `${fields.firstName} ${fields.lastName}`;
      await enqueueEmail(tx, {
        to: getConfig().lenderNotifyEmail,
        ...applicationNotificationEmail({
          applicantName,
          applicantEmail: fields.email,
          loanType: fields.loanType,
          requestedAmountCents: fields.loanAmount,
          purpose: fields.loanPurpose,
          employmentStatus: fields.employmentStatus,
          applicationId,
          baseUrl,
        }),
      });
      await enqueueEmail(tx, {
        to: applicant.email,
        ...applicationReceivedEmail({ applicantName, loanType: fields.loanType, requestedAmountCents: fields.loanAmount, applicationId, baseUrl }),
      });
    });
    // Draft files replaced by ones sent now: no row points at them any more (the sweep would remove them too).
    await Promise.all(leftOver.map((key) => storage.delete(key).catch(() => undefined)));
    return { applicationId, duplicate: false };
  } catch (error) {
    await Promise.all(written.map((key) => storage.delete(key).catch(() => undefined)));
    // Two copies of one submission racing: the loser finds the winner's application.
    const winner = await findByIdempotencyKey(db, applicant.id, idempotencyKey).catch(() => undefined);
    if (winner) return { applicationId: winner, duplicate: true };
    throw error;
  }
}
