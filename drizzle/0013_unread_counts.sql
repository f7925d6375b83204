CREATE TABLE "conversation_counts" (
	"application_id" uuid PRIMARY KEY NOT NULL,
	"applicant_messages" integer DEFAULT 0 NOT NULL,
	"staff_messages" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "conversation_reader_totals" (
	"reader_id" text PRIMARY KEY NOT NULL,
	"seen_applicant" bigint DEFAULT 0 NOT NULL,
	"seen_staff" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "approved_loans" ADD COLUMN "serviced_on" date;--> statement-breakpoint
ALTER TABLE "conversation_reads" ADD COLUMN "seen_applicant" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "conversation_reads" ADD COLUMN "seen_staff" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "conversation_counts" ADD CONSTRAINT "conversation_counts_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."loan_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_reader_totals" ADD CONSTRAINT "conversation_reader_totals_reader_id_user_id_fk" FOREIGN KEY ("reader_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The rows a statement trigger's transition tables hold as changes: +1 for each new row, -1 for each
-- old one (an UPDATE has both). `cols` is the select list taken from each row.
CREATE OR REPLACE FUNCTION "portal_transition_changes"(op text, cols text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE op
    WHEN 'INSERT' THEN format('SELECT %s, 1 AS n FROM new_rows', cols)
    WHEN 'DELETE' THEN format('SELECT %s, -1 AS n FROM old_rows', cols)
    ELSE format('SELECT %1$s, 1 AS n FROM new_rows UNION ALL SELECT %1$s, -1 AS n FROM old_rows', cols)
  END
$$;
--> statement-breakpoint
-- Messages per side of each conversation (decision 0048), kept by statement triggers on
-- application_messages. Applications are upserted in id order, so two writers never deadlock on
-- them; a statement that changes no count writes nothing. A change for an application being deleted
-- (its messages cascade) is skipped: its counts row cascades with it.
CREATE OR REPLACE FUNCTION "portal_conversation_counts"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM "conversation_counts";
    UPDATE "conversation_reads" SET "seen_applicant" = 0, "seen_staff" = 0 WHERE "seen_applicant" <> 0 OR "seen_staff" <> 0;
    RETURN NULL;
  END IF;
  EXECUTE format($q$
    INSERT INTO "conversation_counts" AS c ("application_id", "applicant_messages", "staff_messages")
      SELECT d.application_id, d.a, d.s FROM (
        SELECT application_id,
          coalesce(sum(n) FILTER (WHERE author_side = 'applicant'), 0)::int AS a,
          coalesce(sum(n) FILTER (WHERE author_side = 'staff'), 0)::int AS s
        FROM (%s) changes GROUP BY application_id
      ) d
      WHERE (d.a <> 0 OR d.s <> 0) AND EXISTS (SELECT 1 FROM "loan_applications" la WHERE la.id = d.application_id)
      ORDER BY d.application_id
      ON CONFLICT ("application_id") DO UPDATE SET
        "applicant_messages" = c."applicant_messages" + excluded."applicant_messages",
        "staff_messages" = c."staff_messages" + excluded."staff_messages"$q$,
    "portal_transition_changes"(TG_OP, 'application_id, author_side'));
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- Each reader's seen totals (the sum of their read marks), kept the same way on conversation_reads.
-- A reader whose account is being deleted (their marks cascade) is skipped: their row cascades too.
CREATE OR REPLACE FUNCTION "portal_conversation_reader_totals"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM "conversation_reader_totals";
    RETURN NULL;
  END IF;
  EXECUTE format($q$
    INSERT INTO "conversation_reader_totals" AS t ("reader_id", "seen_applicant", "seen_staff")
      SELECT d.reader_id, d.a, d.s FROM (
        SELECT reader_id, sum(n * seen_applicant)::bigint AS a, sum(n * seen_staff)::bigint AS s
        FROM (%s) changes GROUP BY reader_id
      ) d
      WHERE (d.a <> 0 OR d.s <> 0) AND EXISTS (SELECT 1 FROM "user" u WHERE u.id = d.reader_id)
      ORDER BY d.reader_id
      ON CONFLICT ("reader_id") DO UPDATE SET
        "seen_applicant" = t."seen_applicant" + excluded."seen_applicant",
        "seen_staff" = t."seen_staff" + excluded."seen_staff"$q$,
    "portal_transition_changes"(TG_OP, 'reader_id, seen_applicant, seen_staff'));
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "application_messages_conversation_counts_insert" AFTER INSERT ON "application_messages"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "portal_conversation_counts"();
--> statement-breakpoint
CREATE TRIGGER "application_messages_conversation_counts_update" AFTER UPDATE ON "application_messages"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "portal_conversation_counts"();
--> statement-breakpoint
CREATE TRIGGER "application_messages_conversation_counts_delete" AFTER DELETE ON "application_messages"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "portal_conversation_counts"();
--> statement-breakpoint
CREATE TRIGGER "application_messages_conversation_counts_truncate" AFTER TRUNCATE ON "application_messages"
  FOR EACH STATEMENT EXECUTE FUNCTION "portal_conversation_counts"();
--> statement-breakpoint
-- All applicant (and staff) messages: the staff badge's minuend.
CREATE TRIGGER "application_messages_count_insert" AFTER INSERT ON "application_messages"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "portal_count_rows"($$'application_messages:' || author_side$$, 'application_messages');
--> statement-breakpoint
CREATE TRIGGER "application_messages_count_update" AFTER UPDATE ON "application_messages"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "portal_count_rows"($$'application_messages:' || author_side$$, 'application_messages');
--> statement-breakpoint
CREATE TRIGGER "application_messages_count_delete" AFTER DELETE ON "application_messages"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "portal_count_rows"($$'application_messages:' || author_side$$, 'application_messages');
--> statement-breakpoint
CREATE TRIGGER "application_messages_count_truncate" AFTER TRUNCATE ON "application_messages"
  FOR EACH STATEMENT EXECUTE FUNCTION "portal_count_rows"('', 'application_messages');
--> statement-breakpoint
CREATE TRIGGER "conversation_reads_reader_totals_insert" AFTER INSERT ON "conversation_reads"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "portal_conversation_reader_totals"();
--> statement-breakpoint
CREATE TRIGGER "conversation_reads_reader_totals_update" AFTER UPDATE ON "conversation_reads"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "portal_conversation_reader_totals"();
--> statement-breakpoint
CREATE TRIGGER "conversation_reads_reader_totals_delete" AFTER DELETE ON "conversation_reads"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "portal_conversation_reader_totals"();
--> statement-breakpoint
CREATE TRIGGER "conversation_reads_reader_totals_truncate" AFTER TRUNCATE ON "conversation_reads"
  FOR EACH STATEMENT EXECUTE FUNCTION "portal_conversation_reader_totals"();
--> statement-breakpoint
-- The audit log's hourly rollups (drizzle/0012) recomputed from the log (0015 adds two columns).
CREATE OR REPLACE FUNCTION "portal_rebuild_audit_rollups"() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "audit_activity_hourly";
  INSERT INTO "audit_activity_hourly" ("hour", "actor_id", "actions", "last_at", "last_id", "actor_name", "actor_email", "tables")
    SELECT g.h, g.a, g.n, l.created_at, l.id, l.actor_name, l.actor_email, g.t
    FROM (
      SELECT date_trunc('hour', created_at, 'UTC') AS h, coalesce(actor_id, '') AS a, count(*)::integer AS n,
             coalesce(array_agg(DISTINCT table_name) FILTER (WHERE table_name IS NOT NULL), '{}') AS t
      FROM "audit_log" GROUP BY 1, 2
    ) g
    JOIN (
      SELECT DISTINCT ON (1, 2) date_trunc('hour', created_at, 'UTC') AS h, coalesce(actor_id, '') AS a, created_at, id, actor_name, actor_email
      FROM "audit_log" ORDER BY 1, 2, created_at DESC, id DESC
    ) l USING (h, a);
END;
$$;
--> statement-breakpoint
-- Every count kept by a trigger (0005, 0011, 0012 and this one) recomputed from the rows: this
-- migration's backfill, and what a bulk load that ran with its triggers off (bench/seed-grow.ts,
-- session_replication_role = replica) calls afterwards. Read marks are left as they are: their seen
-- counts are facts about what a reader saw, not derived from other rows.
CREATE OR REPLACE FUNCTION "portal_rebuild_counts"() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "application_status_counts" c SET "applications" = (SELECT count(*) FROM "loan_applications" a WHERE a."status" = c."status");
  UPDATE "client_counts" SET "clients" = (SELECT count(*)::integer FROM "profiles" p WHERE NOT EXISTS (SELECT 1 FROM "user_roles" r WHERE r."user_id" = p."id"))
    WHERE "name" = 'applicants';
  DELETE FROM "row_counts";
  INSERT INTO "row_counts" ("key", "rows")
    SELECT 'contact_messages:' || s.status, count(m.id) FROM (VALUES ('new'), ('read'), ('archived')) AS s(status)
      LEFT JOIN "contact_messages" m ON m.status = s.status GROUP BY s.status
    UNION ALL
    SELECT 'loan_documents', count(*) FROM "loan_documents"
    UNION ALL
    SELECT 'approved_loans:paid_off', count(*) FROM "approved_loans" WHERE "status" = 'paid_off'
    UNION ALL
    SELECT 'approved_loans:due:' || coalesce("next_due_date"::text, 'none'), count(*) FROM "approved_loans" WHERE "status" <> 'paid_off'
      GROUP BY "next_due_date"
    UNION ALL
    SELECT 'assigned:' || "assigned_to" || ':' || "status", count(*) FROM "loan_applications" WHERE "assigned_to" IS NOT NULL
      GROUP BY "assigned_to", "status"
    UNION ALL
    SELECT 'application_messages:' || s.side, count(m.id) FROM (VALUES ('applicant'), ('staff')) AS s(side)
      LEFT JOIN "application_messages" m ON m."author_side" = s.side GROUP BY s.side;
  PERFORM "portal_rebuild_audit_rollups"();
  DELETE FROM "conversation_counts";
  INSERT INTO "conversation_counts" ("application_id", "applicant_messages", "staff_messages")
    SELECT "application_id", count(*) FILTER (WHERE "author_side" = 'applicant'), count(*) FILTER (WHERE "author_side" = 'staff')
    FROM "application_messages" GROUP BY "application_id";
  DELETE FROM "conversation_reader_totals";
  INSERT INTO "conversation_reader_totals" ("reader_id", "seen_applicant", "seen_staff")
    SELECT "reader_id", sum("seen_applicant"), sum("seen_staff") FROM "conversation_reads" GROUP BY "reader_id";
END;
$$;
--> statement-breakpoint
-- Backfill. No write may slip between the counts below and the triggers (another instance running).
LOCK TABLE "application_messages", "conversation_reads", "loan_applications", "profiles", "user_roles", "contact_messages", "loan_documents", "approved_loans", "audit_log" IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
SELECT "portal_rebuild_counts"();
--> statement-breakpoint
-- A read mark saw what was written up to its instant: the rule the marks had until now, so no
-- conversation changes from read to unread (or back) with this migration. The reader totals follow
-- from this UPDATE through the trigger above.
UPDATE "conversation_reads" r SET
  "seen_applicant" = (SELECT count(*) FROM "application_messages" m WHERE m."application_id" = r."application_id" AND m."author_side" = 'applicant' AND m."created_at" <= r."last_read_at"),
  "seen_staff" = (SELECT count(*) FROM "application_messages" m WHERE m."application_id" = r."application_id" AND m."author_side" = 'staff' AND m."created_at" <= r."last_read_at");
