ALTER TABLE "loan_applications" ADD COLUMN "denial_source" jsonb;--> statement-breakpoint
ALTER TABLE "request_items" ADD COLUMN "file_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "request_items" ADD CONSTRAINT "request_items_file_count_check" CHECK ("request_items"."file_count" between 0 and 5);--> statement-breakpoint
-- hand-written: until now an answer was exactly one file, so an item in review or accepted that has a
-- file holds one in its current answer; requested and rejected items hold none.
UPDATE "request_items" SET "file_count" = 1
WHERE "status" IN ('received', 'accepted')
  AND EXISTS (SELECT 1 FROM "loan_documents" d WHERE d."request_item_id" = "request_items"."id");
