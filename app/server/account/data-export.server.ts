import { createHash, randomBytes } from "node:crypto";
import type { Readable } from "node:stream";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { strToU8, zipSync, type Zippable } from "fflate";
import { ACCOUNT_DATA_MESSAGES } from "~/domain/validation/account-data";
import { writeAudit, type AuditActor, type RequestInfo } from "~/server/audit.server";
import { decryptOrLegacy } from "~/server/admin/reveal.server";
import { ENCRYPTION_PURPOSES } from "~/server/crypto/encryption-purposes.server";
import type { Db, DbOrTx } from "~/server/db/client.server";
import {
  approvedLoans,
  bankAccounts,
  dataExports,
  esignConsents,
  loanApplications,
  loanDocuments,
  loanFees,
  loanOffers,
  loanPayments,
  applicationMessages,
  privacyAcceptances,
  profiles,
  signedAgreements,
  user as users,
} from "~/server/db/schema.server";
import { dataExportReadyEmail } from "~/server/mail/account-data-emails.server";
import { enqueueEmail } from "~/server/mail/outbox.server";
import { assertSafeKey, type DocumentStorage } from "~/server/storage/storage-keys.server";
import { collectDraftsForExport } from "./data-export-drafts.server";
import { EXTENSION, maskAccountNumber, maskLast4, maskSsn } from "./data-export-format.server";

/**
 * Download My Data (issue 23; GLBA and state privacy laws' right to know/access). The applicant asks
 * (one pending request per person: a partial unique index decides), a background job builds a ZIP of
 * everything held about them, stores it privately under exports/, and e-mails a link whose token is
 * stored only as its SHA-256. The link works for 24 hours, for the same signed-in person only.
 *
 * Masking: the file is the applicant's own data, but a ZIP lies around in download folders and mail
 * can be forwarded, so SSNs and bank numbers keep their last 4 digits only (the issue's rule).
 */

export const DATA_EXPORT_VALID_MS = 24 * 60 * 60 * 1000;
/** The link's token: 32 random bytes, base64url (43 characters). */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const hashExportToken = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");
export const dataExportPath = (token: string) => `/account/data/download/${token}`;
export const dataExportStorageKey = (exportId: string) => {
  const key = `exports/${exportId}/data_export.zip`;
  assertSafeKey(key);
  return key;
};

export class DataExportRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

// ---------------------------------------------------------------------------------------------
// The request
// ---------------------------------------------------------------------------------------------

/** Records the request (409 when one is already being prepared), audited in the same transaction. */
export async function requestDataExport(db: Db, actor: AuditActor, info: RequestInfo = {}): Promise<{ id: string }> {
  return db.transaction(async (tx) => {
    // ON CONFLICT DO NOTHING against the partial unique index: two clicks at once make one request.
    const [row] = await tx.insert(dataExports).values({ userId: actor.id }).onConflictDoNothing().returning({ id: dataExports.id });
    if (!row) throw new DataExportRefused(409, ACCOUNT_DATA_MESSAGES.exportPending);
    await writeAudit(tx, { actor, action: "data_export.request", table: "data_exports", recordId: row.id, request: info });
    return row;
  });
}

// ---------------------------------------------------------------------------------------------
// Building the file
// ---------------------------------------------------------------------------------------------

export { maskAccountNumber, maskLast4, maskSsn } from "./data-export-format.server";

function decryptedOrNull(stored: string | null, purpose: string): string | null {
  if (!stored) return null;
  const outcome = decryptOrLegacy(stored, purpose);
  return outcome.ok ? outcome.value : null;
}

async function readAll(body: Readable): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return new Uint8Array(Buffer.concat(chunks));
}

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const json = (value: unknown) => strToU8(`${JSON.stringify(value, null, 2)}\n`);

export const EXPORT_README = `Your data from Private Loans
============================

This file holds everything we keep about you, as of the date in profile.json ("exportedAt").

profile.json       Your account: name, e-mail address, phone and postal address, when it was created.
applications.json  Each loan application with the values you gave, its status and decision (or
                   when you withdrew it), its bank account and any loan offers. Your Social Security number and bank account and
                   routing numbers show only their last 4 digits (for example ***-**-1234): the full
                   numbers stay encrypted with us and never leave in a file or an e-mail.
documents/         The files you uploaded with each application (documents/<application id>/...) and
                   your signed loan agreements.
drafts.json        Each application you saved to finish later: the values you entered, the step you
                   reached, when it was saved and when it will be deleted, and its files (in
                   drafts/<loan type>/...). Numbers are masked to their last 4 digits as above.
messages.json      The messages between you and us about each application.
consents.json      Your E-SIGN consents, your ACH payment authorizations and the privacy notices you
                   accepted, each with its date.
payments.json      Your loans, their terms and schedule figures, the payments made or pending and any fees.

Internal staff notes are not included. Questions: reply through the Contact page.
`;

export type ExportBuild = { files: Zippable; counts: Record<string, number>; missingFiles: string[] };

/** Collects every record held about `userId` and the files themselves; nothing here writes. */
export async function collectExport(db: DbOrTx, storage: DocumentStorage, userId: string, now: Date = new Date()): Promise<ExportBuild> {
  const [account] = await db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      emailVerified: users.emailVerified,
      createdAt: users.createdAt,
      fullName: profiles.fullName,
      phone: profiles.phone,
      address: profiles.address,
      city: profiles.city,
      state: profiles.state,
      zipCode: profiles.zipCode,
    })
    .from(users)
    .leftJoin(profiles, eq(profiles.id, users.id))
    .where(eq(users.id, userId))
    .limit(1);
  if (!account) throw new Error("collectExport: no such user");

  const apps = await db.select().from(loanApplications).where(eq(loanApplications.userId, userId)).orderBy(asc(loanApplications.submittedAt));
  const appIds = apps.map((a) => a.id);
  const none = appIds.length === 0;
  const banks = none ? [] : await db.select().from(bankAccounts).where(and(eq(bankAccounts.userId, userId), inArray(bankAccounts.applicationId, appIds)));
  const offers = none ? [] : await db.select().from(loanOffers).where(and(eq(loanOffers.userId, userId), inArray(loanOffers.applicationId, appIds)));
  const docs = none
    ? []
    : await db.select().from(loanDocuments).where(and(eq(loanDocuments.userId, userId), inArray(loanDocuments.applicationId, appIds))).orderBy(asc(loanDocuments.uploadedAt));
  const agreements = await db.select().from(signedAgreements).where(eq(signedAgreements.userId, userId));
  const messages = await db
    .select({ applicationId: applicationMessages.applicationId, from: applicationMessages.authorSide, body: applicationMessages.body, sentAt: applicationMessages.createdAt })
    .from(applicationMessages)
    .where(eq(applicationMessages.userId, userId))
    .orderBy(asc(applicationMessages.createdAt));
  const consents = await db.select().from(esignConsents).where(eq(esignConsents.userId, userId)).orderBy(asc(esignConsents.consentedAt));
  const privacy = await db.select().from(privacyAcceptances).where(eq(privacyAcceptances.userId, userId)).orderBy(asc(privacyAcceptances.acceptedAt));
  const loans = await db.select().from(approvedLoans).where(eq(approvedLoans.userId, userId)).orderBy(asc(approvedLoans.approvalDate));
  const loanIds = loans.map((l) => l.id);
  const payments = await db.select().from(loanPayments).where(eq(loanPayments.userId, userId)).orderBy(asc(loanPayments.createdAt));
  const fees = loanIds.length === 0 ? [] : await db.select().from(loanFees).where(inArray(loanFees.loanId, loanIds));

  const files: Zippable = {};
  const missingFiles: string[] = [];
  const documentEntries = new Map<string, { file: string | null }>();
  const used = new Set<string>();
  const place = (dir: string, base: string, ext: string) => {
    let name = `${dir}/${base}.${ext}`;
    for (let n = 2; used.has(name); n++) name = `${dir}/${base}-${n}.${ext}`;
    used.add(name);
    return name;
  };
  const addFile = async (key: string, dir: string, base: string, ext: string): Promise<string | null> => {
    const stored = await storage.get(key);
    if (!stored) {
      missingFiles.push(key);
      return null;
    }
    const name = place(dir, base, ext);
    // PDFs and images are compressed already: store them as they are (level 0) and save the CPU.
    files[name] = [await readAll(stored.body), { level: 0 }];
    return name;
  };
  for (const doc of docs) {
    const file = await addFile(doc.filePath, `documents/${doc.applicationId}`, doc.documentType.replace(/[^a-z0-9_]/g, "_"), EXTENSION[doc.mimeType] ?? "bin");
    documentEntries.set(doc.id, { file });
  }
  const drafts = await collectDraftsForExport(db, userId, addFile);
  const agreementFiles = new Map<string, string | null>();
  for (const agreement of agreements) {
    agreementFiles.set(agreement.id, await addFile(agreement.storageKey, `documents/${agreement.applicationId}`, "signed_loan_agreement", "pdf"));
  }

  files["README.txt"] = strToU8(EXPORT_README);
  files["profile.json"] = json({
    exportedAt: now.toISOString(),
    name: account.fullName ?? account.name,
    email: account.email,
    emailVerified: account.emailVerified,
    phone: account.phone ?? null,
    address: account.address ?? null,
    city: account.city ?? null,
    state: account.state ?? null,
    zipCode: account.zipCode ?? null,
    accountCreatedAt: iso(account.createdAt),
  });
  files["applications.json"] = json(
    apps.map((a) => ({
      id: a.id,
      status: a.status,
      submittedAt: iso(a.submittedAt),
      decidedAt: iso(a.reviewedAt),
      withdrawnAt: iso(a.withdrawnAt),
      decisionReasons: a.decisionReasons ?? [],
      loanType: a.loanType,
      requestedAmount: a.requestedAmount,
      desiredInterestRate: a.desiredInterestRate,
      loanDurationMonths: a.loanDuration,
      purpose: a.purpose,
      propertyAddress: a.propertyAddress,
      businessName: a.businessName,
      businessYears: a.businessYears,
      firstName: a.firstName,
      middleInitial: a.middleInitial,
      lastName: a.lastName,
      dateOfBirth: a.dateOfBirth,
      email: a.email,
      phone: a.phone,
      addressLine1: a.addressLine1,
      addressLine2: a.addressLine2,
      city: a.city,
      state: a.state,
      zipCode: a.zipCode,
      ssn: maskSsn(decryptedOrNull(a.ssnEncrypted, ENCRYPTION_PURPOSES.ssn)),
      employmentStatus: a.employmentStatus,
      employerName: a.employerName,
      jobTitle: a.jobTitle,
      yearsEmployed: a.yearsEmployed,
      monthlyIncome: a.monthlyIncome,
      annualIncome: a.annualIncome,
      creditScore: a.creditScore,
      hasOutstandingLoans: a.hasOutstandingLoans,
      monthlyDebts: a.monthlyDebts,
      authorizeCreditReport: a.authorizeCreditReport,
      bankAccounts: banks
        .filter((b) => b.applicationId === a.id)
        .map((b) => ({
          accountHolderName: b.accountHolderName,
          bankName: b.bankName,
          bankAddress: b.bankAddress,
          accountType: b.accountType,
          // The last 4 are stored in the clear for the masked display: no decryption needed.
          accountNumber: maskAccountNumber(b.accountNumberLast4),
          routingNumber: maskLast4(decryptedOrNull(b.routingNumber, ENCRYPTION_PURPOSES.routingNumber)) ?? `*******${b.routingNumberLast2}`,
          swiftCode: b.swiftCode,
          addedAt: iso(b.createdAt),
        })),
      documents: docs
        .filter((d) => d.applicationId === a.id)
        .map((d) => ({ type: d.documentType, fileName: d.fileName, mimeType: d.mimeType, bytes: d.fileSize, uploadedAt: iso(d.uploadedAt), file: documentEntries.get(d.id)?.file ?? null })),
      offers: offers
        .filter((o) => o.applicationId === a.id)
        .map((o) => ({
          status: o.status,
          isCounteroffer: o.isCounteroffer,
          counterofferReasons: o.counterofferReasons,
          amountCents: o.amountCents,
          noteRatePercent: o.noteRateMilli / 1000,
          aprPercent: o.aprMilli / 1000,
          termMonths: o.termMonths,
          originationFeeCents: o.originationFeeCents,
          amountFinancedCents: o.amountFinancedCents,
          paymentCents: o.paymentCents,
          finalPaymentCents: o.finalPaymentCents,
          financeChargeCents: o.financeChargeCents,
          totalOfPaymentsCents: o.totalOfPaymentsCents,
          offeredAt: iso(o.createdAt),
          expiresAt: iso(o.expiresAt),
          decidedAt: iso(o.decidedAt),
          withdrawReason: o.withdrawReason,
        })),
      signedAgreements: agreements
        .filter((s) => s.applicationId === a.id)
        .map((s) => ({ signedAt: iso(s.signedAt), signerName: s.signerName, signatureKind: s.signatureKind, sha256: s.sha256, file: agreementFiles.get(s.id) ?? null })),
    })),
  );
  files["drafts.json"] = json(drafts.drafts);
  files["messages.json"] = json(messages.map((m) => ({ applicationId: m.applicationId, from: m.from, body: m.body, sentAt: iso(m.sentAt) })));
  files["consents.json"] = json({
    esignConsents: consents.map((c) => ({ applicationId: c.applicationId, version: c.version, consentedAt: iso(c.consentedAt), ipAddress: c.ipAddress, userAgent: c.userAgent, withdrawnAt: iso(c.withdrawnAt) })),
    achAuthorizations: payments
      .filter((p) => p.authorizationVersion !== null)
      .map((p) => ({ loanId: p.loanId, amountCents: p.amountCents, version: p.authorizationVersion, authorizedAt: iso(p.authorizedAt), ipAddress: p.authorizationIp, userAgent: p.authorizationUserAgent })),
    privacyAcceptances: privacy.map((p) => ({ noticeVersion: p.noticeVersion, acceptedAt: iso(p.acceptedAt), ipAddress: p.ipAddress, userAgent: p.userAgent })),
  });
  files["payments.json"] = json({
    loans: loans.map((l) => ({
      id: l.id,
      applicationId: l.applicationId,
      status: l.status,
      amountCents: l.amountCents,
      noteRatePercent: l.noteRateMilli / 1000,
      paymentCents: l.paymentCents,
      termMonths: l.termMonths,
      balance: l.balance,
      approvedAt: iso(l.approvalDate),
      startDate: l.startDate,
      firstPaymentDue: l.firstPaymentDue,
      nextDueDate: l.nextDueDate,
      maturityDate: l.maturityDate,
      paidOffAt: iso(l.paidOffAt),
    })),
    payments: payments.map((p) => ({
      loanId: p.loanId,
      amountCents: p.amountCents,
      status: p.status,
      method: p.method,
      choice: p.choice,
      reference: p.reference,
      receivedOn: p.receivedOn,
      returnCode: p.returnCode,
      reversalReason: p.reversalReason,
      createdAt: iso(p.createdAt),
      postedAt: iso(p.postedAt),
    })),
    fees: fees.map((f) => ({ loanId: f.loanId, kind: f.kind, installmentNumber: f.installmentNumber, amountCents: f.amountCents, assessedOn: f.assessedOn })),
  });

  return {
    files,
    missingFiles,
    counts: { applications: apps.length, drafts: drafts.drafts.length, documents: docs.length + agreements.length + drafts.documents, messages: messages.length, loans: loans.length, payments: payments.length },
  };
}

// ---------------------------------------------------------------------------------------------
// The background run
// ---------------------------------------------------------------------------------------------

export type ExportRunResult = { ready: number; failed: number };

/**
 * Prepares pending exports one at a time. Each is claimed with FOR UPDATE SKIP LOCKED inside its own
 * transaction, so instances sharing PostgreSQL never build the same one twice; the file is written
 * before the row says ready, and removed again if the transaction fails. A build that throws marks the
 * request failed (the applicant can ask again) instead of retrying it forever.
 */
export async function processPendingExports(options: {
  db: Db;
  storage: DocumentStorage;
  baseUrl: string;
  now?: () => Date;
  log?: (line: string) => void;
  /** At most this many per run, so one run never holds the process for long. */
  limit?: number;
}): Promise<ExportRunResult> {
  const { db, storage } = options;
  const now = options.now ?? (() => new Date());
  const result: ExportRunResult = { ready: 0, failed: 0 };
  for (let i = 0; i < (options.limit ?? 5); i++) {
    let claimedId: string | null = null;
    let writtenKey: string | null = null;
    try {
      const done = await db.transaction(async (tx) => {
        const claimed = await tx.execute(
          sql`select id, user_id from data_exports where status = 'pending' order by requested_at limit 1 for update skip locked`,
        );
        const row = (claimed as unknown as { rows: { id: string; user_id: string }[] }).rows[0];
        if (!row) return false;
        claimedId = row.id;
        const at = now();
        const build = await collectExport(tx, storage, row.user_id, at);
        const zip = zipSync(build.files, { level: 6, mtime: at });
        const key = dataExportStorageKey(row.id);
        await storage.put(key, zip, "application/zip");
        writtenKey = key;
        const token = randomBytes(32).toString("base64url");
        const expiresAt = new Date(at.getTime() + DATA_EXPORT_VALID_MS);
        await tx
          .update(dataExports)
          .set({ status: "ready", storageKey: key, tokenHash: hashExportToken(token), readyAt: at, expiresAt })
          .where(and(eq(dataExports.id, row.id), eq(dataExports.status, "pending")));
        const [owner] = await tx.select({ email: users.email, name: users.name }).from(users).where(eq(users.id, row.user_id)).limit(1);
        // Only the link goes by e-mail, never data.
        if (owner) await enqueueEmail(tx, { to: owner.email, ...dataExportReadyEmail({ name: owner.name, baseUrl: options.baseUrl, path: dataExportPath(token), expiresAt }) });
        await writeAudit(tx, {
          actor: null,
          action: "data_export.ready",
          table: "data_exports",
          recordId: row.id,
          details: { userId: row.user_id, bytes: zip.byteLength, counts: build.counts, missingFiles: build.missingFiles.length, expiresAt: expiresAt.toISOString() },
        });
        return true;
      });
      if (!done) break;
      result.ready++;
    } catch (error) {
      if (writtenKey) await storage.delete(writtenKey).catch(() => undefined);
      if (!claimedId) throw error;
      options.log?.(`[data-export] export ${claimedId} failed: ${(error as Error).message}`);
      await db
        .update(dataExports)
        .set({ status: "failed", error: (error as Error).message.slice(0, 500) })
        .where(and(eq(dataExports.id, claimedId), eq(dataExports.status, "pending")));
      result.failed++;
    }
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// The download
// ---------------------------------------------------------------------------------------------

export type ExportDownload = { body: Readable; size: number; fileName: string };

/**
 * The e-mailed link: only the person it was made for, signed in, within 24 hours. Another person's
 * token and an unknown one get the same 404 (a token says nothing about whose it is); an expired one
 * 410. Each download is audited (data_export.download) before the bytes go out.
 */
export async function openDataExport(db: Db, storage: DocumentStorage, token: string, actor: AuditActor, info: RequestInfo = {}, now: Date = new Date()): Promise<ExportDownload> {
  if (!TOKEN_PATTERN.test(token)) throw new DataExportRefused(404, "This download link is not valid.");
  const [row] = await db.select().from(dataExports).where(eq(dataExports.tokenHash, hashExportToken(token))).limit(1);
  if (!row || row.userId !== actor.id || row.status !== "ready" || !row.storageKey) throw new DataExportRefused(404, "This download link is not valid.");
  if (!row.expiresAt || row.expiresAt <= now) throw new DataExportRefused(410, "This download link has expired. Request a new file from your account page.");
  const stored = await storage.get(row.storageKey);
  if (!stored) throw new DataExportRefused(410, "This download link has expired. Request a new file from your account page.");
  try {
    await db.transaction(async (tx) => {
      await tx.update(dataExports).set({ downloadedAt: now }).where(eq(dataExports.id, row.id));
      await writeAudit(tx, { actor, action: "data_export.download", table: "data_exports", recordId: row.id, request: info });
    });
  } catch (error) {
    stored.body.destroy();
    throw error;
  }
  return { body: stored.body, size: stored.size, fileName: `private-loans-data-${now.toISOString().slice(0, 10)}.zip` };
}
