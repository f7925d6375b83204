DROP INDEX "loan_applications_decision_time_idx";--> statement-breakpoint
CREATE INDEX "loan_applications_decision_days_idx" ON "loan_applications" USING btree (round((extract(epoch from ("reviewed_at" - "submitted_at"))::float8 / 86400)::numeric, 1),extract(epoch from ("reviewed_at" - "submitted_at")),"submitted_at") WHERE "loan_applications"."status" in ('approved', 'denied', 'incomplete') and "loan_applications"."reviewed_at" is not null;--> statement-breakpoint
-- Issue 24, decision 0055: the reports page's median decision time at a cost that does not grow with
-- the range's decisions. The page shows days rounded to one decimal, a function of the duration that
-- never decreases, so the median's display is known from counts per display bucket unless the two
-- middle decisions of an even count fall in two buckets (then their two exact durations are read off
-- loan_applications_decision_days_idx above).
-- report_rollups gains, for decided applications with a reviewed_at by the submission's UTC day:
--   'decision_days'   a = floor(bucket)::text, the bucket's whole days ('3', '-1');
--   'decision_days:W' a = bucket::text ('3.4') for the buckets of whole day W,
-- bucket = round((extract(epoch from (reviewed_at - submitted_at))::float8 / 86400)::numeric, 1), the
-- expression the page always rounded percentile_cont's result with (decisionDaysOf in schema.server.ts).
-- The two functions of 0014 are replaced with the same metrics plus these two (0014 stays as it landed).
-- DROP INDEX above already holds an ACCESS EXCLUSIVE lock on loan_applications until commit; said
-- again, so no write can slip between the backfill below and the new trigger function.
LOCK TABLE "loan_applications" IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
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
      UNION ALL
      SELECT v.metric, (submitted_at AT TIME ZONE 'UTC')::date, v.a, '', sign
        FROM s, LATERAL (SELECT round((extract(epoch FROM (reviewed_at - submitted_at))::float8 / 86400)::numeric, 1) AS days) d,
             LATERAL (VALUES ('decision_days', floor(d.days)::text), ('decision_days:' || floor(d.days)::text, d.days::text)) AS v(metric, a)
        WHERE status IN ('approved', 'denied', 'incomplete') AND reviewed_at IS NOT NULL
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
      UNION ALL
      SELECT v.metric, (submitted_at AT TIME ZONE 'UTC')::date, v.a, ''
        FROM "loan_applications", LATERAL (SELECT round((extract(epoch FROM (reviewed_at - submitted_at))::float8 / 86400)::numeric, 1) AS days) d,
             LATERAL (VALUES ('decision_days', floor(d.days)::text), ('decision_days:' || floor(d.days)::text, d.days::text)) AS v(metric, a)
        WHERE status IN ('approved', 'denied', 'incomplete') AND reviewed_at IS NOT NULL
    )
    SELECT k.metric, g.grain, CASE WHEN g.grain = 'day' THEN k.day ELSE k.day - (extract(day FROM k.day)::int - 1) END, k.a, k.b, count(*)
    FROM k CROSS JOIN (VALUES ('day'), ('month')) AS g(grain)
    GROUP BY 1, 2, 3, 4, 5;
END;
$$;
--> statement-breakpoint
-- Backfill of the two new metrics only (the others are kept already): what the rebuild above inserts
-- for them. No application row is written, so no live-update event or count moves.
DELETE FROM "report_rollups" WHERE "metric" = 'decision_days' OR "metric" LIKE 'decision\_days:%';
--> statement-breakpoint
INSERT INTO "report_rollups" ("metric", "grain", "period", "a", "b", "n")
  WITH k AS (
    SELECT v.metric, (submitted_at AT TIME ZONE 'UTC')::date AS day, v.a
      FROM "loan_applications", LATERAL (SELECT round((extract(epoch FROM (reviewed_at - submitted_at))::float8 / 86400)::numeric, 1) AS days) d,
           LATERAL (VALUES ('decision_days', floor(d.days)::text), ('decision_days:' || floor(d.days)::text, d.days::text)) AS v(metric, a)
      WHERE status IN ('approved', 'denied', 'incomplete') AND reviewed_at IS NOT NULL
  )
  SELECT k.metric, g.grain, CASE WHEN g.grain = 'day' THEN k.day ELSE k.day - (extract(day FROM k.day)::int - 1) END, k.a, '', count(*)
  FROM k CROSS JOIN (VALUES ('day'), ('month')) AS g(grain)
  GROUP BY 1, 2, 3, 4;
