CREATE TABLE "report_rollups" (
	"metric" text NOT NULL,
	"grain" text NOT NULL,
	"period" date NOT NULL,
	"a" text DEFAULT '' NOT NULL,
	"b" text DEFAULT '' NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "report_rollups_metric_grain_period_a_b_pk" PRIMARY KEY("metric","grain","period","a","b")
);
--> statement-breakpoint
ALTER TABLE "loan_applications" ADD COLUMN "complete_since" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "loan_applications_reg_b_idx" ON "loan_applications" USING btree ("complete_since","id") WHERE "loan_applications"."status" in ('pending', 'under_review') and "loan_applications"."complete_since" is not null;--> statement-breakpoint
CREATE INDEX "loan_applications_decision_time_idx" ON "loan_applications" USING btree ("submitted_at","reviewed_at") WHERE "loan_applications"."status" in ('approved', 'denied', 'incomplete') and "loan_applications"."reviewed_at" is not null;--> statement-breakpoint
-- Issue 24, decision 0049: the reports page at a cost that does not grow with the applications.
-- 1. loan_applications.complete_since, the Reg B clock's "complete since" kept by triggers. The rule is
--    the one in app/server/reports/reg-b-clock.server.ts (completeSinceRule; a test compares the two):
--    null while a request item is 'requested' or 'rejected', else the later of the submission and the
--    last answer received.
CREATE OR REPLACE FUNCTION "portal_complete_since"(app uuid, submitted timestamptz) RETURNS timestamptz
LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN EXISTS (SELECT 1 FROM "request_items" ri WHERE ri.application_id = app AND ri.status IN ('requested', 'rejected'))
    THEN NULL ELSE greatest(submitted, (SELECT max(ri.answered_at) FROM "request_items" ri WHERE ri.application_id = app)) END
$$;
--> statement-breakpoint
-- Whatever a statement writes into complete_since (or a new submitted_at), the rule's value is kept.
CREATE OR REPLACE FUNCTION "portal_set_complete_since"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    -- A new application has no request items yet (their foreign key needs it first): complete since
    -- its submission, with no lookup per row of a bulk insert.
    NEW.complete_since := NEW.submitted_at;
  ELSE
    NEW.complete_since := "portal_complete_since"(NEW.id, NEW.submitted_at);
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
-- A change to request items recomputes their applications, writing only those whose value moves.
CREATE OR REPLACE FUNCTION "portal_request_items_complete_since"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE "loan_applications" SET "complete_since" = "submitted_at" WHERE "complete_since" IS DISTINCT FROM "submitted_at";
    RETURN NULL;
  END IF;
  EXECUTE format(
    'UPDATE "loan_applications" a SET "complete_since" = "portal_complete_since"(a.id, a.submitted_at)
       FROM (SELECT DISTINCT application_id FROM (%s) u) c
      WHERE a.id = c.application_id AND a.complete_since IS DISTINCT FROM "portal_complete_since"(a.id, a.submitted_at)',
    CASE TG_OP
      WHEN 'INSERT' THEN 'SELECT application_id FROM new_rows'
      WHEN 'DELETE' THEN 'SELECT application_id FROM old_rows'
      ELSE 'SELECT application_id FROM new_rows UNION ALL SELECT application_id FROM old_rows' END);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- 2. report_rollups: the page's range aggregates per UTC day and per month (keys: schema.server.ts).
-- Keys are upserted in key order, so two writers never deadlock on them; a statement that moves no
-- application between keys (notes, assignment) writes nothing. The backfill below uses the same keys.
CREATE OR REPLACE FUNCTION "portal_roll_up_reports"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM "report_rollups";
    RETURN NULL;
  END IF;
  EXECUTE format($q$
    WITH s AS (%s),
    k AS (
      SELECT 'status' AS metric, (submitted_at AT TIME ZONE 'UTC')::date AS day, status AS a, '' AS b, sign FROM s
      UNION ALL
      SELECT 'decided', (submitted_at AT TIME ZONE 'UTC')::date, loan_type, status, sign FROM s WHERE status IN ('approved', 'denied', 'incomplete')
      UNION ALL
      SELECT 'officer', (submitted_at AT TIME ZONE 'UTC')::date, coalesce(reviewed_by, ''), status, sign FROM s WHERE status IN ('approved', 'denied', 'incomplete')
      UNION ALL
      SELECT 'reason', (submitted_at AT TIME ZONE 'UTC')::date, reason, '', sign FROM s, unnest(decision_reasons) AS reason WHERE status = 'denied'
      UNION ALL
      SELECT 'reg_b', (complete_since AT TIME ZONE 'UTC')::date, '', '', sign FROM s WHERE status IN ('pending', 'under_review') AND complete_since IS NOT NULL
    )
    INSERT INTO "report_rollups" AS r ("metric", "grain", "period", "a", "b", "n")
      SELECT k.metric, g.grain, CASE WHEN g.grain = 'day' THEN k.day ELSE k.day - (extract(day FROM k.day)::int - 1) END, k.a, k.b, sum(k.sign)
      FROM k CROSS JOIN (VALUES ('day'), ('month')) AS g(grain)
      GROUP BY 1, 2, 3, 4, 5 HAVING sum(k.sign) <> 0
      ORDER BY 1, 2, 3, 4, 5
      ON CONFLICT ("metric", "grain", "period", "a", "b") DO UPDATE SET "n" = r."n" + excluded."n"
    $q$,
    CASE TG_OP
      WHEN 'INSERT' THEN 'SELECT *, 1 AS sign FROM new_rows'
      WHEN 'DELETE' THEN 'SELECT *, -1 AS sign FROM old_rows'
      ELSE 'SELECT *, 1 AS sign FROM new_rows UNION ALL SELECT *, -1 AS sign FROM old_rows' END);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- Rebuilds what the triggers below keep, from the tables: complete_since by its rule (set-based, the
-- same as portal_complete_since) and report_rollups. For this migration's backfill and for a bulk
-- load that ran with the triggers off (bench/seed-grow.ts); the caller locks the tables.
CREATE OR REPLACE FUNCTION "portal_rebuild_reports"() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "loan_applications" a SET "complete_since" = CASE WHEN r.outstanding THEN NULL ELSE greatest(a.submitted_at, r.last_answer) END
    FROM (SELECT application_id, bool_or(status IN ('requested', 'rejected')) AS outstanding, max(answered_at) AS last_answer FROM "request_items" GROUP BY 1) r
    WHERE a.id = r.application_id
    AND a.complete_since IS DISTINCT FROM (CASE WHEN r.outstanding THEN NULL ELSE greatest(a.submitted_at, r.last_answer) END);
  UPDATE "loan_applications" a SET "complete_since" = a.submitted_at
    WHERE a.complete_since IS DISTINCT FROM a.submitted_at
    AND NOT EXISTS (SELECT 1 FROM "request_items" ri WHERE ri.application_id = a.id);
  DELETE FROM "report_rollups";
  INSERT INTO "report_rollups" ("metric", "grain", "period", "a", "b", "n")
    WITH k AS (
      SELECT 'status' AS metric, (submitted_at AT TIME ZONE 'UTC')::date AS day, status AS a, '' AS b FROM "loan_applications"
      UNION ALL
      SELECT 'decided', (submitted_at AT TIME ZONE 'UTC')::date, loan_type, status FROM "loan_applications" WHERE status IN ('approved', 'denied', 'incomplete')
      UNION ALL
      SELECT 'officer', (submitted_at AT TIME ZONE 'UTC')::date, coalesce(reviewed_by, ''), status FROM "loan_applications" WHERE status IN ('approved', 'denied', 'incomplete')
      UNION ALL
      SELECT 'reason', (submitted_at AT TIME ZONE 'UTC')::date, reason, '' FROM "loan_applications", unnest(decision_reasons) AS reason WHERE status = 'denied'
      UNION ALL
      SELECT 'reg_b', (complete_since AT TIME ZONE 'UTC')::date, '', '' FROM "loan_applications" WHERE status IN ('pending', 'under_review') AND complete_since IS NOT NULL
    )
    SELECT k.metric, g.grain, CASE WHEN g.grain = 'day' THEN k.day ELSE k.day - (extract(day FROM k.day)::int - 1) END, k.a, k.b, count(*)
    FROM k CROSS JOIN (VALUES ('day'), ('month')) AS g(grain)
    GROUP BY 1, 2, 3, 4, 5;
END;
$$;
--> statement-breakpoint
-- No write may slip between the backfill and the triggers (another instance still running).
LOCK TABLE "loan_applications", "request_items" IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
-- The backfill is no change anyone watches: no live-update event per application, and no My Queue
-- count to move (the column is new).
ALTER TABLE "loan_applications" DISABLE TRIGGER "loan_applications_notify", DISABLE TRIGGER "loan_applications_assigned_count_update";
--> statement-breakpoint
SELECT "portal_rebuild_reports"();
--> statement-breakpoint
ALTER TABLE "loan_applications" ENABLE TRIGGER "loan_applications_notify", ENABLE TRIGGER "loan_applications_assigned_count_update";
--> statement-breakpoint
CREATE TRIGGER "loan_applications_complete_since" BEFORE INSERT OR UPDATE OF "submitted_at", "complete_since" ON "loan_applications"
  FOR EACH ROW EXECUTE FUNCTION "portal_set_complete_since"();
--> statement-breakpoint
CREATE TRIGGER "request_items_complete_since_insert" AFTER INSERT ON "request_items"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "portal_request_items_complete_since"();
--> statement-breakpoint
CREATE TRIGGER "request_items_complete_since_update" AFTER UPDATE ON "request_items"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "portal_request_items_complete_since"();
--> statement-breakpoint
CREATE TRIGGER "request_items_complete_since_delete" AFTER DELETE ON "request_items"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "portal_request_items_complete_since"();
--> statement-breakpoint
CREATE TRIGGER "request_items_complete_since_truncate" AFTER TRUNCATE ON "request_items"
  FOR EACH STATEMENT EXECUTE FUNCTION "portal_request_items_complete_since"();
--> statement-breakpoint
CREATE TRIGGER "loan_applications_reports_insert" AFTER INSERT ON "loan_applications"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "portal_roll_up_reports"();
--> statement-breakpoint
CREATE TRIGGER "loan_applications_reports_update" AFTER UPDATE ON "loan_applications"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "portal_roll_up_reports"();
--> statement-breakpoint
CREATE TRIGGER "loan_applications_reports_delete" AFTER DELETE ON "loan_applications"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "portal_roll_up_reports"();
--> statement-breakpoint
CREATE TRIGGER "loan_applications_reports_truncate" AFTER TRUNCATE ON "loan_applications"
  FOR EACH STATEMENT EXECUTE FUNCTION "portal_roll_up_reports"();
