import { eq, sql } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { listTimeline, recordEvent } from "~/server/conversation/timeline.server";
import { runMigrations } from "~/server/platform/db/migrate.server";
import { applicationEvents, loanApplications } from "~/server/platform/db/schema.server";
import { applicationRow } from "../helpers/application-rows";
import { testTargets, useTestDatabase, rowsOf } from "../helpers/test-db";
import { databasesBeforeMigration } from "../helpers/migrations-up-to";
import { seedApplicants } from "../helpers/seed";

/**
 * The Application Timeline (issue 19): events are written in the caller's transaction (a change that
 * rolls back leaves no event), listed newest first; the applicant's view never holds internal entries
 * or staff names. Migration 0006 gives applications that predate it their submitted/decided events.
 */

const APPLICANT = { id: "timeline-applicant", name: "Jane Applicant" };
const STAFF = { id: "timeline-staff", name: "Sam Staffer" };
const OTHER_STAFF = { id: "timeline-staff-2", name: "Olivia Officer" };

describe("recordEvent and listTimeline", () => {
  const database = useTestDatabase();
  const applicationId = randomUUID();

  beforeAll(async () => {
    const db = database().db;
    await seedApplicants(db, [APPLICANT, STAFF, OTHER_STAFF].map((who) => ({ id: who.id, name: who.name, email: `${who.id}@example.com`, profile: true })));
    await db.insert(loanApplications).values(applicationRow(APPLICANT.id, { id: applicationId }));
  });

  const at = (minutesAgo: number) => sql`now() - (${minutesAgo} * interval '1 minute')`;

  it("writes in the caller's transaction: a change that rolls back leaves no event", async () => {
    const db = database().db;
    await expect(
      db.transaction(async (tx) => {
        await recordEvent(tx, { applicationId, ownerId: APPLICANT.id, kind: "review_started", actorId: STAFF.id, actorSide: "staff" });
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect(await db.select().from(applicationEvents).where(eq(applicationEvents.applicationId, applicationId))).toEqual([]);

    await db.transaction(async (tx) => {
      await recordEvent(tx, { applicationId, ownerId: APPLICANT.id, kind: "submitted", actorId: APPLICANT.id, actorSide: "applicant" });
    });
    const rows = await db.select().from(applicationEvents).where(eq(applicationEvents.applicationId, applicationId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: "submitted", userId: APPLICANT.id, actorId: APPLICANT.id, actorSide: "applicant", internal: false, summary: null });
  });

  it("lists newest first; staff see internal notes and names, the applicant sees neither", async () => {
    const db = database().db;
    // Times set apart so the order is the events' order, not the insert order.
    await db.update(applicationEvents).set({ createdAt: at(60) }).where(eq(applicationEvents.applicationId, applicationId));
    const events = [
      { kind: "review_started", actorId: STAFF.id, actorSide: "staff", minutesAgo: 50 },
      { kind: "note", actorId: STAFF.id, actorSide: "staff", summary: "Check the DTI with the co-signer", internal: true, minutesAgo: 40 },
      { kind: "documents_requested", actorId: OTHER_STAFF.id, actorSide: "staff", summary: "Pay Stub", minutesAgo: 30 },
      { kind: "document_received", actorId: APPLICANT.id, actorSide: "applicant", summary: "Pay Stub: stub.pdf", minutesAgo: 20 },
      { kind: "approved", actorId: null, actorSide: null, minutesAgo: 10 },
    ] as const;
    for (const e of events) {
      await db.insert(applicationEvents).values({
        applicationId,
        userId: APPLICANT.id,
        kind: e.kind,
        actorId: e.actorId,
        actorSide: e.actorSide,
        summary: "summary" in e ? e.summary : null,
        internal: "internal" in e ? e.internal : false,
        createdAt: at(e.minutesAgo),
      });
    }

    const staff = await listTimeline(applicationId, { id: STAFF.id, side: "staff" }, db);
    expect(staff.map((e) => e.kind)).toEqual(["approved", "document_received", "documents_requested", "note", "review_started", "submitted"]);
    expect(staff.map((e) => e.title)).toEqual(["Approved", "Document Received", "Documents Requested", "Internal Note", "Under Review", "Submitted"]);
    expect(staff.map((e) => e.actor)).toEqual([null, APPLICANT.name, OTHER_STAFF.name, "You", "You", APPLICANT.name]);
    expect(staff.find((e) => e.kind === "note")).toMatchObject({ internal: true, summary: "Check the DTI with the co-signer" });
    const times = staff.map((e) => Date.parse(e.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    const applicant = await listTimeline(applicationId, { id: APPLICANT.id, side: "applicant" }, db);
    expect(applicant.map((e) => e.kind)).toEqual(["approved", "document_received", "documents_requested", "review_started", "submitted"]);
    expect(applicant.map((e) => e.actor)).toEqual([null, "You", "Private Loans", "Private Loans", "You"]);
    expect(applicant.every((e) => !e.internal)).toBe(true);
    const text = JSON.stringify(applicant);
    for (const hidden of [STAFF.name, OTHER_STAFF.name, "DTI", STAFF.id, OTHER_STAFF.id]) expect(text).not.toContain(hidden);
  });

  it("lists nothing of another application", async () => {
    const db = database().db;
    const otherId = randomUUID();
    await db.insert(loanApplications).values(applicationRow(APPLICANT.id, { id: otherId }));
    expect(await listTimeline(otherId, { id: APPLICANT.id, side: "applicant" }, db)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------

describe.each(testTargets)("migration 0006 backfills the timeline on %s", (target) => {
  const openBefore = databasesBeforeMigration(target);

  it("gives applications from before it their submitted, review and decision events, at their times", async () => {
    const database = await openBefore(5);
    await database.db.execute(sql`insert into "user" (id, name, email) values ('old-applicant', 'Old Applicant', 'old@example.com'), ('old-staff', 'Old Staff', 'staff@example.com')`);
    const insert = (status: string, submittedDaysAgo: number, reviewed: boolean) =>
      database.db.execute(sql`
        insert into loan_applications (user_id, loan_type, requested_amount, desired_interest_rate, loan_duration, purpose,
          first_name, last_name, date_of_birth, email, phone, address_line1, city, state, zip_code, employment_status,
          employer_name, monthly_income, status, submitted_at, reviewed_at, reviewed_by, updated_at)
        values ('old-applicant', 'personal', 10000, 9.5, 36, ${`An application ${status}`},
          'Old', 'Applicant', '1980-01-01', 'old@example.com', '3025550100', '1 Main St', 'Dover', 'DE', '19901', 'full-time',
          'Acme', 5000, ${status}, now() - (${submittedDaysAgo} * interval '1 day'),
          ${reviewed ? sql`now() - interval '1 day'` : null}, ${reviewed ? "old-staff" : null}, now() - interval '2 day')
        returning id`);
    const ids: Record<string, string> = {};
    for (const [status, days, reviewed] of [
      ["pending", 3, false],
      ["under_review", 5, false],
      ["approved", 10, true],
      ["denied", 8, true],
    ] as const) {
      const [row] = ((await insert(status, days, reviewed)) as unknown as { rows: { id: string }[] }).rows;
      ids[status] = row!.id;
    }

    await runMigrations(database);

    const events = await rowsOf<{ application_id: string; kind: string; actor_id: string | null; actor_side: string | null; created_at: string | Date; user_id: string }>(
      database,
      sql`select application_id, kind, actor_id, actor_side, created_at, user_id from application_events order by created_at`,
    );
    const apps = await rowsOf<{ id: string; submitted_at: string | Date; reviewed_at: string | Date | null; updated_at: string | Date }>(
      database,
      sql`select id, submitted_at, reviewed_at, updated_at from loan_applications`,
    );
    const time = (v: string | Date | null) => (v === null ? null : new Date(v).getTime());
    const of = (status: string) => events.filter((e) => e.application_id === ids[status]);
    const app = (status: string) => apps.find((a) => a.id === ids[status])!;

    expect(of("pending").map((e) => e.kind)).toEqual(["submitted"]);
    expect(of("under_review").map((e) => e.kind)).toEqual(["submitted", "review_started"]);
    expect(of("approved").map((e) => e.kind)).toEqual(["submitted", "approved"]);
    expect(of("denied").map((e) => e.kind)).toEqual(["submitted", "denied"]);
    for (const status of ["pending", "under_review", "approved", "denied"]) {
      const submitted = of(status).find((e) => e.kind === "submitted")!;
      expect(submitted).toMatchObject({ actor_id: "old-applicant", actor_side: "applicant", user_id: "old-applicant" });
      expect(time(submitted.created_at)).toBe(time(app(status).submitted_at));
    }
    for (const status of ["approved", "denied"]) {
      const decided = of(status).find((e) => e.kind === status)!;
      expect(decided).toMatchObject({ actor_id: "old-staff", actor_side: "staff" });
      expect(time(decided.created_at)).toBe(time(app(status).reviewed_at));
    }
    expect(time(of("under_review").find((e) => e.kind === "review_started")!.created_at)).toBe(time(app("under_review").updated_at));

    // The applicant's view of a backfilled decision: the lender, never the staff member's name.
    const timeline = await listTimeline(ids.approved!, { id: "old-applicant", side: "applicant" }, database.db);
    expect(timeline.map((e) => [e.kind, e.actor])).toEqual([
      ["approved", "Private Loans"],
      ["submitted", "You"],
    ]);
  });
});
