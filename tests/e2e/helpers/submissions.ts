import { eq, inArray, like, sql } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Db } from "~/server/platform/db/client.server";
import { bankAccounts, emailOutbox, loanApplications, loanDocuments } from "~/server/platform/db/schema.server";
import { BUCKET } from "~/server/platform/storage/storage.server";
import { makeJpeg, makePdf, makePng } from "../../helpers/files";
import { validFields } from "../../helpers/applications";

/**
 * Full application submissions over HTTP (the wizard's multipart body) and the all-or-nothing check
 * the fault tests make afterwards, from the database and the storage folder.
 */

/** Seven documents and the signature: the most files a submission writes. */
export const FILES_PER_SUBMISSION = 8;

export function submissionBody(fileBytes: number, idempotencyKey = randomUUID()): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(validFields)) form.append(k, v);
  form.append("idempotencyKey", idempotencyKey);
  const files: [string, Buffer, string, string][] = [
    ["idCardFront", makeJpeg(fileBytes), "front.jpg", "image/jpeg"],
    ["idCardBack", makeJpeg(fileBytes), "back.jpg", "image/jpeg"],
    ["bankStatement1", makePdf(fileBytes), "s1.pdf", "application/pdf"],
    ["bankStatement2", makePdf(fileBytes), "s2.pdf", "application/pdf"],
    ["bankStatement3", makePdf(fileBytes), "s3.pdf", "application/pdf"],
    ["utilityBill", makePdf(fileBytes), "bill.pdf", "application/pdf"],
    ["collateralDocs", makePdf(fileBytes), "deed.pdf", "application/pdf"],
    ["signature", makePng(200, 60), "signature.png", "image/png"],
  ];
  for (const [field, bytes, name, type] of files) form.append(field, new Blob([new Uint8Array(bytes)], { type }), name);
  return form;
}

export type SubmitOutcome = { status: number; applicationId?: string; message?: string; error?: string };

/**
 * Posts one submission. A transport failure is retried once with the same idempotency key, as the
 * wizard does (an idle keep-alive socket the server has just closed resets the next request on it).
 */
export async function submitOverHttp(base: string, cookie: string, ip: string, fileBytes: number): Promise<SubmitOutcome> {
  const idempotencyKey = randomUUID();
  let outcome: SubmitOutcome = { status: 0 };
  for (let attempt = 0; attempt < 2 && outcome.status === 0; attempt++) {
    try {
      const res = await fetch(`${base}/api/applications`, {
        method: "POST",
        body: submissionBody(fileBytes, idempotencyKey),
        headers: { cookie, origin: base, "x-forwarded-for": ip },
      });
      const body = (await res.json().catch(() => ({}))) as { applicationId?: string; message?: string };
      outcome = { status: res.status, applicationId: body.applicationId, message: body.message };
    } catch (error) {
      outcome = { status: 0, error: (error as Error).message };
    }
  }
  return outcome;
}

/** Every file under the local storage folder, relative to the bucket ('*.part' included). */
export function storedFiles(dataDir: string): string[] {
  const base = path.join(dataDir, "storage", BUCKET);
  if (!fs.existsSync(base)) return [];
  return (fs.readdirSync(base, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((d) => d.isFile())
    .map((d) => path.relative(base, path.join(d.parentPath, d.name)).split(path.sep).join("/"))
    .sort();
}

export type Integrity = {
  /** Applications with every piece: rows, files, both e-mails. */
  complete: string[];
  /** What is wrong with the others (should be empty). */
  problems: string[];
  /** Users among `userIds` without any application. */
  absentUsers: string[];
};

/**
 * Checks each application of these users is whole: its document rows (every file present in
 * storage), its bank account, and both notification e-mails in the outbox.
 */
export async function checkApplications(
  db: Db,
  userIds: string[],
  fileExists: (key: string) => boolean | Promise<boolean>,
): Promise<Integrity> {
  const apps = await db.select().from(loanApplications).where(inArray(loanApplications.userId, userIds));
  const complete: string[] = [];
  const problems: string[] = [];
  for (const app of apps) {
    const docs = await db.select().from(loanDocuments).where(eq(loanDocuments.applicationId, app.id));
    const banks = await db.select().from(bankAccounts).where(eq(bankAccounts.applicationId, app.id));
    const [{ n: mails } = { n: 0 }] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(emailOutbox)
      .where(like(emailOutbox.textBody, `%${app.id}%`));
    const missing: string[] = [];
    for (const doc of docs) if (!(await fileExists(doc.filePath))) missing.push(doc.filePath);
    const found = `${docs.length} documents, ${banks.length} bank accounts, ${mails} e-mails, ${missing.length} files missing`;
    if (docs.length === FILES_PER_SUBMISSION && banks.length === 1 && Number(mails) === 2 && missing.length === 0) complete.push(app.id);
    else problems.push(`${app.id}: ${found}`);
  }
  const withApps = new Set(apps.map((a) => a.userId));
  return { complete, problems, absentUsers: userIds.filter((id) => !withApps.has(id)) };
}

/** Stored keys that no loan_documents row names (orphans). */
export async function orphanKeys(db: Db, keys: string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const rows = await db.select({ filePath: loanDocuments.filePath }).from(loanDocuments).where(inArray(loanDocuments.filePath, keys));
  const known = new Set(rows.map((r) => r.filePath));
  return keys.filter((k) => !known.has(k));
}
