import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { totalUnread, unreadCount } from "~/server/conversation/messages.server";
import { runMigrations } from "~/server/platform/db/migrate.server";
import { databasesBeforeMigration } from "../helpers/migrations-up-to";
import { testTargets, rowsOf } from "../helpers/test-db";

/**
 * Migration 0013 (decision 0048) turns read marks from instants into counts. A conversation that was
 * read or unread before it must read the same after it: each mark is given the counts of the messages
 * written up to its instant, and the per-conversation counts, the staff totals and the header badges
 * follow from those.
 */

describe.each(testTargets)("migration 0013 keeps every unread count on %s", (target) => {
  const openBefore = databasesBeforeMigration(target);

  it("gives existing read marks the counts of what was written before them", async () => {
    const database = await openBefore(12);
    for (const id of ["old-applicant", "old-staff", "other-staff"]) {
      await database.db.execute(sql`insert into "user" (id, name, email) values (${id}, ${id}, ${`${id}@example.com`})`);
    }
    const application = async () => {
      const [row] = await rowsOf<{ id: string }>(
        database,
        sql`insert into loan_applications (user_id, loan_type, requested_amount, desired_interest_rate, loan_duration, purpose,
          first_name, last_name, date_of_birth, email, phone, address_line1, city, state, zip_code, employment_status,
          employer_name, monthly_income, status)
        values ('old-applicant', 'personal', 25000, 9.5, 36, 'Before the counts',
          'Old', 'Applicant', '1980-01-01', 'old@example.com', '3025550100', '1 Main St', 'Dover', 'DE', '19901', 'full-time',
          'Acme', 5000, 'under_review') returning id`,
      );
      return row!.id;
    };
    const first = await application();
    const second = await application();
    const message = (appId: string, side: "applicant" | "staff", hoursAgo: number) =>
      database.db.execute(sql`insert into application_messages (application_id, user_id, author_id, author_side, body, created_at)
        values (${appId}, 'old-applicant', ${side === "staff" ? "old-staff" : "old-applicant"}, ${side}, 'then', now() - ${hoursAgo} * interval '1 hour')`);
    const mark = (appId: string, readerId: string, hoursAgo: number) =>
      database.db.execute(sql`insert into conversation_reads (application_id, reader_id, last_read_at) values (${appId}, ${readerId}, now() - ${hoursAgo} * interval '1 hour')`);
    // First: applicant 10 h, staff 8 h, applicant 5 h, staff 1 h. The applicant read at 6 h (one staff
    // message since), old-staff at 4 h (nothing from the applicant since), other-staff never.
    await message(first, "applicant", 10);
    await message(first, "staff", 8);
    await message(first, "applicant", 5);
    await message(first, "staff", 1);
    await mark(first, "old-applicant", 6);
    await mark(first, "old-staff", 4);
    // Second: applicant 3 h and 2 h; old-staff read at 2.5 h (one since).
    await message(second, "applicant", 3);
    await message(second, "applicant", 2);
    await mark(second, "old-staff", 2.5);

    await runMigrations(database);
    const applicant = { id: "old-applicant", side: "applicant" as const };
    const staff = { id: "old-staff", side: "staff" as const };
    const otherStaff = { id: "other-staff", side: "staff" as const };
    expect(await unreadCount(first, applicant, database.db)).toBe(1);
    expect(await unreadCount(first, staff, database.db)).toBe(0);
    expect(await unreadCount(second, staff, database.db)).toBe(1);
    expect(await unreadCount(first, otherStaff, database.db)).toBe(2);
    expect(await totalUnread(applicant, database.db)).toBe(1);
    expect(await totalUnread(staff, database.db)).toBe(1);
    expect(await totalUnread(otherStaff, database.db)).toBe(4);
    expect(await rowsOf<{ reader_id: string; seen_applicant: string }>(database, sql`select reader_id, seen_applicant::text from conversation_reader_totals order by 1`)).toEqual([
      { reader_id: "old-applicant", seen_applicant: "1" },
      { reader_id: "old-staff", seen_applicant: "3" },
    ]);
  });
});
