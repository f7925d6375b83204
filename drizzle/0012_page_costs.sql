-- Issue 24: pages whose cost does not grow with the data (decision 0044). Indexes for the joins and
-- orders the signed-in pages use, and row counts kept in the same transaction as each change, so a
-- list's "N messages" or "page 3 of 40" reads a few rows instead of counting a growing table.
CREATE TABLE "row_counts" (
	"key" text PRIMARY KEY NOT NULL,
	"rows" bigint NOT NULL
);
--> statement-breakpoint
-- The new indexes below begin with the column of the two they replace, and serve those queries too.
DROP INDEX IF EXISTS "contact_messages_created_at_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "loan_documents_uploaded_at_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "loan_applications_assigned_to_submitted_at_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "loan_applications_submitted_at_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "loan_applications_submitted_at_id_idx" ON "loan_applications" USING btree ("submitted_at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "loan_applications_assigned_to_status_submitted_at_id_idx" ON "loan_applications" USING btree ("assigned_to","status","submitted_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "approved_loans_list_order_idx" ON "approved_loans" USING btree ("next_due_date","approval_date" DESC NULLS FIRST,"id","status");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "contact_messages_created_at_id_status_idx" ON "contact_messages" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST,"status");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "loan_documents_list_order_idx" ON "loan_documents" USING btree ("uploaded_at" DESC NULLS FIRST,"application_id","document_type","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "loan_documents_application_id_idx" ON "loan_documents" USING btree ("application_id");
--> statement-breakpoint
-- One trigger function for every counted table: TG_ARGV[0] is the SQL expression giving a row's key
-- (evaluated over the statement's transition tables; a null key is not counted), TG_ARGV[1] the prefix
-- of the table's keys (TRUNCATE zeroes them). Keys are upserted in key order, so two writers
-- never deadlock on them; a statement that moves no row between keys writes nothing.
CREATE OR REPLACE FUNCTION "portal_count_rows"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  keys text[];
  changes bigint[];
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    EXECUTE format('UPDATE "row_counts" SET "rows" = 0 WHERE "key" = %L OR "key" LIKE %L', TG_ARGV[1], TG_ARGV[1] || ':%');
    RETURN NULL;
  ELSIF TG_OP = 'INSERT' THEN
    EXECUTE format('SELECT array_agg(k ORDER BY k), array_agg(n ORDER BY k) FROM (SELECT %s AS k, count(*)::bigint AS n FROM new_rows GROUP BY 1) d WHERE k IS NOT NULL', TG_ARGV[0])
      INTO keys, changes;
  ELSIF TG_OP = 'DELETE' THEN
    EXECUTE format('SELECT array_agg(k ORDER BY k), array_agg(n ORDER BY k) FROM (SELECT %s AS k, -count(*)::bigint AS n FROM old_rows GROUP BY 1) d WHERE k IS NOT NULL', TG_ARGV[0])
      INTO keys, changes;
  ELSE
    EXECUTE format('SELECT array_agg(k ORDER BY k), array_agg(n ORDER BY k) FROM (SELECT k, sum(n)::bigint AS n FROM (SELECT %1$s AS k, 1 AS n FROM new_rows UNION ALL SELECT %1$s AS k, -1 AS n FROM old_rows) u WHERE k IS NOT NULL GROUP BY k HAVING sum(n) <> 0) d', TG_ARGV[0])
      INTO keys, changes;
  END IF;
  IF keys IS NULL THEN
    RETURN NULL;
  END IF;
  INSERT INTO "row_counts" AS c ("key", "rows")
    SELECT d.k, d.n FROM unnest(keys, changes) AS d(k, n) ORDER BY d.k
    ON CONFLICT ("key") DO UPDATE SET "rows" = c."rows" + excluded."rows";
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- No write may slip between the counts below and the triggers (another instance still running).
LOCK TABLE "contact_messages", "loan_documents", "approved_loans", "loan_applications" IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
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
    GROUP BY "assigned_to", "status";
--> statement-breakpoint
CREATE TRIGGER "contact_messages_count_insert" AFTER INSERT ON "contact_messages"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "portal_count_rows"($$'contact_messages:' || status$$, 'contact_messages');
--> statement-breakpoint
CREATE TRIGGER "contact_messages_count_update" AFTER UPDATE ON "contact_messages"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "portal_count_rows"($$'contact_messages:' || status$$, 'contact_messages');
--> statement-breakpoint
CREATE TRIGGER "contact_messages_count_delete" AFTER DELETE ON "contact_messages"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "portal_count_rows"($$'contact_messages:' || status$$, 'contact_messages');
--> statement-breakpoint
CREATE TRIGGER "contact_messages_count_truncate" AFTER TRUNCATE ON "contact_messages"
  FOR EACH STATEMENT EXECUTE FUNCTION "portal_count_rows"('', 'contact_messages');
--> statement-breakpoint
CREATE TRIGGER "loan_documents_count_insert" AFTER INSERT ON "loan_documents"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "portal_count_rows"($$'loan_documents'$$, 'loan_documents');
--> statement-breakpoint
CREATE TRIGGER "loan_documents_count_delete" AFTER DELETE ON "loan_documents"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "portal_count_rows"($$'loan_documents'$$, 'loan_documents');
--> statement-breakpoint
CREATE TRIGGER "loan_documents_count_truncate" AFTER TRUNCATE ON "loan_documents"
  FOR EACH STATEMENT EXECUTE FUNCTION "portal_count_rows"('', 'loan_documents');
--> statement-breakpoint
CREATE TRIGGER "approved_loans_count_insert" AFTER INSERT ON "approved_loans"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "portal_count_rows"($$CASE WHEN status = 'paid_off' THEN 'approved_loans:paid_off' ELSE 'approved_loans:due:' || coalesce(next_due_date::text, 'none') END$$, 'approved_loans');
--> statement-breakpoint
CREATE TRIGGER "approved_loans_count_update" AFTER UPDATE ON "approved_loans"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "portal_count_rows"($$CASE WHEN status = 'paid_off' THEN 'approved_loans:paid_off' ELSE 'approved_loans:due:' || coalesce(next_due_date::text, 'none') END$$, 'approved_loans');
--> statement-breakpoint
CREATE TRIGGER "approved_loans_count_delete" AFTER DELETE ON "approved_loans"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "portal_count_rows"($$CASE WHEN status = 'paid_off' THEN 'approved_loans:paid_off' ELSE 'approved_loans:due:' || coalesce(next_due_date::text, 'none') END$$, 'approved_loans');
--> statement-breakpoint
CREATE TRIGGER "approved_loans_count_truncate" AFTER TRUNCATE ON "approved_loans"
  FOR EACH STATEMENT EXECUTE FUNCTION "portal_count_rows"('', 'approved_loans');
--> statement-breakpoint
CREATE TRIGGER "loan_applications_assigned_count_insert" AFTER INSERT ON "loan_applications"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "portal_count_rows"($$'assigned:' || assigned_to || ':' || status$$, 'assigned');
--> statement-breakpoint
CREATE TRIGGER "loan_applications_assigned_count_update" AFTER UPDATE ON "loan_applications"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "portal_count_rows"($$'assigned:' || assigned_to || ':' || status$$, 'assigned');
--> statement-breakpoint
CREATE TRIGGER "loan_applications_assigned_count_delete" AFTER DELETE ON "loan_applications"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "portal_count_rows"($$'assigned:' || assigned_to || ':' || status$$, 'assigned');
--> statement-breakpoint
CREATE TRIGGER "loan_applications_assigned_count_truncate" AFTER TRUNCATE ON "loan_applications"
  FOR EACH STATEMENT EXECUTE FUNCTION "portal_count_rows"('', 'assigned');
--> statement-breakpoint
CREATE TABLE "audit_activity_hourly" (
	"hour" timestamp with time zone NOT NULL,
	"actor_id" text NOT NULL,
	"actions" integer NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	"last_id" bigint NOT NULL,
	"actor_name" text,
	"actor_email" text,
	"tables" text[] NOT NULL,
	CONSTRAINT "audit_activity_hourly_hour_actor_id_pk" PRIMARY KEY("hour","actor_id")
);
--> statement-breakpoint
-- Entries per UTC hour and actor ('' for the system): the count, the tables named, and the latest
-- entry (its time, id, and the actor's name and e-mail as that entry copied them). Upserted in key
-- order, so two writers never deadlock; audit_log is append-only, so inserts are all there is.
CREATE OR REPLACE FUNCTION "portal_roll_up_audit"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  WITH g AS (
    SELECT date_trunc('hour', created_at, 'UTC') AS h, coalesce(actor_id, '') AS a, count(*)::integer AS n,
           coalesce(array_agg(DISTINCT table_name) FILTER (WHERE table_name IS NOT NULL), '{}') AS t
    FROM new_rows GROUP BY 1, 2
  ), l AS (
    SELECT DISTINCT ON (1, 2) date_trunc('hour', created_at, 'UTC') AS h, coalesce(actor_id, '') AS a, created_at, id, actor_name, actor_email
    FROM new_rows ORDER BY 1, 2, created_at DESC, id DESC
  )
  INSERT INTO "audit_activity_hourly" AS c ("hour", "actor_id", "actions", "last_at", "last_id", "actor_name", "actor_email", "tables")
    SELECT g.h, g.a, g.n, l.created_at, l.id, l.actor_name, l.actor_email, g.t FROM g JOIN l USING (h, a) ORDER BY 1, 2
    ON CONFLICT ("hour", "actor_id") DO UPDATE SET
      "actions" = c."actions" + excluded."actions",
      "tables" = array(SELECT DISTINCT x FROM unnest(c."tables" || excluded."tables") AS x ORDER BY 1),
      "last_at" = CASE WHEN (excluded."last_at", excluded."last_id") > (c."last_at", c."last_id") THEN excluded."last_at" ELSE c."last_at" END,
      "last_id" = CASE WHEN (excluded."last_at", excluded."last_id") > (c."last_at", c."last_id") THEN excluded."last_id" ELSE c."last_id" END,
      "actor_name" = CASE WHEN (excluded."last_at", excluded."last_id") > (c."last_at", c."last_id") THEN excluded."actor_name" ELSE c."actor_name" END,
      "actor_email" = CASE WHEN (excluded."last_at", excluded."last_id") > (c."last_at", c."last_id") THEN excluded."actor_email" ELSE c."actor_email" END;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
LOCK TABLE "audit_log" IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
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
--> statement-breakpoint
CREATE TRIGGER "audit_log_roll_up_insert" AFTER INSERT ON "audit_log"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "portal_roll_up_audit"();
