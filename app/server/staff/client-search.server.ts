import { sql, type SQL } from "drizzle-orm";
import { BLIND_INDEX_PURPOSES, lastFourSearchTokens } from "~/server/platform/crypto/blind-index.server";
import type { EncryptionKey } from "~/server/platform/config.server";
import { getConfig } from "~/server/platform/config.server";
import type { Db } from "~/server/platform/db/client.server";
import type { ClientSummary } from "~/domain/views/admin-clients";
import type { ClientSearchTerms } from "./client-search-terms.server";

/**
 * The staff search's one query (docs/decisions/0043): each kind the entry fits is a branch reading at
 * most `limit` rows off one btree in that index's order (a range for a prefix, equality for a token),
 * the branches are united, and the page is those profiles (applicants only) in list order. So a search
 * reads a bounded number of index entries whatever the number of profiles or applications.
 *
 * Expressions here match the indexes of drizzle/0011 exactly (lower(...) collate "C"): the database
 * lower-cases both sides, so the comparison is the same on PostgreSQL and PGlite whatever their collation.
 */

const notStaff = (profileId: SQL) => sql`not exists (select 1 from "user_roles" r where r."user_id" = ${profileId})`;

/** [lower(prefix), lower(prefix) ‖ U+10FFFF): every string starting with the prefix, in byte order. */
export function prefixRange(expression: SQL, prefix: string): SQL {
  return sql`${expression} >= (lower(${prefix}::text) collate "C") and ${expression} < ((lower(${prefix}::text) || chr(1114111)) collate "C")`;
}

function profileBranch(expression: SQL, condition: SQL, limit: number): SQL {
  return sql`(select p."id" from "profiles" p where ${condition} and ${notStaff(sql`p."id"`)} order by ${expression}, p."id" limit ${limit})`;
}

function branches(terms: ClientSearchTerms, limit: number, keys: EncryptionKey[]): SQL[] {
  const out: SQL[] = [];
  if (terms.name !== null) {
    const full = sql`(lower(p."full_name") collate "C")`;
    out.push(profileBranch(full, prefixRange(full, terms.name), limit));
    if (!terms.name.includes(" ")) {
      const last = sql`(lower(regexp_replace(p."full_name", '^.*[[:space:]]', '')) collate "C")`;
      out.push(profileBranch(last, prefixRange(last, terms.name), limit));
      // One word may also be the start of an e-mail address typed without its "@".
      const address = sql`(lower(p."email") collate "C")`;
      out.push(profileBranch(address, prefixRange(address, terms.name), limit));
    }
  }
  if (terms.email !== null) {
    const column =
      terms.email.part === "domain" ? sql`(lower(split_part(p."email", '@', 2)) collate "C")` : sql`(lower(p."email") collate "C")`;
    out.push(profileBranch(column, prefixRange(column, terms.email.prefix), limit));
  }
  if (terms.phone !== null) {
    const { digits, exact } = terms.phone;
    // Digits only, so ':' (the byte after '9') closes the prefix range.
    const range = (column: SQL) =>
      exact ? sql`${column} = (${digits}::text collate "C")` : sql`${column} >= (${digits}::text collate "C") and ${column} < (${`${digits}:`}::text collate "C")`;
    const onProfile = sql`(p."phone" collate "C")`;
    out.push(profileBranch(onProfile, range(onProfile), limit));
    const onApplication = sql`(a."phone" collate "C")`;
    out.push(sql`(select a."user_id" from "loan_applications" a where ${range(onApplication)} order by ${onApplication}, a."user_id" limit ${limit})`);
  }
  if (terms.applicationId !== null) {
    const { min, max } = terms.applicationId;
    out.push(sql`(select a."user_id" from "loan_applications" a where a."id" >= ${min}::uuid and a."id" <= ${max}::uuid order by a."id" limit ${limit})`);
  }
  if (terms.last4 !== null) {
    // One branch per token (one per key version), each read in user_id order off (token, user_id).
    for (const token of lastFourSearchTokens(terms.last4, BLIND_INDEX_PURPOSES.ssnLast4, keys)) {
      out.push(sql`(select distinct a."user_id" from "loan_applications" a where a."ssn_last4_index" = ${token} order by a."user_id" limit ${limit})`);
    }
    for (const token of lastFourSearchTokens(terms.last4, BLIND_INDEX_PURPOSES.accountLast4, keys)) {
      out.push(sql`(select distinct b."user_id" from "bank_accounts" b where b."account_last4_index" = ${token} order by b."user_id" limit ${limit})`);
    }
  }
  return out;
}

/**
 * Up to `limit` applicants matching the terms, in list order (full name, e-mail, id). Each branch
 * reads at most `limit` rows, so when a branch has more matches than that the page is the first
 * `limit` of that branch: the caller asks for one more than a page to know there are more.
 */
/** The query searchClientRows runs (also EXPLAINed by the query-plan test), or null when nothing can match. */
export function searchClientSql(terms: ClientSearchTerms, limit: number, keys: EncryptionKey[] = getConfig().encryptionKeys): SQL | null {
  const parts = branches(terms, limit, keys);
  if (parts.length === 0) return null;
  return sql`
    select p."id", p."full_name", p."email" from "profiles" p
    where p."id" in (${sql.join(parts, sql` union `)}) and ${notStaff(sql`p."id"`)}
    order by p."full_name", p."email", p."id"
    limit ${limit}`;
}

/**
 * Up to `limit` applicants matching the terms, in list order (full name, e-mail, id). Each branch
 * reads at most `limit` rows, so when a branch has more matches than that the page is the first
 * `limit` of that branch: the caller asks for one more than a page to know there are more.
 */
export async function searchClientRows(db: Db, terms: ClientSearchTerms, limit: number): Promise<ClientSummary[]> {
  const query = searchClientSql(terms, limit);
  if (!query) return [];
  const result = (await db.execute(query)) as unknown as { rows: { id: string; full_name: string; email: string }[] };
  return result.rows.map((r) => ({ id: r.id, fullName: r.full_name, email: r.email }));
}
