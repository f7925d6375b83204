import { asc, eq } from "drizzle-orm";
import { AUTOPAY_AUTHORIZATION_VERSION } from "~/domain/autopay-authorization";
import { maskedAccount } from "~/domain/views/borrower-loan";
import { bankAccountsByIds } from "~/server/applications/index.server";
import { getDb, type DbOrTx } from "~/server/platform/db/client.server";
import { autopayAuthorizations } from "~/server/platform/db/schema.server";
import { autopayTextFor } from "./autopay.server";

/**
 * A person's autopay authorisations as their data export's consents.json lists them: the version,
 * when and from where it was given, its status and end, and the text it was given under (the current
 * template filled in, when the version is the current one; older versions are named by version).
 */

export type AutopayConsent = {
  loanId: string;
  version: string;
  authorizedAt: string;
  ipAddress: string | null;
  userAgent: string | null;
  status: string;
  endedAt: string | null;
  endReason: string | null;
  account: string | null;
  text: string[] | null;
};

export async function autopayConsentsOfPerson(userId: string, db: DbOrTx = getDb()): Promise<AutopayConsent[]> {
  const rows = await db.select().from(autopayAuthorizations).where(eq(autopayAuthorizations.userId, userId)).orderBy(asc(autopayAuthorizations.authorizedAt));
  const accounts = await bankAccountsByIds(rows.map((r) => r.bankAccountId), db);
  return rows.map((r) => {
    const a = accounts.get(r.bankAccountId);
    const account = a ? maskedAccount(a.accountType, a.last4) : null;
    return {
      loanId: r.loanId,
      version: r.textVersion,
      authorizedAt: r.authorizedAt.toISOString(),
      ipAddress: r.authorizationIp,
      userAgent: r.authorizationUserAgent,
      status: r.status,
      endedAt: r.endedAt?.toISOString() ?? null,
      endReason: r.endReason,
      account,
      text: r.textVersion === AUTOPAY_AUTHORIZATION_VERSION && account ? autopayTextFor(r, account) : null,
    };
  });
}
