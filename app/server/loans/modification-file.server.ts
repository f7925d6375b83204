import { Readable } from "node:stream";
import { and, eq, isNotNull } from "drizzle-orm";
import { UUID_PATTERN } from "~/domain/ids";
import { plain } from "~/server/applications/index.server";
import { writeAudit, type AuditActor, type Caller } from "~/server/platform/audit/audit.server";
import { getDb, type Db } from "~/server/platform/db/client.server";
import { approvedLoans, loanModifications } from "~/server/platform/db/schema.server";
import { privateDownloadHeaders } from "~/server/platform/http/private-download.server";
import { getStorage } from "~/server/platform/storage/storage.server";
import type { DocumentStorage } from "~/server/platform/storage/storage-keys.server";
import { ownLoanId, type LoanViewer } from "./borrower-loan.server";
import { loanReference } from "./loan-reference.server";

/**
 * A signed loan modification's PDF for download: the borrower from /dashboard/loans/:id/plans/:planId,
 * staff (staff.read, second factor) from /admin/loans/:id/plans/:planId. Authorization first (another
 * person's loan, a malformed id or a plan of another loan is 404), then the stored file streams with
 * private, no-store headers as an attachment; every download writes 'plan.download' with the reader.
 */

export type ModificationReader = { side: "borrower"; viewer: LoanViewer } | { side: "staff"; admin: AuditActor };

export async function serveModificationFile(
  loanId: string | undefined, planId: string | undefined, caller: Caller<ModificationReader>, options: { db?: Db; storage?: DocumentStorage; method?: string } = {},
): Promise<Response> {
  const { actor: reader, request } = caller;
  const db = options.db ?? getDb();
  let id: string | null;
  if (reader.side === "borrower") id = await ownLoanId(loanId, reader.viewer, db);
  else id = loanId && UUID_PATTERN.test(loanId) ? loanId.toLowerCase() : null;
  if (!id || !planId || !UUID_PATTERN.test(planId)) return plain(404, "Not Found");
  const [row] = await db
    .select({ id: loanModifications.id, storageKey: loanModifications.storageKey, sha256: loanModifications.sha256, offerId: approvedLoans.offerId, userId: approvedLoans.userId })
    .from(loanModifications)
    .innerJoin(approvedLoans, eq(approvedLoans.id, loanModifications.loanId))
    .where(and(eq(loanModifications.id, planId.toLowerCase()), eq(loanModifications.loanId, id), eq(loanModifications.status, "signed"), isNotNull(loanModifications.storageKey)))
    .limit(1);
  if (!row?.storageKey) return plain(404, "There is no signed modification with this id on this loan.");
  const stored = await (options.storage ?? getStorage()).get(row.storageKey);
  if (!stored) return plain(404, "The file of this modification is missing.");
  try {
    await writeAudit(db, {
      actor: reader.side === "borrower" ? reader.viewer : reader.admin,
      action: "plan.download",
      table: "loan_modifications",
      recordId: row.id,
      details: { loanId: id, clientId: row.userId, side: reader.side, sha256: row.sha256, bytes: stored.size },
      request,
    });
  } catch (error) {
    stored.body.destroy();
    throw error;
  }
  const headers = privateDownloadHeaders(`loan-modification-${loanReference({ id, offerId: row.offerId }).toLowerCase()}-${row.id.slice(0, 8)}.pdf`, stored.size);
  if (options.method === "HEAD") {
    stored.body.destroy();
    return new Response(null, { status: 200, headers });
  }
  return new Response(Readable.toWeb(stored.body) as ReadableStream<Uint8Array>, { status: 200, headers });
}
