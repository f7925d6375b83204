import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { lateFeeCents } from "~/domain/loan-servicing";
import { parseServicingTerms, type ServicingTerms } from "~/domain/servicing-terms";
import type { AuditActor } from "~/server/platform/audit/audit.server";
import { getConfig, setConfig } from "~/server/platform/config.server";
import { runMigrations } from "~/server/platform/db/migrate.server";
import { approvedLoans, auditLog, emailOutbox, loanApplications, loanFees, loanOffers } from "~/server/platform/db/schema.server";
import { loadLedger } from "~/server/loans/ledger.server";
import { runServicingJobs } from "~/server/loans/servicing-jobs.server";
import { migrateData } from "../../server/data-migrations";
import { applicationRow } from "../helpers/application-rows";
import { databasesBeforeMigration } from "../helpers/migrations-up-to";
import { activeLoan, servicingAdmin } from "../helpers/servicing-loans";
import { setUpTestConfig } from "../helpers/temp-config";
import { testTargets, useTestDatabase } from "../helpers/test-db";

/**
 * A loan is serviced by the terms its borrower signed, fixed on the offer and copied at signing: the
 * lender's settings only set the terms of offers made after they change. Loans and offers from before
 * terms were stored get the settings in force at the start-up step, each with an audit row.
 */

const dataDir = setUpTestConfig("servicing-terms", { APP_SECRET: "t".repeat(48), PUBLIC_URL: "https://loans.example.com" });

const at = (day: string) => new Date(`${day}T12:00:00.000Z`);

/** The settings with another late-fee policy (what an operator changing LATE_FEE_* and restarting does). */
function withLateFeeSetting(policy: { graceDays: number; flatCents: number; percentMilli: number; capCents: number }): void {
  setConfig({ ...getConfig(), lateFeePolicy: policy });
}

describe("servicing terms fixed at signing, on pglite", () => {
  const database = useTestDatabase({ global: true });
  const db = () => database().db;
  let admin: AuditActor;
  let defaults: ReturnType<typeof getConfig>["lateFeePolicy"];

  beforeAll(async () => {
    admin = await servicingAdmin(db(), "terms-admin");
    defaults = getConfig().lateFeePolicy;
  });

  const feesOf = (loanId: string) => db().select().from(loanFees).where(eq(loanFees.loanId, loanId));
  const termsOf = async (loanId: string) => {
    const [row] = await db().select({ terms: approvedLoans.servicingTerms, offerId: approvedLoans.offerId }).from(approvedLoans).where(eq(approvedLoans.id, loanId));
    const [offer] = await db().select({ terms: loanOffers.servicingTerms }).from(loanOffers).where(eq(loanOffers.id, row!.offerId!));
    return { loan: parseServicingTerms(row!.terms), offer: parseServicingTerms(offer!.terms) };
  };

  it("copies the offer's terms to the loan, and a change of the late-fee setting after signing does not change the loan's fee", async () => {
    withLateFeeSetting(defaults);
    const loan = await activeLoan(db(), dataDir, admin, { signedAt: at("2026-01-10") });
    const signed = await termsOf(loan.loanId);
    expect(signed.loan).toEqual(signed.offer);
    expect(signed.loan).toMatchObject<Partial<ServicingTerms>>({
      interestMethod: "simple_daily_actual_365",
      paymentOrder: ["fees", "interest", "principal"],
      lateFee: defaults,
      returnedPaymentFeeCents: null,
      prepaymentPenalty: "none",
    });

    // The lender raises its late fee and shortens the grace period: for new offers only.
    try {
      withLateFeeSetting({ graceDays: 5, flatCents: 9_900, percentMilli: 0, capCents: 9_900 });
      await runServicingJobs(db(), at("2026-02-26"));
      const fees = await feesOf(loan.loanId);
      const installment = (await loadLedger(loan.loanId, db(), "2026-02-26"))!.state.installments[0]!;
      expect(fees).toHaveLength(1);
      // The signed fee (the larger of $25.00 and 5 % of the installment, at most $50.00), assessed after the signed 15 days.
      expect(fees[0]).toMatchObject({ installmentNumber: 1, amountCents: lateFeeCents(installment.paymentCents, defaults), assessedOn: "2026-02-26" });
      expect(fees[0]!.amountCents).not.toBe(9_900);

      // An offer made under the new setting carries it.
      const later = await activeLoan(db(), dataDir, admin, { signedAt: at("2026-01-10") });
      expect((await termsOf(later.loanId)).loan.lateFee).toEqual({ graceDays: 5, flatCents: 9_900, percentMilli: 0, capCents: 9_900 });
      // ...and it is charged on day 6 after the due date, where the first loan's 15 days still run.
      await runServicingJobs(db(), at("2026-02-16"));
      expect((await feesOf(later.loanId)).map((f) => f.amountCents)).toEqual([9_900]);
    } finally {
      withLateFeeSetting(defaults);
    }
  });

  it("never charges a late fee on a loan signed without one, yet still sends the late notice", async () => {
    try {
      withLateFeeSetting({ ...defaults, flatCents: 0, percentMilli: 0 });
      const loan = await activeLoan(db(), dataDir, admin, { signedAt: at("2026-03-10") });
      expect((await termsOf(loan.loanId)).loan.lateFee).toBeNull();

      // The lender starts charging late fees: this loan's note says it has none.
      withLateFeeSetting(defaults);
      await runServicingJobs(db(), at("2026-05-30"));
      expect(await feesOf(loan.loanId)).toEqual([]);
      const notices = await db()
        .select({ template: emailOutbox.template })
        .from(emailOutbox)
        .where(and(eq(emailOutbox.toAddress, loan.owner.email), eq(emailOutbox.template, "late-notice")));
      expect(notices.length).toBeGreaterThan(0);
    } finally {
      withLateFeeSetting(defaults);
    }
  });
});

describe.each(testTargets)("loans and offers from before servicing terms were stored, on %s", (target) => {
  const migratedTo = databasesBeforeMigration(target);

  it("get the settings in force at the start-up step, one audit row each, and the step is a no-op after", async () => {
    const database = await migratedTo(26);
    await database.db.execute(sql`insert into "user" (id, name, email) values ('before-terms', 'Dana Whitfield', 'dana.terms@example.com')`);
    const [app] = await database.db
      .insert(loanApplications)
      .values(applicationRow("before-terms", { status: "approved", reviewedAt: new Date("2026-01-09T15:00:00Z") }))
      .returning({ id: loanApplications.id });
    const offer = (await database.db.execute(sql`insert into loan_offers (application_id, user_id, status, is_counteroffer, amount_cents, note_rate_milli, term_months,
        origination_fee_milli, origination_fee_cents, amount_financed_cents, payment_cents, final_payment_cents, finance_charge_cents, total_of_payments_cents, apr_milli, expires_at, decided_at)
      values (${app!.id}, 'before-terms', 'signed', false, 1200000, 9500, 12, 0, 0, 1200000, 105224, 105221, 62685, 1262685, 9500, '2026-02-09T00:00:00Z', '2026-01-10T12:00:00Z') returning id`)) as unknown as {
      rows: { id: string }[];
    };
    const loan = (await database.db.execute(sql`insert into approved_loans (user_id, application_id, offer_id, obligor_name, balance_cents, term_months, amount_cents, note_rate_milli, payment_cents, start_date)
      values ('before-terms', ${app!.id}, ${offer.rows[0]!.id}, 'Dana Whitfield', 1200000, 12, 1200000, 9500, 105224, '2026-01-10') returning id`)) as unknown as { rows: { id: string }[] };

    await runMigrations(database);
    const inForce = { graceDays: 10, flatCents: 1_500, percentMilli: 4_000, capCents: 3_500 };
    const settings = getConfig().lateFeePolicy;
    setConfig({ ...getConfig(), lateFeePolicy: inForce });
    try {
      expect(await migrateData(database)).toEqual([
        "Recorded the servicing terms in force on 1 offer made before terms were stored.",
        "Recorded the servicing terms in force on 1 loan signed before terms were stored.",
      ]);
      const [loanRow] = await database.db.select({ terms: approvedLoans.servicingTerms }).from(approvedLoans).where(eq(approvedLoans.id, loan.rows[0]!.id));
      const [offerRow] = await database.db.select({ terms: loanOffers.servicingTerms }).from(loanOffers).where(eq(loanOffers.id, offer.rows[0]!.id));
      expect(parseServicingTerms(loanRow!.terms).lateFee).toEqual(inForce);
      expect(parseServicingTerms(offerRow!.terms).lateFee).toEqual(inForce);

      const audits = await database.db.select().from(auditLog).where(sql`${auditLog.action} in ('loan.terms_recorded', 'offer.terms_recorded')`);
      expect(audits.map((a) => [a.action, a.recordId, a.actorId]).sort()).toEqual(
        [
          ["loan.terms_recorded", loan.rows[0]!.id, null],
          ["offer.terms_recorded", offer.rows[0]!.id, null],
        ].sort(),
      );
      expect(audits[0]!.details).toMatchObject({ servicingTerms: { lateFee: inForce } });

      // Changing the settings later and starting again changes nothing already recorded.
      setConfig({ ...getConfig(), lateFeePolicy: { ...inForce, flatCents: 9_999 } });
      expect(await migrateData(database)).toEqual([]);
      const [again] = await database.db.select({ terms: approvedLoans.servicingTerms }).from(approvedLoans).where(eq(approvedLoans.id, loan.rows[0]!.id));
      expect(parseServicingTerms(again!.terms).lateFee).toEqual(inForce);
    } finally {
      setConfig({ ...getConfig(), lateFeePolicy: settings });
    }
  });
});
