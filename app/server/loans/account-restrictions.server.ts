import { and, inArray, isNull, sql } from "drizzle-orm";
import type { AccountRestrictionKind } from "~/domain/servicing-enums";
import { getDb, type DbOrTx } from "~/server/platform/db/client.server";
import { bankAccountRestrictions } from "~/server/platform/db/schema.server";

/**
 * Bank accounts no debit may come from after a return (decision 0093): unusable (closed, no or invalid
 * account) or blocked for debits (unauthorised or revoked). One live restriction per account; a
 * blocked account stays blocked when an "unusable" return follows, an unusable one becomes blocked when
 * an unauthorised return follows. Every debit path asks here: the ACH file, Make a Payment, autopay.
 */

export type AccountRestriction = { kind: AccountRestrictionKind; returnCode: string; since: string };

/** The live restrictions of these accounts, by account id (one query; none for an empty list). */
export async function accountRestrictions(bankAccountIds: readonly (string | null)[], db: DbOrTx = getDb()): Promise<Map<string, AccountRestriction>> {
  const ids = [...new Set(bankAccountIds.filter((id): id is string => id !== null))];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ bankAccountId: bankAccountRestrictions.bankAccountId, kind: bankAccountRestrictions.kind, returnCode: bankAccountRestrictions.returnCode, createdAt: bankAccountRestrictions.createdAt })
    .from(bankAccountRestrictions)
    .where(and(inArray(bankAccountRestrictions.bankAccountId, ids), isNull(bankAccountRestrictions.clearedAt)));
  return new Map(rows.map((r) => [r.bankAccountId, { kind: r.kind, returnCode: r.returnCode, since: r.createdAt.toISOString() }]));
}

/**
 * Restricts an account after a return (inside the caller's transaction): one upsert on the live row,
 * so two returns at once leave one restriction, the stronger kind kept.
 */
export async function restrictAccount(tx: DbOrTx, bankAccountId: string, kind: AccountRestrictionKind, returnCode: string, paymentId: string | null): Promise<void> {
  await tx.execute(sql`
    insert into ${bankAccountRestrictions} (bank_account_id, kind, return_code, payment_id)
    values (${bankAccountId}, ${kind}, ${returnCode}, ${paymentId})
    on conflict (bank_account_id) where cleared_at is null
    do update set kind = case when ${bankAccountRestrictions.kind} = 'blocked' then 'blocked' else excluded.kind end,
      return_code = case when ${bankAccountRestrictions.kind} = 'blocked' and excluded.kind <> 'blocked' then ${bankAccountRestrictions.returnCode} else excluded.return_code end,
      payment_id = case when ${bankAccountRestrictions.kind} = 'blocked' and excluded.kind <> 'blocked' then ${bankAccountRestrictions.paymentId} else excluded.payment_id end`);
}

/** Why a debit cannot come from a restricted account: one sentence for the ACH page, the borrower's forms and the job. */
export function restrictionReason(r: AccountRestriction): string {
  return r.kind === "blocked"
    ? `This bank account is blocked for debits: the bank returned a debit as not authorized (${r.returnCode}).`
    : `This bank account cannot be used: the bank returned a debit from it (${r.returnCode}). Add another account.`;
}
