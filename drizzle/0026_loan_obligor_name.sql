-- The obligor as the note names them, fixed at signing. Loans signed before this column existed take
-- the name their agreement printed: the application's first name, middle initial and last name.
ALTER TABLE "approved_loans" ADD COLUMN "obligor_name" text;--> statement-breakpoint
UPDATE "approved_loans" l SET "obligor_name" = concat_ws(' ', a."first_name", CASE WHEN coalesce(a."middle_initial", '') <> '' THEN a."middle_initial" || '.' END, a."last_name") FROM "loan_applications" a WHERE a."id" = l."application_id";--> statement-breakpoint
ALTER TABLE "approved_loans" ALTER COLUMN "obligor_name" SET NOT NULL;
