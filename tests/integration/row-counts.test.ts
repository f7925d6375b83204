import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/server/platform/db/client.server";
import { openTestDatabase, testTargets, type TestDatabase, rowsOf } from "../helpers/test-db";
import { seedApplicants } from "../helpers/seed";

/**
 * The admin lists' counts in row_counts (drizzle/0012, decision 0044) are kept by statement triggers:
 * whatever writes the tables (bulk inserts, updates moving rows between keys, deletes, TRUNCATE) the
 * kept counts must equal a real count.
 */

/** Kept and real counts for every key of the counted tables (zero counts left out of both). */
async function keptAndReal(database: Database) {
  const kept = await rowsOf<{ key: string; n: string | number }>(database, sql`select key, rows as n from row_counts where rows <> 0 order by key`);
  const real = await rowsOf<{ key: string; n: string | number }>(
    database,
    sql`select key, n from (
          select 'contact_messages:' || status as key, count(*) as n from contact_messages group by 1
          union all select 'loan_documents', count(*) from loan_documents having count(*) > 0
          union all select 'assigned:' || assigned_to || ':' || status, count(*) from loan_applications where assigned_to is not null group by 1
          union all select case when status = 'paid_off' then 'approved_loans:paid_off' else 'approved_loans:due:' || coalesce(next_due_date::text, 'none') end, count(*)
            from approved_loans group by 1
        ) r order by key`,
  );
  const asMap = (list: { key: string; n: string | number }[]) => Object.fromEntries(list.map((r) => [r.key, Number(r.n)]));
  return { kept: asMap(kept), real: asMap(real) };
}

describe.each(testTargets)("row counts on %s", (target) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await openTestDatabase({ target });
    const people = [["officer-a", "A", "a@example.com"], ["officer-b", "B", "b@example.com"], ["applicant", "C", "c@example.com"]] as const;
    await seedApplicants(database.db, people.map(([id, name, email]) => ({ id, name, email, emailVerified: false })));
  });
  afterAll(() => database?.cleanup());

  it("contact messages per status: bulk insert, status changes, deletes and TRUNCATE", async () => {
    await database.db.execute(sql`
      insert into contact_messages (name, email, subject, message, status)
      select 'V' || g, 'v' || g || '@example.com', 'S', 'M', (array['new', 'read', 'archived'])[1 + g % 3] from generate_series(1, 50) g`);
    let counts = await keptAndReal(database);
    expect(counts.kept).toEqual(counts.real);
    expect(counts.kept["contact_messages:new"]).toBe(16);

    await database.db.execute(sql`update contact_messages set status = 'archived' where status = 'new' and name < 'V3'`);
    await database.db.execute(sql`update contact_messages set subject = 'Same key'`);
    await database.db.execute(sql`delete from contact_messages where status = 'read' and name > 'V4'`);
    counts = await keptAndReal(database);
    expect(counts.kept).toEqual(counts.real);

    await database.db.execute(sql`truncate contact_messages`);
    counts = await keptAndReal(database);
    expect(counts.kept).toEqual(counts.real);
    expect(counts.kept["contact_messages:new"]).toBeUndefined();
  });

  it("My Queue per officer and status, and the documents total, through assignment, decisions and deletes", async () => {
    await database.db.execute(sql`
      insert into loan_applications (user_id, loan_type, requested_amount_cents, desired_rate_milli, loan_duration, purpose,
        first_name, last_name, date_of_birth, email, phone, address_line1, city, state, zip_code, employment_status,
        employer_name, monthly_income_cents, status, assigned_to)
      select 'applicant', 'personal', (10000 + g) * 100, 9500, 36, 'Counted application', 'Count', 'Ed', '1980-01-01', 'count@example.com',
        '3025550100', '1 Main St', 'Dover', 'DE', '19901', 'full-time', 'Acme', 500000,
        (array['pending', 'under_review'])[1 + g % 2], (array['officer-a', 'officer-b', null])[1 + g % 3]
      from generate_series(0, 29) g`);
    await database.db.execute(sql`
      insert into loan_documents (application_id, user_id, document_type, file_name, file_path, file_size, mime_type)
      select a.id, a.user_id, 'id_card_front', 'id.pdf', 'applicant/' || a.id || '/id.pdf', 100, 'application/pdf' from loan_applications a`);
    let counts = await keptAndReal(database);
    expect(counts.kept).toEqual(counts.real);
    expect(counts.kept["loan_documents"]).toBe(30);
    expect(counts.kept["assigned:officer-a:pending"]).toBe(5);

    // Reassignment, a decision for several rows, an unassignment, a delete (documents cascade).
    await database.db.execute(sql`update loan_applications set assigned_to = 'officer-b' where assigned_to = 'officer-a' and status = 'pending'`);
    await database.db.execute(sql`update loan_applications set status = 'denied', reviewed_at = now() where status = 'under_review' and assigned_to is not null`);
    await database.db.execute(sql`update loan_applications set assigned_to = null where status = 'denied' and requested_amount_cents < 1001000`);
    await database.db.execute(sql`delete from loan_applications where requested_amount_cents > 1002500`);
    counts = await keptAndReal(database);
    expect(counts.kept).toEqual(counts.real);
    expect(counts.kept["assigned:officer-a:pending"]).toBeUndefined();
  });
});
