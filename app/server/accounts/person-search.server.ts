import { sql, type SQL } from "drizzle-orm";
import { classifySearch, prefixRange } from "~/server/staff/index.server";

/**
 * The reads of the profile ids a staff search for a person matches (decisions 0043, 0051), each a range
 * of one btree of profiles, never a LIKE: by the start of the whole name, or for one word also of the last
 * name and of the e-mail address; an entry with "@" by the start of the address (or, after a leading
 * "@", of the domain). The caller unions them into its own statement (`select p."id" …` each), so the
 * search stays one query whose cost is the number of matches. Empty when the entry names nobody.
 */
export function personSearchReads(q: string): SQL[] {
  const terms = classifySearch(q);
  const reads: SQL[] = [];
  const byProfile = (expression: SQL, prefix: string) => reads.push(sql`select p."id" from "profiles" p where ${prefixRange(expression, prefix)}`);
  const fullName = sql`(lower(p."full_name") collate "C")`;
  const address = sql`(lower(p."email") collate "C")`;
  if (terms.email !== null) {
    byProfile(terms.email.part === "domain" ? sql`(lower(split_part(p."email", '@', 2)) collate "C")` : address, terms.email.prefix);
  } else {
    const name = q.normalize("NFC").trim().replace(/\s+/g, " ");
    if (name) {
      byProfile(fullName, name);
      if (!name.includes(" ")) {
        byProfile(sql`(lower(regexp_replace(p."full_name", '^.*[[:space:]]', '')) collate "C")`, name);
        byProfile(address, name);
      }
    }
  }
  return reads;
}
