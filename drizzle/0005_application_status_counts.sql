-- Applications per status for the admin list's tabs, kept in the same transaction as every change to
-- loan_applications, so a view reads four rows instead of counting the whole status index (which
-- grows with the table). Statement-level triggers with transition tables: a bulk insert or delete
-- is one update of the counts, and the counts' rows are always locked in status order, so two
-- writers never deadlock on them. TRUNCATE resets the counts.
CREATE TABLE "application_status_counts" (
	"status" text PRIMARY KEY NOT NULL,
	"applications" integer NOT NULL
);
--> statement-breakpoint
-- No write may slip between the count below and the triggers (another instance still running).
LOCK TABLE "loan_applications" IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
INSERT INTO "application_status_counts" ("status", "applications")
  SELECT s.status, count(a.id)::integer
  FROM (VALUES ('pending'), ('under_review'), ('approved'), ('denied')) AS s(status)
  LEFT JOIN "loan_applications" a ON a.status = s.status
  GROUP BY s.status;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "portal_count_application_status"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  statuses text[];
  changes integer[];
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE "application_status_counts" SET "applications" = 0;
    RETURN NULL;
  ELSIF TG_OP = 'INSERT' THEN
    SELECT array_agg(d.status ORDER BY d.status), array_agg(d.n ORDER BY d.status) INTO statuses, changes
    FROM (SELECT status, count(*)::integer AS n FROM new_rows GROUP BY status) d;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(d.status ORDER BY d.status), array_agg(d.n ORDER BY d.status) INTO statuses, changes
    FROM (SELECT status, -count(*)::integer AS n FROM old_rows GROUP BY status) d;
  ELSE
    SELECT array_agg(d.status ORDER BY d.status), array_agg(d.n ORDER BY d.status) INTO statuses, changes
    FROM (
      SELECT u.status, sum(u.n)::integer AS n
      FROM (SELECT status, 1 AS n FROM new_rows UNION ALL SELECT status, -1 AS n FROM old_rows) u
      GROUP BY u.status
      HAVING sum(u.n) <> 0
    ) d;
  END IF;
  IF statuses IS NULL THEN
    RETURN NULL;
  END IF;
  INSERT INTO "application_status_counts" AS c ("status", "applications")
    SELECT d.status, d.n FROM unnest(statuses, changes) AS d(status, n) ORDER BY d.status
    ON CONFLICT ("status") DO UPDATE SET "applications" = c."applications" + excluded."applications";
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "loan_applications_count_insert" AFTER INSERT ON "loan_applications"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "portal_count_application_status"();
--> statement-breakpoint
CREATE TRIGGER "loan_applications_count_update" AFTER UPDATE ON "loan_applications"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "portal_count_application_status"();
--> statement-breakpoint
CREATE TRIGGER "loan_applications_count_delete" AFTER DELETE ON "loan_applications"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "portal_count_application_status"();
--> statement-breakpoint
CREATE TRIGGER "loan_applications_count_truncate" AFTER TRUNCATE ON "loan_applications"
  FOR EACH STATEMENT EXECUTE FUNCTION "portal_count_application_status"();
