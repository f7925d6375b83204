import { dollarsOf, percentOf } from "~/domain/money";
import { createHash, randomBytes } from "node:crypto";
import type { Readable } from "node:stream";
import { and, asc, eq, ne, sql } from "drizzle-orm";
import { ACCOUNT_DATA_MESSAGES, dataExportDailyLimitMessage, storageCapMessage } from "~/domain/validation/account-data";
import { writeAudit, type AuditActor, type RequestInfo } from "~/server/platform/audit/audit.server";
import { decryptOrLegacy } from "~/server/staff/index.server";
import { applicationRecordsOfPerson, draftsWithDocuments } from "~/server/applications/index.server";
import { messagesOfPerson } from "~/server/conversation/index.server";
import { loanRecordsOfPerson } from "~/server/loans/index.server";
import { offerRecordsOfPerson } from "~/server/offers/index.server";
import { ENCRYPTION_PURPOSES } from "~/server/platform/crypto/encryption-purposes.server";
import { getConfig } from "~/server/platform/config.server";
import type { Db, DbOrTx } from "~/server/platform/db/client.server";
import { dataExports, privacyAcceptances, profiles, user as users } from "~/server/platform/db/schema.server";
import { dataExportReadyEmail } from "~/server/accounts/account-data-emails.server";
import { enqueueEmail } from "~/server/platform/mail/outbox.server";
import { hit, THROTTLES } from "~/server/platform/security/throttle.server";
import { assertSafeKey, StoredObjectTooLarge, type DocumentStorage } from "~/server/platform/storage/storage-keys.server";
import { draftsForExport } from "./data-export-drafts.server";
import { jsonArrayText, textChunks, zipStream, type ZipEntry } from "./zip-stream.server";
import { EXTENSION, maskAccountNumber, maskLast4, maskSsn } from "./data-export-format.server";
import { AppError } from "~/server/platform/http/app-error.server";

/**
 * Download My Data (GLBA and state privacy laws' right to know/access). The applicant asks
 * (one pending request per person: a partial unique index decides), a background job builds a ZIP of
 * everything held about them, stores it privately under exports/, and e-mails a link whose token is
 * stored only as its SHA-256. The link works for 24 hours, for the same signed-in person only.
 *
 * Bounds (a person must not be able to fill the disk or stall the server): one file per person (a new
 * request deletes the previous one), 3 requests a day (rate_limit_hits), the file within the person's
 * storage cap, the ZIP streamed to storage, and the build reading in short statements outside any
 * transaction (processPendingExports says how).
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

// ---------------------------------------------------------------------------------------------
// The request
// ---------------------------------------------------------------------------------------------

/** The 3-a-day rule's counter in rate_limit_hits: one per person. */
export const dataExportThrottleKey = (userId: string) => `data-export:user:${userId}`;

/**
 * Records the request, audited in the same transaction, and deletes the person's previous file (one
 * file per person at a time; its link stops working). Refused: 409 while one is being prepared or when
 * the person's documents leave no room under their storage cap (the file holds them again), 429 after 3
 * requests in a day. The daily count is taken in the same transaction as the insert, so a refused
 * request (409) is not counted and parallel requests count exactly.
 */
export async function requestDataExport(db: Db, storage: DocumentStorage, actor: AuditActor, info: RequestInfo = {}, options: { capBytes?: number; now?: Date } = {}): Promise<{ id: string; replaced: number }> {
  const capBytes = options.capBytes ?? getConfig().personStorageCapBytes;
  const { room, documents } = await exportRoom(db, actor.id, capBytes);
  if (documents >= room) throw new AppError("data_export", 409, storageCapMessage(capBytes));
  const { id, oldKeys } = await db.transaction(async (tx) => {
    // ON CONFLICT DO NOTHING against the partial unique index: two clicks at once make one request.
    const [row] = await tx.insert(dataExports).values({ userId: actor.id }).onConflictDoNothing().returning({ id: dataExports.id });
    if (!row) throw new AppError("data_export", 409, ACCOUNT_DATA_MESSAGES.exportPending);
    const counted = await hit(dataExportThrottleKey(actor.id), THROTTLES.dataExportPerUser, { db: tx, now: options.now });
    if (!counted.allowed) throw new AppError("data_export", 429, dataExportDailyLimitMessage(counted.retryAfterSeconds), { retryAfterSeconds: counted.retryAfterSeconds });
    const previous = await tx
      .delete(dataExports)
      .where(and(eq(dataExports.userId, actor.id), ne(dataExports.id, row.id)))
      .returning({ key: dataExports.storageKey, status: dataExports.status });
    const replaced = previous.filter((p) => p.status === "ready").length;
    await writeAudit(tx, {
      actor,
      action: "data_export.request",
      table: "data_exports",
      recordId: row.id,
      request: info,
      details: { replacedFiles: replaced },
    });
    return {
      id: row.id,
      oldKeys: previous.flatMap((p) => (p.key ? [p.key] : [])),
    };
  });
  // After the commit: a file whose row is gone is an orphan the sweep would remove anyway.
  for (const key of oldKeys) await storage.delete(key).catch(() => undefined);
  return { id, replaced: oldKeys.length };
}

// ---------------------------------------------------------------------------------------------
// Building the file
// ---------------------------------------------------------------------------------------------

export { maskAccountNumber, maskLast4, maskSsn } from "./data-export-format.server";

/** The named fields of a stored row under their own names, in the order named (the order the export's JSON keeps). */
function fieldsOf<R, K extends keyof R>(row: R, names: readonly K[]): Pick<R, K> {
  return Object.fromEntries(names.map((name) => [name, row[name]])) as Pick<R, K>;
}

/** The rows that belong to one application. */
function ofApplication<R extends { applicationId: string | null }>(rows: readonly R[], applicationId: string): R[] {
  return rows.filter((row) => row.applicationId === applicationId);
}

function decryptedOrNull(stored: string | null, purpose: string): string | null {
  if (!stored) return null;
  const outcome = decryptOrLegacy(stored, purpose);
  return outcome.ok ? outcome.value : null;
}

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
consents.json      Your E-SIGN consents, your ACH payment authorizations, your autopay (recurring
                   debit) authorizations with their text, and the privacy notices you accepted, each
                   with its date.
payments.json      Your loans, their terms and schedule figures, the payments made or pending and any fees.

Internal staff notes are not included. Questions: reply through the Contact page.
`;

type ExportRecords = Awaited<ReturnType<typeof readExportRecords>>;

/**
 * Every record held about `userId`, each table in its own short statement outside any transaction (on
 * the embedded database a transaction holds the only connection: every other request would wait for
 * the whole build). Rows of a person are few, except messages, which are read a page at a time.
 */
async function readExportRecords(db: Db, userId: string) {
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

  const { apps, banks, docs } = await applicationRecordsOfPerson(userId, db);
  const { offers, agreements, consents } = await offerRecordsOfPerson(userId, apps.map((a) => a.id), db);
  const messages = await messagesOfPerson(userId, db);
  const privacy = await db.select().from(privacyAcceptances).where(eq(privacyAcceptances.userId, userId)).orderBy(asc(privacyAcceptances.acceptedAt));
  const { loans, payments, fees, autopays } = await loanRecordsOfPerson(userId, db);
  const drafts = await draftsWithDocuments(db, userId);
  return {
    account,
    apps,
    banks,
    offers,
    docs,
    agreements,
    messages,
    consents,
    privacy,
    loans,
    payments,
    fees,
    autopays,
    drafts,
  };
}

/** What a build found, for the audit row once the file is stored. */
export type ExportTally = {
  counts: Record<string, number>;
  missingFiles: string[];
};

/**
 * The ZIP's entries, in order: the stored files first (each opened only when its turn comes, so one
 * file is read at a time), then README.txt and the JSON files that name them. `between` runs before
 * each entry (the build keeps its claim on the request there).
 */
async function* exportEntries(storage: DocumentStorage, records: ExportRecords, now: Date, tally: ExportTally, between: () => Promise<void>): AsyncGenerator<ZipEntry> {
  const { account, apps, banks, offers, docs, agreements, messages, consents, privacy, loans, payments, fees, autopays } = records;
  const used = new Set<string>();
  const place = (dir: string, base: string, ext: string) => {
    let name = `${dir}/${base}.${ext}`;
    for (let n = 2; used.has(name); n++) name = `${dir}/${base}-${n}.${ext}`;
    used.add(name);
    return name;
  };
  /** A stored file as an entry (PDFs and images are compressed already: stored as they are), or null when it is missing. */
  async function* file(key: string, dir: string, base: string, ext: string, named: (name: string | null) => void): AsyncGenerator<ZipEntry> {
    await between();
    const stored = await storage.get(key);
    if (!stored) {
      tally.missingFiles.push(key);
      named(null);
      return;
    }
    const name = place(dir, base, ext);
    named(name);
    yield { name, level: 0, data: stored.body };
  }

  const documentFiles = new Map<string, string | null>();
  for (const doc of docs) {
    yield* file(doc.filePath, `documents/${doc.applicationId}`, doc.documentType.replace(/[^a-z0-9_]/g, "_"), EXTENSION[doc.mimeType] ?? "bin", (name) => documentFiles.set(doc.id, name));
  }
  const draftFiles = new Map<string, string | null>();
  for (const d of records.drafts.documents) {
    yield* file(d.storageKey, `drafts/${d.loanType}`, d.documentType.replace(/[^a-z0-9_]/g, "_"), EXTENSION[d.mimeType] ?? "bin", (name) => draftFiles.set(d.id, name));
  }
  const agreementFiles = new Map<string, string | null>();
  for (const agreement of agreements) {
    yield* file(agreement.storageKey, `documents/${agreement.applicationId}`, "signed_loan_agreement", "pdf", (name) => agreementFiles.set(agreement.id, name));
  }

  const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
  const text: Record<string, unknown> = {};
  text["profile.json"] = ({
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
  text["applications.json"] = (
    apps.map((a) => ({
      id: a.id,
      status: a.status,
      submittedAt: iso(a.submittedAt),
      decidedAt: iso(a.reviewedAt),
      withdrawnAt: iso(a.withdrawnAt),
      decisionReasons: a.decisionReasons ?? [],
      // Where a denial's information came from (the consumer report and score disclosed in the notice).
      denialSource: a.denialSource ?? null,
      loanType: a.loanType,
      // The export's format names dollars and percents: converted here from the stored units.
      requestedAmount: dollarsOf(a.requestedAmountCents),
      desiredInterestRate: percentOf(a.desiredRateMilli),
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
      monthlyIncome: dollarsOf(a.monthlyIncomeCents),
      annualIncome: a.annualIncomeCents === null ? null : dollarsOf(a.annualIncomeCents),
      creditScore: a.creditScore,
      hasOutstandingLoans: a.hasOutstandingLoans,
      monthlyDebts: a.monthlyDebtsCents === null ? null : dollarsOf(a.monthlyDebtsCents),
      authorizeCreditReport: a.authorizeCreditReport,
      bankAccounts: ofApplication(banks, a.id).map((b) => ({
        ...fieldsOf(b, ["accountHolderName", "bankName", "bankAddress", "accountType"]),
        // The last 4 are stored in the clear for the masked display: no decryption needed.
        accountNumber: maskAccountNumber(b.accountNumberLast4),
        routingNumber: maskLast4(decryptedOrNull(b.routingNumber, ENCRYPTION_PURPOSES.routingNumber)) ?? `*******${b.routingNumberLast2}`,
        swiftCode: b.swiftCode,
        addedAt: iso(b.createdAt),
      })),
      documents: ofApplication(docs, a.id).map((d) => ({ type: d.documentType, fileName: d.fileName, mimeType: d.mimeType, bytes: d.fileSize, uploadedAt: iso(d.uploadedAt), file: documentFiles.get(d.id) ?? null })),
      offers: ofApplication(offers, a.id).map((o) => ({
        ...fieldsOf(o, ["status", "isCounteroffer", "counterofferReasons", "amountCents"]),
        noteRatePercent: o.noteRateMilli / 1000,
        aprPercent: o.aprMilli / 1000,
        ...fieldsOf(o, [
          "termMonths", "originationFeeCents", "amountFinancedCents", "paymentCents",
          "finalPaymentCents", "financeChargeCents", "totalOfPaymentsCents",
        ]),
        offeredAt: iso(o.createdAt),
        expiresAt: iso(o.expiresAt),
        decidedAt: iso(o.decidedAt),
        withdrawReason: o.withdrawReason,
      })),
      signedAgreements: ofApplication(agreements, a.id).map((s) => ({ signedAt: iso(s.signedAt), signerName: s.signerName, signatureKind: s.signatureKind, signatureTypedName: s.signatureTypedName, sha256: s.sha256, file: agreementFiles.get(s.id) ?? null })),
    }))
  );
  text["drafts.json"] = draftsForExport(records.drafts, draftFiles);
  text["consents.json"] = ({
    esignConsents: consents.map((c) => ({ applicationId: c.applicationId, version: c.version, consentedAt: iso(c.consentedAt), ipAddress: c.ipAddress, userAgent: c.userAgent, withdrawnAt: iso(c.withdrawnAt) })),
    achAuthorizations: payments
      .filter((p) => p.authorizationVersion !== null)
      .map((p) => ({ loanId: p.loanId, amountCents: p.amountCents, version: p.authorizationVersion, authorizedAt: iso(p.authorizedAt), ipAddress: p.authorizationIp, userAgent: p.authorizationUserAgent })),
    autopayAuthorizations: autopays,
    privacyAcceptances: privacy.map((p) => ({ noticeVersion: p.noticeVersion, acceptedAt: iso(p.acceptedAt), ipAddress: p.ipAddress, userAgent: p.userAgent })),
  });
  text["payments.json"] = ({
    loans: loans.map((l) => ({
      id: l.id,
      applicationId: l.applicationId,
      status: l.status,
      amountCents: l.amountCents,
      noteRatePercent: percentOf(l.noteRateMilli),
      paymentCents: l.paymentCents,
      termMonths: l.termMonths,
      balance: dollarsOf(l.balanceCents),
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

  await between();
  yield { name: "README.txt", level: 6, data: textChunks([EXPORT_README]) };
  for (const [name, value] of Object.entries(text)) {
    await between();
    yield {
      name,
      level: 6,
      data: textChunks([`${JSON.stringify(value, null, 2)}\n`]),
    };
  }
  await between();
  // The one list that can be long: written an item at a time.
  yield {
    name: "messages.json",
    level: 6,
    data: textChunks(
      jsonArrayText(
        messages.map((m) => ({
          applicationId: m.applicationId,
          from: m.from,
          body: m.body,
          sentAt: iso(m.sentAt),
        })),
      ),
    ),
  };
  tally.counts = {
    applications: apps.length,
    drafts: records.drafts.drafts.length,
    documents: docs.length + agreements.length + records.drafts.documents.length,
    messages: messages.length,
    loans: loans.length,
    payments: payments.length,
  };
}

// ---------------------------------------------------------------------------------------------
// The per-person storage cap
// ---------------------------------------------------------------------------------------------

/** Bytes of a person's uploaded documents (submitted and saved with drafts), from their rows. */
export async function documentBytesOf(db: DbOrTx, userId: string): Promise<number> {
  const result = await db.execute(sql`
    select (coalesce((select sum(file_size) from loan_documents where user_id = ${userId}), 0)
          + coalesce((select sum(file_size) from draft_documents where user_id = ${userId}), 0))::float8 as bytes`);
  return Number((result as unknown as { rows: { bytes: number }[] }).rows[0]?.bytes ?? 0);
}

/** The room a person's export may take: the cap less their documents (the export holds them again). */
export async function exportRoom(db: DbOrTx, userId: string, capBytes: number): Promise<{ room: number; documents: number }> {
  const documents = await documentBytesOf(db, userId);
  return { room: capBytes - documents, documents };
}

// ---------------------------------------------------------------------------------------------
// The background run
// ---------------------------------------------------------------------------------------------

export type ExportRunResult = { ready: number; failed: number };

/** How long a claim on a request lasts without news from its builder; the builder renews it every minute. */
export const EXPORT_CLAIM_MS = 10 * 60 * 1000;
const CLAIM_RENEW_MS = 60 * 1000;

class LostClaim extends Error {
  constructor() {
    super("the request was claimed by another run or removed (account closed)");
  }
}

/**
 * Prepares pending exports one at a time, without ever holding a transaction while a file is built:
 *
 * - The claim is one statement. A pending request's expires_at is its claim's end while it is built:
 *   a run takes a request that is unclaimed or whose claim lapsed (its builder died), FOR UPDATE SKIP
 *   LOCKED so two instances never take the same one, and renews the claim every minute. Every later
 *   write names the claim it holds, so a builder that lost it (or whose request was deleted by Close My
 *   Account) changes nothing and removes its file.
 * - The records are read in short statements (readExportRecords), then the ZIP is streamed to storage
 *   (zip-stream.server.ts, DocumentStorage.putStream), one file at a time, never whole in memory.
 * - The file counts against the person's storage cap: it may take the cap less their documents; past
 *   that the write stops, nothing is kept, and the request fails with a message the account page shows.
 * - Only then one short transaction turns the request ready, queues the e-mail and writes the audit row.
 *   A failure removes the file and marks the request failed (the applicant can ask again).
 */
export async function processPendingExports(options: {
  db: Db;
  storage: DocumentStorage;
  baseUrl: string;
  /** The per-person storage cap (PERSON_STORAGE_CAP_MB), in bytes. */
  capBytes?: number;
  now?: () => Date;
  log?: (line: string) => void;
  /** At most this many per run, so one run never holds the process for long. */
  limit?: number;
}): Promise<ExportRunResult> {
  const { db, storage } = options;
  const now = options.now ?? (() => new Date());
  const capBytes = options.capBytes ?? getConfig().personStorageCapBytes;
  const result: ExportRunResult = { ready: 0, failed: 0 };
  for (let i = 0; i < (options.limit ?? 5); i++) {
    const claimed = await claimPendingExport(db, now());
    if (!claimed) break;
    let claim = claimed.claim;
    const key = dataExportStorageKey(claimed.id);
    let written = false;
    try {
      const at = now();
      let renewedAt = Date.now();
      const keepClaim = async () => {
        if (Date.now() - renewedAt < CLAIM_RENEW_MS) return;
        const next = new Date(now().getTime() + EXPORT_CLAIM_MS);
        const [renewed] = await db
          .update(dataExports)
          .set({ expiresAt: next })
          .where(and(eq(dataExports.id, claimed.id), eq(dataExports.status, "pending"), eq(dataExports.expiresAt, claim)))
          .returning({ id: dataExports.id });
        if (!renewed) throw new LostClaim();
        claim = next;
        renewedAt = Date.now();
      };
      const { room, documents } = await exportRoom(db, claimed.userId, capBytes);
      if (room <= 0) throw new StoredObjectTooLarge(key, 0);
      const records = await readExportRecords(db, claimed.userId);
      const tally: ExportTally = { counts: {}, missingFiles: [] };
      const stored = await storage.putStream(key, zipStream(exportEntries(storage, records, at, tally, keepClaim), at), "application/zip", { maxBytes: room });
      written = true;
      const token = randomBytes(32).toString("base64url");
      const expiresAt = new Date(at.getTime() + DATA_EXPORT_VALID_MS);
      await db.transaction(async (tx) => {
        const [ready] = await tx
          .update(dataExports)
          .set({
            status: "ready",
            storageKey: key,
            tokenHash: hashExportToken(token),
            readyAt: at,
            expiresAt,
          })
          .where(and(eq(dataExports.id, claimed.id), eq(dataExports.status, "pending"), eq(dataExports.expiresAt, claim)))
          .returning({ id: dataExports.id });
        if (!ready) throw new LostClaim();
        const [owner] = await tx.select({ email: users.email, name: users.name }).from(users).where(eq(users.id, claimed.userId)).limit(1);
        // Only the link goes by e-mail, never data.
        if (owner)
          await enqueueEmail(tx, {
            to: owner.email,
            ...dataExportReadyEmail({
              name: owner.name,
              baseUrl: options.baseUrl,
              path: dataExportPath(token),
              expiresAt,
            }),
          });
        await writeAudit(tx, {
          actor: null,
          action: "data_export.ready",
          table: "data_exports",
          recordId: claimed.id,
          details: {
            userId: claimed.userId,
            bytes: stored.bytes,
            documentBytes: documents,
            counts: tally.counts,
            missingFiles: tally.missingFiles.length,
            expiresAt: expiresAt.toISOString(),
          },
        });
      });
      result.ready++;
    } catch (error) {
      if (written) await storage.delete(key).catch(() => undefined);
      if (error instanceof LostClaim) {
        options.log?.(`[data-export] export ${claimed.id}: ${error.message}; nothing kept`);
        continue;
      }
      const tooLarge = error instanceof StoredObjectTooLarge;
      const message = tooLarge ? `${STORAGE_CAP_ERROR}: over the room of ${Math.max(0, Math.round(error.maxBytes))} bytes` : (error as Error).message;
      options.log?.(`[data-export] export ${claimed.id} failed: ${message}`);
      await db
        .update(dataExports)
        .set({
          status: "failed",
          error: message.slice(0, 500),
          expiresAt: null,
        })
        .where(and(eq(dataExports.id, claimed.id), eq(dataExports.status, "pending"), eq(dataExports.expiresAt, claim)));
      await writeAudit(db, {
        actor: null,
        action: "data_export.failed",
        table: "data_exports",
        recordId: claimed.id,
        details: { userId: claimed.userId, storageCap: tooLarge },
      });
      result.failed++;
    }
  }
  return result;
}

/** The stored error of a request refused by the storage cap (the account page explains it). */
export const STORAGE_CAP_ERROR = "storage cap";

/** Takes the oldest pending request nobody is building (one statement); its claim lasts EXPORT_CLAIM_MS. */
async function claimPendingExport(db: Db, at: Date): Promise<{ id: string; userId: string; claim: Date } | null> {
  const claim = new Date(at.getTime() + EXPORT_CLAIM_MS);
  const result = await db.execute(sql`
    update data_exports set expires_at = ${claim.toISOString()}::timestamptz, storage_key = 'exports/' || id || '/data_export.zip'
    where id = (
      select id from data_exports
      where status = 'pending' and (expires_at is null or expires_at < ${at.toISOString()}::timestamptz)
      order by requested_at limit 1
      for update skip locked)
    returning id, user_id, expires_at`);
  const row = (
    result as unknown as {
      rows: { id: string; user_id: string; expires_at: Date | string }[];
    }
  ).rows[0];
  return row ? { id: row.id, userId: row.user_id, claim: new Date(row.expires_at) } : null;
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
  if (!TOKEN_PATTERN.test(token)) throw new AppError("data_export", 404, "This download link is not valid.");
  const [row] = await db
    .select()
    .from(dataExports)
    .where(eq(dataExports.tokenHash, hashExportToken(token)))
    .limit(1);
  if (!row || row.userId !== actor.id || row.status !== "ready" || !row.storageKey) throw new AppError("data_export", 404, "This download link is not valid.");
  if (!row.expiresAt || row.expiresAt <= now) throw new AppError("data_export", 410, "This download link has expired. Request a new file from your account page.");
  const stored = await storage.get(row.storageKey);
  if (!stored) throw new AppError("data_export", 410, "This download link has expired. Request a new file from your account page.");
  try {
    await db.transaction(async (tx) => {
      await tx.update(dataExports).set({ downloadedAt: now }).where(eq(dataExports.id, row.id));
      await writeAudit(tx, {
        actor,
        action: "data_export.download",
        table: "data_exports",
        recordId: row.id,
        request: info,
      });
    });
  } catch (error) {
    stored.body.destroy();
    throw error;
  }
  return {
    body: stored.body,
    size: stored.size,
    fileName: `private-loans-data-${now.toISOString().slice(0, 10)}.zip`,
  };
}
