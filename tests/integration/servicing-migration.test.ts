import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { runMigrations } from "~/server/platform/db/migrate.server";
import { testTargets, rowsOf } from "../helpers/test-db";
import { databasesBeforeMigration } from "../helpers/migrations-up-to";

/**
 * Migration 0008 (issue 21) gives loans made before servicing their exact terms: from the signed offer
 * when there is one (its cents, its rate in thousandths, the signing day), else from the loan's own
 * numeric(14,2) columns and its approval day; the next due date from first_payment_due, or a month after
 * approval for the oldest loans; none for a loan already paid off.
 */

const day = (v: string | Date | null) => (v === null ? null : typeof v === "string" ? v.slice(0, 10) : v.toISOString().slice(0, 10));

describe.each(testTargets)("migration 0008 backfills loan terms on %s", (target) => {
  const openBefore = databasesBeforeMigration(target);

  it("fills amount_cents, note_rate_milli, payment_cents, start_date and next_due_date exactly", async () => {
    const database = await openBefore(7);
    await database.db.execute(sql`insert into "user" (id, name, email) values ('old-borrower', 'Old Borrower', 'old@example.com')`);
    const application = async (purpose: string) => {
      const [row] = await rowsOf<{ id: string }>(
        database,
        sql`insert into loan_applications (user_id, loan_type, requested_amount, desired_interest_rate, loan_duration, purpose,
          first_name, last_name, date_of_birth, email, phone, address_line1, city, state, zip_code, employment_status,
          employer_name, monthly_income, status, reviewed_at)
        values ('old-borrower', 'personal', 25000, 9.5, 36, ${purpose},
          'Old', 'Borrower', '1980-01-01', 'old@example.com', '3025550100', '1 Main St', 'Dover', 'DE', '19901', 'full-time',
          'Acme', 5000, 'approved', now()) returning id`,
      );
      return row!.id;
    };

    // A loan from before offers: no offer, its own numeric columns, approved on 2025-03-15 (UTC).
    const legacyApp = await application("A loan from before offers");
    const [legacy] = await rowsOf<{ id: string }>(
      database,
      sql`insert into approved_loans (user_id, application_id, status, approved_amount, balance, monthly_payment, interest_rate, term_months, approval_date)
        values ('old-borrower', ${legacyApp}, 'active', 12345.67, 12345.67, 382.12, 7.25, 36, '2025-03-15T18:00:00Z') returning id`,
    );
    // A paid-off loan from before offers: no next due date.
    const paidApp = await application("A paid-off loan");
    const [paid] = await rowsOf<{ id: string }>(
      database,
      sql`insert into approved_loans (user_id, application_id, status, approved_amount, balance, monthly_payment, interest_rate, term_months, approval_date)
        values ('old-borrower', ${paidApp}, 'paid_off', 5000.10, 0, 150.05, 10.125, 12, '2024-01-31T23:59:00Z') returning id`,
    );
    // A signed loan: the offer's cents win over the loan's rounded numeric columns; the signing day (UTC) starts it.
    const signedApp = await application("A signed loan");
    const [consent] = await rowsOf<{ id: string }>(
      database,
      sql`insert into esign_consents (user_id, application_id, version, consented_at) values ('old-borrower', ${signedApp}, '2026-11-01', '2026-06-30T20:00:00Z') returning id`,
    );
    const [offer] = await rowsOf<{ id: string }>(
      database,
      sql`insert into loan_offers (application_id, user_id, status, is_counteroffer, amount_cents, note_rate_milli, term_months,
          origination_fee_milli, origination_fee_cents, amount_financed_cents, payment_cents, final_payment_cents,
          finance_charge_cents, total_of_payments_cents, apr_milli, expires_at, decided_at)
        values (${signedApp}, 'old-borrower', 'signed', false, 2500000, 9500, 36, 1000, 25000, 2475000, 80083, 80079,
          407988, 2882988, 10160, '2026-07-30T00:00:00Z', '2026-07-01T04:30:00Z') returning id`,
    );
    await database.db.execute(sql`insert into signed_agreements (offer_id, application_id, user_id, storage_key, sha256, byte_size, signer_name,
        signer_email, signature_kind, signed_at, consent_id, consent_version, consented_at, first_payment_due)
      values (${offer!.id}, ${signedApp}, 'old-borrower', 'agreements/x.pdf', ${"a".repeat(64)}, 1000, 'Old Borrower', 'old@example.com', 'typed',
        '2026-06-30T23:30:00-05:00', ${consent!.id}, '2026-11-01', '2026-06-30T20:00:00Z', '2026-08-01')`);
    const [signed] = await rowsOf<{ id: string }>(
      database,
      sql`insert into approved_loans (user_id, application_id, status, approved_amount, balance, monthly_payment, interest_rate, term_months,
          approval_date, offer_id, first_payment_due, maturity_date)
        values ('old-borrower', ${signedApp}, 'active', 25000, 25000, 800.00, 9.50, 36, '2026-06-20T10:00:00Z', ${offer!.id}, '2026-08-01', '2029-07-01') returning id`,
    );

    await runMigrations(database);

    type Row = { id: string; amount_cents: string | number; note_rate_milli: number; payment_cents: string | number; start_date: string | Date; next_due_date: string | Date | null; paid_off_at: unknown };
    const loans = await rowsOf<Row>(database, sql`select id, amount_cents, note_rate_milli, payment_cents, start_date, next_due_date, paid_off_at from approved_loans`);
    const of = (id: string) => {
      const r = loans.find((l) => l.id === id)!;
      return { amount: Number(r.amount_cents), rate: r.note_rate_milli, payment: Number(r.payment_cents), start: day(r.start_date), next: day(r.next_due_date) };
    };
    expect(of(legacy!.id)).toEqual({ amount: 1_234_567, rate: 7250, payment: 38_212, start: "2025-03-15", next: "2025-04-15" });
    expect(of(paid!.id)).toEqual({ amount: 500_010, rate: 10_130, payment: 15_005, start: "2024-01-31", next: null });
    expect(of(signed!.id)).toEqual({ amount: 2_500_000, rate: 9500, payment: 80_083, start: "2026-07-01", next: "2026-08-01" });
  });
});
