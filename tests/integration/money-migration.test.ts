import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import type { Database } from "~/server/platform/db/client.server";
import { runMigrations } from "~/server/platform/db/migrate.server";
import { migrationsUpTo } from "../helpers/migrations-up-to";
import { openTestDatabase, testTargets, type TestDatabase } from "../helpers/test-db";

/**
 * Migration 0023 (decision 0078) turns every dollar column into integer cents and every percent into
 * thousandths, in place. Rows written the old way, with awkward amounts (a cent, the largest amount a
 * numeric(14,2) holds below a trillion, a half dollar, nulls), must come out to the cent.
 */

async function rows<T>(database: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;
}

const AMOUNTS = [
  { dollars: "0.01", cents: 1 },
  { dollars: "99999999999.99", cents: 9_999_999_999_999 },
  { dollars: "1234.5", cents: 123_450 },
  { dollars: "50000", cents: 5_000_000 },
] as const;
const RATES = [
  { percent: "5.99", milli: 5990 },
  { percent: "35.99", milli: 35_990 },
  { percent: "8.5", milli: 8500 },
  { percent: "12", milli: 12_000 },
] as const;

describe.each(testTargets)("migration 0023 keeps every amount to the cent on %s", (target) => {
  let database: TestDatabase;
  afterAll(async () => {
    await database?.cleanup();
  });

  it("converts dollars to cents and percents to thousandths, nulls staying null", async () => {
    database = await openTestDatabase({ target, migrate: false });
    await runMigrations(database, migrationsUpTo(22));
    for (const id of ["old-applicant", "old-staff"]) {
      await database.db.execute(sql`insert into "user" (id, name, email) values (${id}, ${id}, ${`${id}@example.com`})`);
    }
    const ids: string[] = [];
    for (const [i, amount] of AMOUNTS.entries()) {
      const rate = RATES[i]!;
      // The second and fourth leave the optional amounts empty.
      const optional = i % 2 === 0 ? amount.dollars : null;
      const [row] = await rows<{ id: string }>(
        database,
        sql`insert into loan_applications (user_id, loan_type, requested_amount, desired_interest_rate, loan_duration, purpose,
          first_name, last_name, date_of_birth, email, phone, address_line1, city, state, zip_code, employment_status,
          employer_name, monthly_income, annual_income, monthly_debts, status)
        values ('old-applicant', 'personal', ${amount.dollars}::numeric, ${rate.percent}::numeric, 36, 'Before the cents',
          'Old', 'Applicant', '1980-01-01', 'old@example.com', '3025550100', '1 Main St', 'Dover', 'DE', '19901', 'full-time',
          'Acme', ${amount.dollars}::numeric, ${optional}::numeric, ${optional}::numeric, 'under_review') returning id`,
      );
      ids.push(row!.id);
      await database.db.execute(sql`insert into approval_proposals (application_id, approved_amount, interest_rate, term_months, origination_fee_percent, proposed_by)
        values (${row!.id}, ${amount.dollars}::numeric, ${rate.percent}::numeric, 36, ${i === 0 ? "0" : "2.75"}::numeric, 'old-staff')`);
      await database.db.execute(sql`insert into approved_loans (user_id, application_id, status, approved_amount, balance, monthly_payment, interest_rate,
          term_months, amount_cents, note_rate_milli, payment_cents, start_date)
        values ('old-applicant', ${row!.id}, 'active', ${amount.dollars}::numeric, ${amount.dollars}::numeric, ${amount.dollars}::numeric, ${rate.percent}::numeric,
          36, ${amount.cents}, ${rate.milli}, ${amount.cents}, '2026-01-15')`);
    }

    await runMigrations(database);

    const apps = await rows<{ id: string; requested: string; rate: number; income: string; annual: string | null; debts: string | null }>(
      database,
      sql`select id, requested_amount_cents::text as requested, desired_rate_milli as rate, monthly_income_cents::text as income,
        annual_income_cents::text as annual, monthly_debts_cents::text as debts from loan_applications`,
    );
    const proposals = await rows<{ application_id: string; amount: string; rate: number; fee: number }>(
      database,
      sql`select application_id, approved_amount_cents::text as amount, interest_rate_milli as rate, origination_fee_milli as fee from approval_proposals`,
    );
    const loans = await rows<{ application_id: string; balance: string; amount: string }>(
      database,
      sql`select application_id, balance_cents::text as balance, amount_cents::text as amount from approved_loans`,
    );
    for (const [i, amount] of AMOUNTS.entries()) {
      const id = ids[i]!;
      const cents = String(amount.cents);
      const optional = i % 2 === 0 ? cents : null;
      expect(apps.find((a) => a.id === id)).toEqual({ id, requested: cents, rate: RATES[i]!.milli, income: cents, annual: optional, debts: optional });
      expect(proposals.find((p) => p.application_id === id)).toEqual({ application_id: id, amount: cents, rate: RATES[i]!.milli, fee: i === 0 ? 0 : 2750 });
      expect(loans.find((l) => l.application_id === id)).toEqual({ application_id: id, balance: cents, amount: cents });
    }

    // No dollar column is left behind.
    const numeric = await rows<{ table_name: string; column_name: string }>(
      database,
      sql`select table_name, column_name from information_schema.columns where table_schema = current_schema() and data_type = 'numeric'
        and table_name in ('loan_applications', 'approval_proposals', 'approved_loans')`,
    );
    expect(numeric).toEqual([{ table_name: "loan_applications", column_name: "years_employed" }]);
  });
});
