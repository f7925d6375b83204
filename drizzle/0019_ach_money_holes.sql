CREATE TABLE "ach_trace_sequences" (
	"originating_dfi" text NOT NULL,
	"day" date NOT NULL,
	"last_sequence" integer NOT NULL,
	CONSTRAINT "ach_trace_sequences_originating_dfi_day_pk" PRIMARY KEY("originating_dfi","day"),
	CONSTRAINT "ach_trace_sequences_last_sequence_check" CHECK ("ach_trace_sequences"."last_sequence" between 1 and 9999999)
);
--> statement-breakpoint
ALTER TABLE "loan_payments" DROP CONSTRAINT "loan_payments_status_check";--> statement-breakpoint
ALTER TABLE "loan_payments" DROP CONSTRAINT "loan_payments_posted_has_date_check";--> statement-breakpoint
ALTER TABLE "ach_batches" ADD COLUMN "effective_date" date;--> statement-breakpoint
-- Files made before this column: the effective date they were written with, the next weekday after the UTC day they were made.
UPDATE "ach_batches" SET "effective_date" = d.day + (CASE extract(isodow FROM d.day) WHEN 5 THEN 3 WHEN 6 THEN 2 ELSE 1 END)::int FROM (SELECT "id", ("created_at" AT TIME ZONE 'UTC')::date AS day FROM "ach_batches") AS d WHERE d."id" = "ach_batches"."id";--> statement-breakpoint
ALTER TABLE "ach_batches" ALTER COLUMN "effective_date" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "loan_payments" ADD COLUMN "returned_on" date;--> statement-breakpoint
ALTER TABLE "loan_payments" ADD COLUMN "cancel_reason" text;--> statement-breakpoint
ALTER TABLE "loan_payments" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "loan_payments" ADD COLUMN "cancelled_by" text;--> statement-breakpoint
ALTER TABLE "loan_payments" ADD COLUMN "refunded_on" date;--> statement-breakpoint
ALTER TABLE "loan_payments" ADD COLUMN "refund_reference" text;--> statement-breakpoint
ALTER TABLE "loan_payments" ADD COLUMN "refunded_by" text;--> statement-breakpoint
ALTER TABLE "loan_payments" ADD CONSTRAINT "loan_payments_cancelled_by_user_id_fk" FOREIGN KEY ("cancelled_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_payments" ADD CONSTRAINT "loan_payments_refunded_by_user_id_fk" FOREIGN KEY ("refunded_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "loan_payments_refund_due_idx" ON "loan_payments" USING btree ("loan_id") WHERE "loan_payments"."status" = 'refund_due';--> statement-breakpoint
ALTER TABLE "loan_payments" ADD CONSTRAINT "loan_payments_cancelled_has_reason_check" CHECK ("loan_payments"."status" <> 'cancelled' or ("loan_payments"."cancel_reason" is not null and "loan_payments"."cancelled_at" is not null));--> statement-breakpoint
ALTER TABLE "loan_payments" ADD CONSTRAINT "loan_payments_refunded_has_date_check" CHECK ("loan_payments"."status" <> 'refunded' or ("loan_payments"."refunded_on" is not null and "loan_payments"."refund_reference" is not null));--> statement-breakpoint
ALTER TABLE "loan_payments" ADD CONSTRAINT "loan_payments_status_check" CHECK ("loan_payments"."status" in ('pending', 'posted', 'reversed', 'returned', 'cancelled', 'refund_due', 'refunded'));--> statement-breakpoint
ALTER TABLE "loan_payments" ADD CONSTRAINT "loan_payments_posted_has_date_check" CHECK ("loan_payments"."status" in ('pending', 'returned', 'cancelled') or "loan_payments"."received_on" is not null);