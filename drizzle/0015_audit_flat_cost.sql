-- Issue 24, decision 0051: the audit log page and the audit export at a cost that does not grow with
-- the log.
--
-- 1. (created_at, id) replaces (created_at): the log's exact order. With created_at alone, the latest 50
--    entries of a range were the first created_at group sorted by id, and one transaction's rows all
--    share now(): a bulk write (or a restore) of thousands of rows at one instant made every page
--    view read and sort all of them.
DROP INDEX IF EXISTS "audit_log_created_at_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "audit_log_created_at_id_idx" ON "audit_log" USING btree ("created_at","id");--> statement-breakpoint
-- 2. The hour's smallest and largest id in each hourly rollup row: the export of a date range (whole
--    UTC days, so whole hours) streams in id order between the range's smallest and largest id, read
--    from the range's hours, instead of walking the primary key from the oldest entry.
ALTER TABLE "audit_activity_hourly" ADD COLUMN "min_id" bigint;--> statement-breakpoint
ALTER TABLE "audit_activity_hourly" ADD COLUMN "max_id" bigint;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "portal_roll_up_audit"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  WITH g AS (
    SELECT date_trunc('hour', created_at, 'UTC') AS h, coalesce(actor_id, '') AS a, count(*)::integer AS n,
           coalesce(array_agg(DISTINCT table_name) FILTER (WHERE table_name IS NOT NULL), '{}') AS t,
           min(id) AS lo, max(id) AS hi
    FROM new_rows GROUP BY 1, 2
  ), l AS (
    SELECT DISTINCT ON (1, 2) date_trunc('hour', created_at, 'UTC') AS h, coalesce(actor_id, '') AS a, created_at, id, actor_name, actor_email
    FROM new_rows ORDER BY 1, 2, created_at DESC, id DESC
  )
  INSERT INTO "audit_activity_hourly" AS c ("hour", "actor_id", "actions", "last_at", "last_id", "actor_name", "actor_email", "tables", "min_id", "max_id")
    SELECT g.h, g.a, g.n, l.created_at, l.id, l.actor_name, l.actor_email, g.t, g.lo, g.hi FROM g JOIN l USING (h, a) ORDER BY 1, 2
    ON CONFLICT ("hour", "actor_id") DO UPDATE SET
      "actions" = c."actions" + excluded."actions",
      "tables" = array(SELECT DISTINCT x FROM unnest(c."tables" || excluded."tables") AS x ORDER BY 1),
      "min_id" = least(c."min_id", excluded."min_id"),
      "max_id" = greatest(c."max_id", excluded."max_id"),
      "last_at" = CASE WHEN (excluded."last_at", excluded."last_id") > (c."last_at", c."last_id") THEN excluded."last_at" ELSE c."last_at" END,
      "last_id" = CASE WHEN (excluded."last_at", excluded."last_id") > (c."last_at", c."last_id") THEN excluded."last_id" ELSE c."last_id" END,
      "actor_name" = CASE WHEN (excluded."last_at", excluded."last_id") > (c."last_at", c."last_id") THEN excluded."actor_name" ELSE c."actor_name" END,
      "actor_email" = CASE WHEN (excluded."last_at", excluded."last_id") > (c."last_at", c."last_id") THEN excluded."actor_email" ELSE c."actor_email" END;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- Rebuilt whole under the lock writers take (append-only: no entry can arrive between the read and
-- the new trigger): the rollups are derived data, and a rebuild also repairs hours a bulk load with
-- triggers off left out.
LOCK TABLE "audit_log" IN SHARE ROW EXCLUSIVE MODE;--> statement-breakpoint
-- The rebuild function of drizzle/0013 (also run after the bench's trigger-less bulk load) learns the
-- two new columns.
CREATE OR REPLACE FUNCTION "portal_rebuild_audit_rollups"() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "audit_activity_hourly";
  INSERT INTO "audit_activity_hourly" ("hour", "actor_id", "actions", "last_at", "last_id", "actor_name", "actor_email", "tables", "min_id", "max_id")
    SELECT g.h, g.a, g.n, l.created_at, l.id, l.actor_name, l.actor_email, g.t, g.lo, g.hi
    FROM (
      SELECT date_trunc('hour', created_at, 'UTC') AS h, coalesce(actor_id, '') AS a, count(*)::integer AS n,
             coalesce(array_agg(DISTINCT table_name) FILTER (WHERE table_name IS NOT NULL), '{}') AS t, min(id) AS lo, max(id) AS hi
      FROM "audit_log" GROUP BY 1, 2
    ) g
    JOIN (
      SELECT DISTINCT ON (1, 2) date_trunc('hour', created_at, 'UTC') AS h, coalesce(actor_id, '') AS a, created_at, id, actor_name, actor_email
      FROM "audit_log" ORDER BY 1, 2, created_at DESC, id DESC
    ) l USING (h, a);
END;
$$;
--> statement-breakpoint
SELECT "portal_rebuild_audit_rollups"();--> statement-breakpoint
ALTER TABLE "audit_activity_hourly" ALTER COLUMN "min_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_activity_hourly" ALTER COLUMN "max_id" SET NOT NULL;
