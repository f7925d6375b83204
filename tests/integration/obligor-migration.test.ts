import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { runMigrations } from "~/server/platform/db/migrate.server";
import { loanApplications } from "~/server/platform/db/schema.server";
import { applicationRow } from "../helpers/application-rows";
import { databasesBeforeMigration } from "../helpers/migrations-up-to";
import { testTargets } from "../helpers/test-db";

/**
 * A loan names its obligor as the note did, fixed at signing. Loans signed before the column existed
 * take the name their agreement printed from the application: first name, middle initial with its
 * period, last name; never the account's profile name, which may have changed since.
 */
describe.each(testTargets)("the obligor's name on loans signed before it was kept, on %s", (target) => {
  const migratedTo = databasesBeforeMigration(target);

  it("is the agreement's name for every existing loan, and a new loan cannot be without one", async () => {
    const database = await migratedTo(25);
    await database.db.execute(sql`insert into "user" (id, name, email) values ('renamed', 'Dee Married-Name', 'dee@example.com')`);
    const loans: { id: string; expected: string }[] = [];
    for (const [firstName, middleInitial, lastName, expected] of [
      ["Dana", "R", "Whitfield", "Dana R. Whitfield"],
      ["Dee", null, "Maiden", "Dee Maiden"],
    ] as const) {
      const [app] = await database.db
        .insert(loanApplications)
        .values(applicationRow("renamed", { firstName, middleInitial, lastName, status: "approved", reviewedAt: new Date("2026-01-09T15:00:00Z") }))
        .returning({ id: loanApplications.id });
      const result = (await database.db.execute(sql`insert into approved_loans (user_id, application_id, balance_cents, term_months, amount_cents, note_rate_milli, payment_cents, start_date)
        values ('renamed', ${app!.id}, 1200000, 12, 1200000, 9500, 105224, '2026-01-10') returning id`)) as unknown as { rows: { id: string }[] };
      loans.push({ id: result.rows[0]!.id, expected });
    }

    await runMigrations(database);

    for (const loan of loans) {
      const stored = (await database.db.execute(sql`select obligor_name from approved_loans where id = ${loan.id}`)) as unknown as { rows: { obligor_name: string }[] };
      expect(stored.rows[0]!.obligor_name).toBe(loan.expected);
    }
    const refused = await database.db
      .execute(sql`update approved_loans set obligor_name = null where id = ${loans[0]!.id}`)
      .then(() => null, (error: unknown) => error as { cause?: { code?: string }; code?: string });
    expect(refused?.cause?.code ?? refused?.code).toBe("23502");
  });
});
