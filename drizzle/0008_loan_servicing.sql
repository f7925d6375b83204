CREATE TABLE "ach_batches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"entry_count" integer NOT NULL,
	"total_cents" bigint NOT NULL,
	"file_name" text NOT NULL,
	"content" text NOT NULL,
	CONSTRAINT "ach_batches_entry_count_check" CHECK ("ach_batches"."entry_count" > 0),
	CONSTRAINT "ach_batches_total_cents_check" CHECK ("ach_batches"."total_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "loan_fees" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"loan_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"installment_number" integer NOT NULL,
	"amount_cents" bigint NOT NULL,
	"assessed_on" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "loan_fees_loan_id_kind_installment_key" UNIQUE("loan_id","kind","installment_number"),
	CONSTRAINT "loan_fees_kind_check" CHECK ("loan_fees"."kind" in ('late_fee')),
	CONSTRAINT "loan_fees_amount_cents_check" CHECK ("loan_fees"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "loan_payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"loan_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"status" text NOT NULL,
	"method" text NOT NULL,
	"source" text NOT NULL,
	"choice" text,
	"reference" text NOT NULL,
	"received_on" date,
	"bank_account_id" uuid,
	"authorization_version" text,
	"authorized_at" timestamp with time zone,
	"authorization_ip" text,
	"authorization_user_agent" text,
	"ach_batch_id" uuid,
	"return_code" text,
	"reversal_reason" text,
	"reversed_at" timestamp with time zone,
	"reversed_by" text,
	"posted_at" timestamp with time zone,
	"posted_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "loan_payments_loan_id_reference_key" UNIQUE("loan_id","reference"),
	CONSTRAINT "loan_payments_status_check" CHECK ("loan_payments"."status" in ('pending', 'posted', 'reversed', 'returned')),
	CONSTRAINT "loan_payments_method_check" CHECK ("loan_payments"."method" in ('ach', 'wire', 'check')),
	CONSTRAINT "loan_payments_source_check" CHECK ("loan_payments"."source" in ('borrower', 'staff')),
	CONSTRAINT "loan_payments_choice_check" CHECK ("loan_payments"."choice" is null or "loan_payments"."choice" in ('installment', 'amount', 'payoff')),
	CONSTRAINT "loan_payments_amount_cents_check" CHECK ("loan_payments"."amount_cents" > 0),
	CONSTRAINT "loan_payments_reference_check" CHECK (char_length("loan_payments"."reference") between 1 and 80),
	CONSTRAINT "loan_payments_posted_has_date_check" CHECK ("loan_payments"."status" = 'pending' or "loan_payments"."status" = 'returned' or "loan_payments"."received_on" is not null),
	CONSTRAINT "loan_payments_borrower_authorized_check" CHECK ("loan_payments"."source" <> 'borrower' or ("loan_payments"."authorization_version" is not null and "loan_payments"."authorized_at" is not null)),
	CONSTRAINT "loan_payments_returned_has_code_check" CHECK ("loan_payments"."status" <> 'returned' or "loan_payments"."return_code" is not null),
	CONSTRAINT "loan_payments_return_code_check" CHECK ("loan_payments"."return_code" is null or "loan_payments"."return_code" ~ '^R[0-9]{2}$'),
	CONSTRAINT "loan_payments_reversed_has_reason_check" CHECK ("loan_payments"."status" <> 'reversed' or "loan_payments"."reversal_reason" is not null)
);
--> statement-breakpoint
CREATE TABLE "servicing_notices" (
	"loan_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"installment_number" integer NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "servicing_notices_loan_id_kind_installment_number_pk" PRIMARY KEY("loan_id","kind","installment_number"),
	CONSTRAINT "servicing_notices_kind_check" CHECK ("servicing_notices"."kind" in ('reminder', 'late_notice'))
);
--> statement-breakpoint
ALTER TABLE "approved_loans" ADD COLUMN "amount_cents" bigint;--> statement-breakpoint
ALTER TABLE "approved_loans" ADD COLUMN "note_rate_milli" integer;--> statement-breakpoint
ALTER TABLE "approved_loans" ADD COLUMN "payment_cents" bigint;--> statement-breakpoint
ALTER TABLE "approved_loans" ADD COLUMN "start_date" date;--> statement-breakpoint
ALTER TABLE "approved_loans" ADD COLUMN "next_due_date" date;--> statement-breakpoint
-- Loans made before servicing: their terms in exact units, from the signed offer when there is one
-- (the cents the borrower signed), else from the loan's own numeric(14,2) columns, which hold dollars
-- and cents exactly; interest starts on the signing day (or the approval day for the oldest loans).
UPDATE "approved_loans" AS l SET
  "amount_cents" = coalesce(o."amount_cents", round(l."approved_amount" * 100)::bigint),
  "note_rate_milli" = coalesce(o."note_rate_milli", round(l."interest_rate" * 1000)::integer),
  "payment_cents" = coalesce(o."payment_cents", round(l."monthly_payment" * 100)::bigint),
  "start_date" = coalesce((a."signed_at" at time zone 'UTC')::date, (l."approval_date" at time zone 'UTC')::date),
  "next_due_date" = CASE WHEN l."status" IN ('active', 'approved')
    THEN coalesce(l."first_payment_due", ((l."approval_date" at time zone 'UTC')::date + interval '1 month')::date) END
FROM "approved_loans" AS l2
LEFT JOIN "loan_offers" AS o ON o."id" = l2."offer_id"
LEFT JOIN "signed_agreements" AS a ON a."offer_id" = l2."offer_id"
WHERE l2."id" = l."id";--> statement-breakpoint
ALTER TABLE "approved_loans" ALTER COLUMN "amount_cents" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "approved_loans" ALTER COLUMN "note_rate_milli" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "approved_loans" ALTER COLUMN "payment_cents" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "approved_loans" ALTER COLUMN "start_date" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "approved_loans" ADD COLUMN "paid_off_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ach_batches" ADD CONSTRAINT "ach_batches_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_fees" ADD CONSTRAINT "loan_fees_loan_id_approved_loans_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."approved_loans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_payments" ADD CONSTRAINT "loan_payments_loan_id_approved_loans_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."approved_loans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_payments" ADD CONSTRAINT "loan_payments_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_payments" ADD CONSTRAINT "loan_payments_bank_account_id_bank_accounts_id_fk" FOREIGN KEY ("bank_account_id") REFERENCES "public"."bank_accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_payments" ADD CONSTRAINT "loan_payments_ach_batch_id_ach_batches_id_fk" FOREIGN KEY ("ach_batch_id") REFERENCES "public"."ach_batches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_payments" ADD CONSTRAINT "loan_payments_reversed_by_user_id_fk" FOREIGN KEY ("reversed_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_payments" ADD CONSTRAINT "loan_payments_posted_by_user_id_fk" FOREIGN KEY ("posted_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "servicing_notices" ADD CONSTRAINT "servicing_notices_loan_id_approved_loans_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."approved_loans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "loan_payments_loan_id_idx" ON "loan_payments" USING btree ("loan_id","created_at");--> statement-breakpoint
CREATE INDEX "loan_payments_pending_idx" ON "loan_payments" USING btree ("status") WHERE "loan_payments"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "approved_loans_status_next_due_date_idx" ON "approved_loans" USING btree ("status","next_due_date");