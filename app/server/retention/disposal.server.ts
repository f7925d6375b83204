import { and, eq, inArray, isNotNull, isNull, lt, notInArray, or, sql } from "drizzle-orm";
import { writeAudit } from "~/server/platform/audit/audit.server";
import type { Db } from "~/server/platform/db/client.server";
import {
  approvedLoans,
  bankAccounts,
  achBatches,
  achTraceSequences,
  contactMessages,
  dataExports,
  emailOutbox,
  emailVerificationCodes,
  loanApplications,
  loanDocuments,
  profiles,
  rateLimit,
  rateLimitHits,
  session,
  loanModifications,
  signedAgreements,
  user as users,
  verification,
  webauthnChallenges,
} from "~/server/platform/db/schema.server";
import type { DocumentStorage } from "~/server/platform/storage/storage-keys.server";
import { DECIDED_APPLICATION_STATUSES } from "~/domain/enums";
import { deleteExpiredDrafts } from "~/server/applications/index.server";
import { cutoffFor, RETENTION_POLICY } from "./policy.server";
import { isoDay } from "~/domain/dates";

/**
 * The disposal run: deletes every record past its retention period (policy.server.ts) and the
 * documents' files, and writes one audit row per run.
 *
 * Order, for crash safety: the rows and the audit row go in one transaction first, the files after
 * it commits. A crash before the commit changes nothing; a crash after it leaves files no row points
 * to, which the orphan sweep removes. The reverse order could leave applications whose documents
 * are gone, which staff would see as broken links and could not tell from data loss.
 */

export type DisposalCounts = {
  applications: number;
  documents: number;
  /** Signed loan agreements (their PDFs are among `files`). */
  agreements: number;
  bankAccounts: number;
  approvedLoans: number;
  contactMessages: number;
  sentEmails: number;
  failedEmails: number;
  sessions: number;
  verificationTokens: number;
  emailCodes: number;
  rateLimitCounters: number;
  /** Download My Data requests past their link's day (and failed ones), with their files. */
  dataExports: number;
  /** Closed accounts removed once nothing the law keeps points at them. */
  closedAccounts: number;
  /** Save and Finish Later drafts past their 30 days, with their files. */
  applicationDrafts: number;
  /** Passkey challenges an hour past their five minutes: used or not, they can do nothing more. */
  webauthnChallenges: number;
  /** NACHA files past their six years, and past days' trace counters. */
  achFiles: number;
  achTraceSequences: number;
};

export type DisposalResult = {
  dryRun: boolean;
  /** false when another instance held the run (PostgreSQL): nothing was done. */
  ran: boolean;
  counts: DisposalCounts;
  /** Storage keys of the disposed documents and signed agreements. */
  files: string[];
  filesRemoved: number;
  /** Keys whose removal failed (left for the orphan sweep). */
  filesFailed: string[];
};

export type DisposalOptions = {
  db: Db;
  storage: DocumentStorage;
  now?: Date;
  /** Count what would go, change nothing (the transaction is rolled back, audit row included). */
  dryRun?: boolean;
  log?: (line: string) => void;
};

// Arbitrary but fixed: instances behind one PostgreSQL run the daily disposal one at a time.
const DISPOSAL_LOCK_KEY = 724_199_302;

class DryRunRollback extends Error {}

/** An expired passkey challenge is kept an hour (for a late answer's clear refusal), then removed. */
const CHALLENGE_KEPT_MS = 60 * 60 * 1000;

const EMPTY_COUNTS: DisposalCounts = {
  applications: 0,
  documents: 0,
  agreements: 0,
  bankAccounts: 0,
  approvedLoans: 0,
  contactMessages: 0,
  sentEmails: 0,
  failedEmails: 0,
  sessions: 0,
  verificationTokens: 0,
  emailCodes: 0,
  rateLimitCounters: 0,
  dataExports: 0,
  closedAccounts: 0,
  applicationDrafts: 0,
  webauthnChallenges: 0,
  achFiles: 0,
  achTraceSequences: 0,
};

export async function disposeExpiredRecords(options: DisposalOptions): Promise<DisposalResult> {
  const { db, storage } = options;
  const now = options.now ?? new Date();
  const dryRun = options.dryRun ?? false;
  const p = RETENTION_POLICY;
  const cut = {
    decided: cutoffFor(p.decidedApplication.period, now),
    closedLoan: cutoffFor(p.closedLoanApplication.period, now),
    withdrawn: cutoffFor(p.withdrawnApplication.period, now),
    undecided: cutoffFor(p.undecidedApplication.period, now),
    contact: cutoffFor(p.contactMessage.period, now),
    sentEmail: cutoffFor(p.sentEmail.period, now),
    failedEmail: cutoffFor(p.failedEmail.period, now),
    session: cutoffFor(p.session.period, now),
    verification: cutoffFor(p.verificationToken.period, now),
    emailCode: cutoffFor(p.emailCode.period, now),
    rateLimit: cutoffFor(p.rateLimitCounter.period, now),
    dataExport: cutoffFor(p.dataExport.period, now),
    closedAccount: cutoffFor(p.closedAccount.period, now),
    applicationDraft: cutoffFor(p.applicationDraft.period, now),
    achFile: cutoffFor(p.achFile.period, now),
    achTraceSequence: cutoffFor(p.achTraceSequence.period, now),
  };

  let outcome: { ran: boolean; counts: DisposalCounts; files: string[] } = { ran: false, counts: EMPTY_COUNTS, files: [] };
  try {
    await db.transaction(async (tx) => {
      const locked = await tx.execute(sql`select pg_try_advisory_xact_lock(${DISPOSAL_LOCK_KEY}) as ok`);
      if (!(locked as unknown as { rows: { ok: boolean }[] }).rows[0]?.ok) return;

      const expired = await tx
        .select({ id: loanApplications.id })
        .from(loanApplications)
        .leftJoin(approvedLoans, eq(approvedLoans.applicationId, loanApplications.id))
        .where(
          or(
            and(
              isNull(approvedLoans.id),
              inArray(loanApplications.status, [...DECIDED_APPLICATION_STATUSES]),
              lt(loanApplications.reviewedAt, cut.decided),
            ),
            and(isNull(approvedLoans.id), eq(loanApplications.status, "withdrawn"), lt(loanApplications.withdrawnAt, cut.withdrawn)),
            and(
              isNull(approvedLoans.id),
              notInArray(loanApplications.status, [...DECIDED_APPLICATION_STATUSES, "withdrawn"]),
              lt(loanApplications.updatedAt, cut.undecided),
            ),
            and(
              isNotNull(approvedLoans.id),
              inArray(approvedLoans.status, ["paid_off", "closed"]),
              lt(approvedLoans.updatedAt, cut.closedLoan),
            ),
          ),
        );
      const ids = expired.map((row) => row.id);
      const counts: DisposalCounts = { ...EMPTY_COUNTS };
      let files: string[] = [];
      if (ids.length > 0) {
        files = (await tx.select({ key: loanDocuments.filePath }).from(loanDocuments).where(inArray(loanDocuments.applicationId, ids))).map(
          (row) => row.key,
        );
        counts.documents = files.length;
        // The signed loan agreements' PDFs go with their application. Their rows go first:
        // each names its E-SIGN consent (ON DELETE RESTRICT), which the application's cascade removes.
        const agreementKeys = (
          await tx.delete(signedAgreements).where(inArray(signedAgreements.applicationId, ids)).returning({ key: signedAgreements.storageKey })
        ).map((row) => row.key);
        files = [...files, ...agreementKeys];
        counts.agreements = agreementKeys.length;
        counts.bankAccounts = (
          await tx.delete(bankAccounts).where(inArray(bankAccounts.applicationId, ids)).returning({ id: bankAccounts.id })
        ).length;
        await tx.delete(loanDocuments).where(inArray(loanDocuments.applicationId, ids));
        // The signed loan modifications' PDFs go with their loan (the rows go by the loan's cascade).
        const modificationKeys = await tx
          .select({ key: loanModifications.storageKey })
          .from(loanModifications)
          .innerJoin(approvedLoans, eq(approvedLoans.id, loanModifications.loanId))
          .where(and(inArray(approvedLoans.applicationId, ids), isNotNull(loanModifications.storageKey)));
        files = [...files, ...modificationKeys.map((row) => row.key!)];
        counts.approvedLoans = (
          await tx.delete(approvedLoans).where(inArray(approvedLoans.applicationId, ids)).returning({ id: approvedLoans.id })
        ).length;
        counts.applications = (
          await tx.delete(loanApplications).where(inArray(loanApplications.id, ids)).returning({ id: loanApplications.id })
        ).length;
      }
      const gone = async (query: Promise<unknown[]>) => (await query).length;
      counts.achFiles = await gone(tx.delete(achBatches).where(lt(achBatches.createdAt, cut.achFile)).returning({ id: achBatches.id }));
      counts.achTraceSequences = await gone(
        tx
          .delete(achTraceSequences)
          .where(lt(achTraceSequences.day, isoDay(cut.achTraceSequence)))
          .returning({ day: achTraceSequences.day }),
      );
      counts.contactMessages = await gone(
        tx.delete(contactMessages).where(lt(contactMessages.createdAt, cut.contact)).returning({ id: contactMessages.id }),
      );
      counts.sentEmails = await gone(
        tx
          .delete(emailOutbox)
          .where(and(eq(emailOutbox.status, "sent"), lt(emailOutbox.sentAt, cut.sentEmail)))
          .returning({ id: emailOutbox.id }),
      );
      counts.failedEmails = await gone(
        tx
          .delete(emailOutbox)
          .where(and(eq(emailOutbox.status, "failed"), lt(emailOutbox.createdAt, cut.failedEmail)))
          .returning({ id: emailOutbox.id }),
      );
      counts.sessions = await gone(tx.delete(session).where(lt(session.expiresAt, cut.session)).returning({ id: session.id }));
      counts.verificationTokens = await gone(
        tx.delete(verification).where(lt(verification.expiresAt, cut.verification)).returning({ id: verification.id }),
      );
      counts.emailCodes = await gone(
        tx
          .delete(emailVerificationCodes)
          .where(lt(emailVerificationCodes.expiresAt, cut.emailCode))
          .returning({ id: emailVerificationCodes.id }),
      );
      counts.rateLimitCounters =
        (await gone(tx.delete(rateLimitHits).where(lt(rateLimitHits.windowStart, cut.rateLimit)).returning({ key: rateLimitHits.key }))) +
        (await gone(tx.delete(rateLimit).where(lt(rateLimit.lastRequest, cut.rateLimit.getTime())).returning({ id: rateLimit.id })));

      // Download My Data: a ready file past its day, a failed request after a day (its row has no file).
      const exportKeys = (
        await tx
          .delete(dataExports)
          .where(
            or(
              and(eq(dataExports.status, "ready"), lt(dataExports.expiresAt, cut.dataExport)),
              and(eq(dataExports.status, "failed"), lt(dataExports.requestedAt, cutoffFor({ days: 1 }, now))),
            ),
          )
          .returning({ key: dataExports.storageKey })
      ).map((row) => row.key);
      counts.dataExports = exportKeys.length;
      files = [...files, ...exportKeys.filter((k): k is string => k !== null)];
      counts.webauthnChallenges = await gone(
        tx
          .delete(webauthnChallenges)
          .where(lt(webauthnChallenges.expiresAt, new Date(now.getTime() - CHALLENGE_KEPT_MS)))
          .returning({ id: webauthnChallenges.id }),
      );
      // Drafts past their expiry: the rows here, their files after the commit.
      const drafts = await deleteExpiredDrafts(tx, cut.applicationDraft);
      counts.applicationDrafts = drafts.drafts;
      files = [...files, ...drafts.files];
      // Closed accounts whose kept records are all gone (the applications above included):
      // the user row goes, and with it (ON DELETE CASCADE) the profile, credentials and consents left.
      // Every table that keeps a user's records points at an application or a loan of theirs, so these
      // two tests are what RESTRICT would otherwise refuse.
      counts.closedAccounts = await gone(
        tx
          .delete(users)
          .where(
            sql`${users.id} in (select ${profiles.id} from ${profiles} where ${profiles.closedAt} is not null and ${profiles.closedAt} < ${cut.closedAccount.toISOString()}::timestamptz)
              and not exists (select 1 from ${loanApplications} where ${loanApplications.userId} = ${users.id})
              and not exists (select 1 from ${approvedLoans} where ${approvedLoans.userId} = ${users.id})`,
          )
          .returning({ id: users.id }),
      );

      await writeAudit(tx, {
        actor: null,
        action: "records.dispose",
        details: {
          counts,
          files: files.length,
          applicationIds: ids,
          clock: now.toISOString(),
          cutoffs: Object.fromEntries(Object.entries(cut).map(([k, v]) => [k, v.toISOString()])),
        },
      });
      outcome = { ran: true, counts, files };
      if (dryRun) throw new DryRunRollback();
    });
  } catch (error) {
    if (!(error instanceof DryRunRollback)) throw error;
  }

  const result: DisposalResult = { dryRun, ...outcome, filesRemoved: 0, filesFailed: [] };
  if (dryRun || !outcome.ran) return result;
  for (const key of outcome.files) {
    try {
      await storage.delete(key);
      result.filesRemoved += 1;
    } catch (error) {
      result.filesFailed.push(key);
      options.log?.(`[retention] could not remove ${key} (${(error as Error).message}); the orphan sweep will`);
    }
  }
  return result;
}

/** One line for logs and the command's output. */
export function describeDisposal(result: DisposalResult): string {
  if (!result.ran) return "another instance is running the disposal: nothing done";
  const c = result.counts;
  const parts = Object.entries(c)
    .filter(([, n]) => n > 0)
    .map(([name, n]) => `${name} ${n}`);
  const what = parts.length ? parts.join(", ") : "nothing was past its retention period";
  const files = result.dryRun ? `${result.files.length} files would be removed` : `${result.filesRemoved} files removed`;
  const failed = result.filesFailed.length ? `, ${result.filesFailed.length} could not be removed (left to the orphan sweep)` : "";
  return `${result.dryRun ? "dry run, nothing deleted: " : ""}${what}; ${files}${failed}`;
}
