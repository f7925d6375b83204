-- The admin list orders by (submitted_at desc, id desc) within a status: with id in the index a page
-- is read straight off it (no sort of the whole status), and the page's ids come from an index-only
-- scan before any row is fetched or joined (app/server/admin/applications.server.ts).
DROP INDEX "loan_applications_status_submitted_at_idx";--> statement-breakpoint
CREATE INDEX "loan_applications_status_submitted_at_id_idx" ON "loan_applications" USING btree ("status","submitted_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);