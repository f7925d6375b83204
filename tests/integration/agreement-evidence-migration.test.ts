import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { runMigrations } from "~/server/platform/db/migrate.server";
import { loanApplications } from "~/server/platform/db/schema.server";
import { applicationRow } from "../helpers/application-rows";
import { databasesBeforeMigration } from "../helpers/migrations-up-to";
import { testTargets } from "../helpers/test-db";

/**
 * Agreements signed before the file was digitally signed keep no signature evidence and name no
 * signing certificate (their documents are not signed again); a digitally signed one must keep
 * exactly what its kind says: the typed name, or the drawn image.
 */
describe.each(testTargets)("signature evidence on agreements signed before it was kept, on %s", (target) => {
  const migratedTo = databasesBeforeMigration(target);

  it("leaves existing agreements without evidence, and refuses a signed one without it", async () => {
    const database = await migratedTo(26);
    const run = (query: ReturnType<typeof sql>) => database.db.execute(query) as unknown as Promise<{ rows: Record<string, unknown>[] }>;
    await run(sql`insert into "user" (id, name, email) values ('signer', 'Dana Whitfield', 'dana@example.com')`);
    const [app] = await database.db
      .insert(loanApplications)
      .values(applicationRow("signer", { status: "approved", reviewedAt: new Date("2026-01-09T15:00:00Z") }))
      .returning({ id: loanApplications.id });
    const offer = await run(sql`insert into loan_offers (application_id, user_id, is_counteroffer, amount_cents, note_rate_milli, term_months, origination_fee_milli,
        origination_fee_cents, amount_financed_cents, payment_cents, final_payment_cents, finance_charge_cents, total_of_payments_cents, apr_milli, expires_at, status, decided_at)
      values (${app!.id}, 'signer', false, 1200000, 9500, 12, 1000, 12000, 1188000, 105224, 105224, 74688, 1262688, 11400, now() + interval '1 day', 'signed', now()) returning id`);
    const consent = await run(sql`insert into esign_consents (user_id, application_id, version) values ('signer', ${app!.id}, 'esign-2026-11-01') returning id`);
    const signed = await run(sql`insert into signed_agreements (offer_id, application_id, user_id, storage_key, sha256, byte_size, signer_name, signer_email,
        signature_kind, signed_at, consent_id, consent_version, consented_at, first_payment_due)
      values (${offer.rows[0]!.id}, ${app!.id}, 'signer', 'agreements/old.pdf', ${"a".repeat(64)}, 1000, 'Dana Whitfield', 'dana@example.com',
        'typed', now(), ${consent.rows[0]!.id}, 'esign-2026-11-01', now(), '2026-02-10') returning id`);
    const id = signed.rows[0]!.id as string;

    await runMigrations(database);

    const [row] = (await run(sql`select signature_typed_name, signature_png, signing_certificate_sha256 from signed_agreements where id = ${id}`)).rows;
    expect(row).toEqual({ signature_typed_name: null, signature_png: null, signing_certificate_sha256: null });

    const refusal = (query: ReturnType<typeof sql>) =>
      run(query).then(() => null, (error: unknown) => (error as { cause?: { code?: string }; code?: string }).cause?.code ?? (error as { code?: string }).code);
    const certificate = "b".repeat(64);
    // Named as digitally signed, but without what was signed; or with the other kind's evidence.
    expect(await refusal(sql`update signed_agreements set signing_certificate_sha256 = ${certificate} where id = ${id}`)).toBe("23514");
    expect(await refusal(sql`update signed_agreements set signing_certificate_sha256 = ${certificate}, signature_png = '\x89504e47'::bytea where id = ${id}`)).toBe("23514");
    // Evidence without the certificate it was signed with, and a certificate digest that is not one.
    expect(await refusal(sql`update signed_agreements set signature_typed_name = 'Dana Whitfield' where id = ${id}`)).toBe("23514");
    expect(await refusal(sql`update signed_agreements set signing_certificate_sha256 = ${"Z".repeat(64)}, signature_typed_name = 'Dana Whitfield' where id = ${id}`)).toBe("23514");
    expect(await refusal(sql`update signed_agreements set signing_certificate_sha256 = ${certificate}, signature_typed_name = 'Dana Whitfield' where id = ${id}`)).toBeNull();
  });
});
