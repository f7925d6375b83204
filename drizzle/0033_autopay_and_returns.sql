CREATE TABLE "ach_return_imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"file_name" text NOT NULL,
	"sha256" text NOT NULL,
	"entry_count" integer NOT NULL,
	"imported_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ach_return_imports_sha256_key" UNIQUE("sha256"),
	CONSTRAINT "ach_return_imports_entry_count_check" CHECK ("ach_return_imports"."entry_count" > 0)
);
--> statement-breakpoint
CREATE TABLE "autopay_authorizations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"loan_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"bank_account_id" uuid NOT NULL,
	"amount_kind" text NOT NULL,
	"fixed_amount_cents" bigint,
	"days_before_due" integer NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"text_version" text NOT NULL,
	"authorized_at" timestamp with time zone DEFAULT now() NOT NULL,
	"authorization_ip" text,
	"authorization_user_agent" text,
	"next_queue_on" date,
	"ended_at" timestamp with time zone,
	"ended_by" text,
	"end_reason" text,
	"stop_return_code" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "autopay_authorizations_amount_kind_check" CHECK ("autopay_authorizations"."amount_kind" in ('installment', 'fixed')),
	CONSTRAINT "autopay_authorizations_status_check" CHECK ("autopay_authorizations"."status" in ('active', 'replaced', 'cancelled', 'stopped')),
	CONSTRAINT "autopay_authorizations_fixed_amount_check" CHECK (("autopay_authorizations"."amount_kind" = 'fixed') = ("autopay_authorizations"."fixed_amount_cents" is not null) and ("autopay_authorizations"."fixed_amount_cents" is null or "autopay_authorizations"."fixed_amount_cents" > 0)),
	CONSTRAINT "autopay_authorizations_days_before_due_check" CHECK ("autopay_authorizations"."days_before_due" between 0 and 5),
	CONSTRAINT "autopay_authorizations_ended_check" CHECK (("autopay_authorizations"."status" = 'active') = ("autopay_authorizations"."ended_at" is null)),
	CONSTRAINT "autopay_authorizations_stop_return_code_check" CHECK ("autopay_authorizations"."stop_return_code" is null or "autopay_authorizations"."stop_return_code" ~ '^R[0-9]{2}$')
);
--> statement-breakpoint
CREATE TABLE "bank_account_restrictions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"bank_account_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"return_code" text NOT NULL,
	"payment_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"cleared_at" timestamp with time zone,
	"cleared_by" text,
	"clear_reason" text,
	CONSTRAINT "bank_account_restrictions_kind_check" CHECK ("bank_account_restrictions"."kind" in ('unusable', 'blocked')),
	CONSTRAINT "bank_account_restrictions_return_code_check" CHECK ("bank_account_restrictions"."return_code" ~ '^R[0-9]{2}$')
);
--> statement-breakpoint
CREATE TABLE "loan_flags" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"loan_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"payment_id" uuid,
	"return_code" text,
	"summary" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_by" text,
	"resolution" text,
	CONSTRAINT "loan_flags_kind_check" CHECK ("loan_flags"."kind" in ('unauthorized_return')),
	CONSTRAINT "loan_flags_resolved_check" CHECK (("loan_flags"."resolved_at" is null) = ("loan_flags"."resolution" is null))
);
--> statement-breakpoint
ALTER TABLE "application_events" DROP CONSTRAINT "application_events_kind_check";--> statement-breakpoint
ALTER TABLE "loan_fees" DROP CONSTRAINT "loan_fees_kind_check";--> statement-breakpoint
ALTER TABLE "servicing_notices" DROP CONSTRAINT "servicing_notices_kind_check";--> statement-breakpoint
ALTER TABLE "ach_batches" ADD COLUMN "originator_id" text;--> statement-breakpoint
ALTER TABLE "bank_account_validations" ADD COLUMN "ach_trace_number" text;--> statement-breakpoint
ALTER TABLE "loan_fundings" ADD COLUMN "ach_trace_number" text;--> statement-breakpoint
ALTER TABLE "loan_payments" ADD COLUMN "autopay_authorization_id" uuid;--> statement-breakpoint
ALTER TABLE "loan_payments" ADD COLUMN "installment_number" integer;--> statement-breakpoint
ALTER TABLE "loan_payments" ADD COLUMN "scheduled_on" date;--> statement-breakpoint
ALTER TABLE "loan_payments" ADD COLUMN "payment_type" text;--> statement-breakpoint
ALTER TABLE "loan_payments" ADD COLUMN "retry_of" uuid;--> statement-breakpoint
ALTER TABLE "loan_payments" ADD COLUMN "retry_number" integer;--> statement-breakpoint
ALTER TABLE "loan_payments" ADD COLUMN "ach_trace_number" text;--> statement-breakpoint
ALTER TABLE "ach_return_imports" ADD CONSTRAINT "ach_return_imports_imported_by_user_id_fk" FOREIGN KEY ("imported_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "autopay_authorizations" ADD CONSTRAINT "autopay_authorizations_loan_id_approved_loans_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."approved_loans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "autopay_authorizations" ADD CONSTRAINT "autopay_authorizations_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "autopay_authorizations" ADD CONSTRAINT "autopay_authorizations_bank_account_id_bank_accounts_id_fk" FOREIGN KEY ("bank_account_id") REFERENCES "public"."bank_accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "autopay_authorizations" ADD CONSTRAINT "autopay_authorizations_ended_by_user_id_fk" FOREIGN KEY ("ended_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_account_restrictions" ADD CONSTRAINT "bank_account_restrictions_bank_account_id_bank_accounts_id_fk" FOREIGN KEY ("bank_account_id") REFERENCES "public"."bank_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_account_restrictions" ADD CONSTRAINT "bank_account_restrictions_payment_id_loan_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."loan_payments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_account_restrictions" ADD CONSTRAINT "bank_account_restrictions_cleared_by_user_id_fk" FOREIGN KEY ("cleared_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_flags" ADD CONSTRAINT "loan_flags_loan_id_approved_loans_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."approved_loans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_flags" ADD CONSTRAINT "loan_flags_payment_id_loan_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."loan_payments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_flags" ADD CONSTRAINT "loan_flags_resolved_by_user_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "autopay_authorizations_one_active_idx" ON "autopay_authorizations" USING btree ("loan_id") WHERE "autopay_authorizations"."status" = 'active';--> statement-breakpoint
CREATE INDEX "autopay_authorizations_queue_idx" ON "autopay_authorizations" USING btree ("next_queue_on","id") WHERE "autopay_authorizations"."status" = 'active';--> statement-breakpoint
CREATE INDEX "autopay_authorizations_loan_id_idx" ON "autopay_authorizations" USING btree ("loan_id","created_at");--> statement-breakpoint
CREATE INDEX "autopay_authorizations_user_id_idx" ON "autopay_authorizations" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "autopay_authorizations_bank_account_id_idx" ON "autopay_authorizations" USING btree ("bank_account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "bank_account_restrictions_one_live_idx" ON "bank_account_restrictions" USING btree ("bank_account_id") WHERE "bank_account_restrictions"."cleared_at" is null;--> statement-breakpoint
CREATE INDEX "loan_flags_open_idx" ON "loan_flags" USING btree ("created_at") WHERE "loan_flags"."resolved_at" is null;--> statement-breakpoint
CREATE INDEX "loan_flags_loan_id_idx" ON "loan_flags" USING btree ("loan_id","created_at");--> statement-breakpoint
ALTER TABLE "loan_payments" ADD CONSTRAINT "loan_payments_autopay_authorization_id_autopay_authorizations_id_fk" FOREIGN KEY ("autopay_authorization_id") REFERENCES "public"."autopay_authorizations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_payments" ADD CONSTRAINT "loan_payments_retry_of_loan_payments_id_fk" FOREIGN KEY ("retry_of") REFERENCES "public"."loan_payments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "loan_payments_one_autopay_per_installment_idx" ON "loan_payments" USING btree ("loan_id","installment_number") WHERE "loan_payments"."installment_number" is not null and "loan_payments"."retry_of" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "loan_payments_one_retry_idx" ON "loan_payments" USING btree ("retry_of","retry_number") WHERE "loan_payments"."retry_of" is not null;--> statement-breakpoint
CREATE INDEX "loan_payments_ach_trace_number_idx" ON "loan_payments" USING btree ("ach_trace_number") WHERE "loan_payments"."ach_trace_number" is not null;--> statement-breakpoint
ALTER TABLE "application_events" ADD CONSTRAINT "application_events_kind_check" CHECK ("application_events"."kind" in ('submitted', 'review_started', 'documents_requested', 'document_received', 'reply_received', 'document_accepted', 'document_rejected', 'message', 'note', 'approved', 'denied', 'closed_incomplete', 'withdrawn', 'offer_made', 'offer_withdrawn', 'offer_declined', 'offer_expired', 'esign_consented', 'esign_withdrawn', 'agreement_signed', 'loan_funded', 'funds_returned', 'loan_cancelled', 'autopay_on', 'autopay_changed', 'autopay_off', 'payment_returned', 'payment_retry', 'approval_proposed', 'approval_sent_back', 'assigned'));--> statement-breakpoint
ALTER TABLE "loan_fees" ADD CONSTRAINT "loan_fees_kind_check" CHECK ("loan_fees"."kind" in ('late_fee', 'returned_payment_fee'));--> statement-breakpoint
ALTER TABLE "loan_payments" ADD CONSTRAINT "loan_payments_payment_type_check" CHECK ("loan_payments"."payment_type" is null or "loan_payments"."payment_type" in ('S', 'R'));--> statement-breakpoint
ALTER TABLE "loan_payments" ADD CONSTRAINT "loan_payments_retry_number_check" CHECK (("loan_payments"."retry_of" is null) = ("loan_payments"."retry_number" is null) and ("loan_payments"."retry_number" is null or "loan_payments"."retry_number" between 1 and 2));--> statement-breakpoint
ALTER TABLE "loan_payments" ADD CONSTRAINT "loan_payments_ach_trace_number_check" CHECK ("loan_payments"."ach_trace_number" is null or "loan_payments"."ach_trace_number" ~ '^[0-9]{15}$');--> statement-breakpoint
ALTER TABLE "servicing_notices" ADD CONSTRAINT "servicing_notices_kind_check" CHECK ("servicing_notices"."kind" in ('reminder', 'late_notice', 'autopay_amount'));