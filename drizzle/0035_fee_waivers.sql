ALTER TABLE "loan_fees" ADD COLUMN "waived_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "loan_fees" ADD COLUMN "waived_reason" text;--> statement-breakpoint
ALTER TABLE "loan_fees" ADD CONSTRAINT "loan_fees_waived_check" CHECK (("loan_fees"."waived_at" is null) = ("loan_fees"."waived_reason" is null));