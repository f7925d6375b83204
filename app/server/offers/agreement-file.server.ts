import { Readable } from "node:stream";
import { privateDownloadHeaders } from "~/server/platform/http/private-download.server";
import { desc, eq } from "drizzle-orm";
import { plain } from "~/server/applications/index.server";
import { writeAudit, type AuditActor, type Caller } from "~/server/platform/audit/audit.server";
import { getDb, type Db } from "~/server/platform/db/client.server";
import { signedAgreements } from "~/server/platform/db/schema.server";
import { getStorage } from "~/server/platform/storage/storage.server";
import type { DocumentStorage } from "~/server/platform/storage/storage-keys.server";
import { agreementReference } from "./agreement-document.server";
import { ownApplication } from "./consent.server";
import { UUID_PATTERN } from "~/domain/ids";

/**
 * The signed agreement's PDF for download: its owner from /dashboard/applications/:id/
 * agreement, staff (second factor) from /admin/applications/:id/agreement. Authorization first, then
 * the stored file streams with private, no-store headers as an attachment; every download writes
 * 'agreement.download' with the reader. 404 for anything the reader may not see or that does not exist.
 */

export type AgreementReader = { side: "applicant"; viewer: AuditActor & { isStaff: boolean } } | { side: "staff"; admin: AuditActor };

const NOT_FOUND = "There is no signed agreement for this application.";


export async function serveSignedAgreement(
  applicationId: string | undefined, caller: Caller<AgreementReader>, options: { db?: Db; storage?: DocumentStorage; method?: string } = {},
): Promise<Response> {
  const { actor: reader, request } = caller;
  const db = options.db ?? getDb();
  let id: string;
  if (reader.side === "applicant") {
    const app = await ownApplication(applicationId, reader.viewer, db);
    if (!app) return plain(404, "Not Found");
    id = app.id;
  } else {
    if (!applicationId || !UUID_PATTERN.test(applicationId)) return plain(404, "Not Found");
    id = applicationId.toLowerCase();
  }
  const [row] = await db
    .select({ id: signedAgreements.id, offerId: signedAgreements.offerId, userId: signedAgreements.userId, storageKey: signedAgreements.storageKey, sha256: signedAgreements.sha256 })
    .from(signedAgreements)
    .where(eq(signedAgreements.applicationId, id))
    .orderBy(desc(signedAgreements.signedAt))
    .limit(1);
  if (!row) return plain(404, NOT_FOUND);
  const stored = await (options.storage ?? getStorage()).get(row.storageKey);
  if (!stored) return plain(404, "The file of this agreement is missing.");
  const actor = reader.side === "applicant" ? reader.viewer : reader.admin;
  try {
    await writeAudit(db, {
      actor,
      action: "agreement.download",
      table: "signed_agreements",
      recordId: row.id,
      details: { applicationId: id, offerId: row.offerId, clientId: row.userId, side: reader.side, sha256: row.sha256, bytes: stored.size },
      request,
    });
  } catch (error) {
    stored.body.destroy();
    throw error;
  }
  const headers = privateDownloadHeaders(`loan-agreement-${agreementReference(row.offerId).toLowerCase()}.pdf`, stored.size);
  if (options.method === "HEAD") {
    stored.body.destroy();
    return new Response(null, { status: 200, headers });
  }
  return new Response(Readable.toWeb(stored.body) as ReadableStream<Uint8Array>, { status: 200, headers });
}
