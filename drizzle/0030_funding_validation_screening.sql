CREATE TABLE "bank_account_validations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"bank_account_id" uuid NOT NULL,
	"method" text NOT NULL,
	"status" text NOT NULL,
	"sec_code" text,
	"direction" text,
	"ach_batch_id" uuid,
	"effective_date" date,
	"validated_at" timestamp with time zone,
	"return_code" text,
	"returned_on" date,
	"reference" text,
	"recorded_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bank_account_validations_method_check" CHECK ("bank_account_validations"."method" in ('prenote', 'prior_payment', 'account_verification_service', 'bank_letter')),
	CONSTRAINT "bank_account_validations_status_check" CHECK ("bank_account_validations"."status" in ('pending', 'sent', 'validated', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "loan_fundings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"loan_id" uuid NOT NULL,
	"bank_account_id" uuid NOT NULL,
	"amount_cents" bigint NOT NULL,
	"sec_code" text NOT NULL,
	"status" text NOT NULL,
	"checklist" jsonb NOT NULL,
	"prepared_by" text,
	"prepared_at" timestamp with time zone DEFAULT now() NOT NULL,
	"released_by" text,
	"released_at" timestamp with time zone,
	"ach_batch_id" uuid,
	"settled_on" date,
	"returned_on" date,
	"return_code" text,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "loan_fundings_status_check" CHECK ("loan_fundings"."status" in ('prepared', 'released', 'sent', 'settled', 'returned', 'cancelled')),
	CONSTRAINT "loan_fundings_sec_code_check" CHECK ("loan_fundings"."sec_code" in ('PPD', 'CCD')),
	CONSTRAINT "loan_fundings_amount_cents_check" CHECK ("loan_fundings"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "sanctions_matches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"screening_id" uuid NOT NULL,
	"entry_fingerprint" text NOT NULL,
	"match" jsonb NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sanctions_matches_application_id_fingerprint_key" UNIQUE("application_id","entry_fingerprint"),
	CONSTRAINT "sanctions_matches_status_check" CHECK ("sanctions_matches"."status" in ('open', 'cleared', 'confirmed'))
);
--> statement-breakpoint
CREATE TABLE "sanctions_screenings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"trigger" text NOT NULL,
	"screened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lists" jsonb NOT NULL,
	"threshold" numeric(4, 3) NOT NULL,
	"match_count" integer NOT NULL,
	CONSTRAINT "sanctions_screenings_trigger_check" CHECK ("sanctions_screenings"."trigger" in ('submission', 'funding', 'list_load')),
	CONSTRAINT "sanctions_screenings_match_count_check" CHECK ("sanctions_screenings"."match_count" >= 0)
);
--> statement-breakpoint
ALTER TABLE "ach_batches" DROP CONSTRAINT "ach_batches_total_cents_check";--> statement-breakpoint
ALTER TABLE "approved_loans" DROP CONSTRAINT "approved_loans_status_check";--> statement-breakpoint
ALTER TABLE "ach_batches" ADD COLUMN "credit_total_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "approved_loans" ADD COLUMN "expected_funding_date" date;--> statement-breakpoint
ALTER TABLE "approved_loans" ADD COLUMN "funded_on" date;--> statement-breakpoint
ALTER TABLE "approved_loans" ADD COLUMN "origination_fee_handling" text DEFAULT 'deducted' NOT NULL;--> statement-breakpoint
ALTER TABLE "approved_loans" ADD COLUMN "origination_fee_collected_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "approved_loans" ADD COLUMN "origination_fee_collected_by" text;--> statement-breakpoint
ALTER TABLE "approved_loans" ADD COLUMN "origination_fee_reference" text;--> statement-breakpoint
ALTER TABLE "approved_loans" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "approved_loans" ADD COLUMN "cancelled_by" text;--> statement-breakpoint
ALTER TABLE "approved_loans" ADD COLUMN "cancel_reason" text;--> statement-breakpoint
ALTER TABLE "loan_documents" ADD COLUMN "accepted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "loan_documents" ADD COLUMN "accepted_by" text;--> statement-breakpoint
ALTER TABLE "bank_account_validations" ADD CONSTRAINT "bank_account_validations_bank_account_id_bank_accounts_id_fk" FOREIGN KEY ("bank_account_id") REFERENCES "public"."bank_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_account_validations" ADD CONSTRAINT "bank_account_validations_ach_batch_id_ach_batches_id_fk" FOREIGN KEY ("ach_batch_id") REFERENCES "public"."ach_batches"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_account_validations" ADD CONSTRAINT "bank_account_validations_recorded_by_user_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_fundings" ADD CONSTRAINT "loan_fundings_loan_id_approved_loans_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."approved_loans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_fundings" ADD CONSTRAINT "loan_fundings_bank_account_id_bank_accounts_id_fk" FOREIGN KEY ("bank_account_id") REFERENCES "public"."bank_accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_fundings" ADD CONSTRAINT "loan_fundings_prepared_by_user_id_fk" FOREIGN KEY ("prepared_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_fundings" ADD CONSTRAINT "loan_fundings_released_by_user_id_fk" FOREIGN KEY ("released_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_fundings" ADD CONSTRAINT "loan_fundings_ach_batch_id_ach_batches_id_fk" FOREIGN KEY ("ach_batch_id") REFERENCES "public"."ach_batches"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sanctions_matches" ADD CONSTRAINT "sanctions_matches_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."loan_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sanctions_matches" ADD CONSTRAINT "sanctions_matches_screening_id_sanctions_screenings_id_fk" FOREIGN KEY ("screening_id") REFERENCES "public"."sanctions_screenings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sanctions_matches" ADD CONSTRAINT "sanctions_matches_decided_by_user_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sanctions_screenings" ADD CONSTRAINT "sanctions_screenings_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."loan_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bank_account_validations_one_live_idx" ON "bank_account_validations" USING btree ("bank_account_id") WHERE "bank_account_validations"."status" <> 'failed';--> statement-breakpoint
CREATE INDEX "bank_account_validations_unsent_idx" ON "bank_account_validations" USING btree ("created_at") WHERE "bank_account_validations"."status" = 'pending' and "bank_account_validations"."ach_batch_id" is null;--> statement-breakpoint
CREATE INDEX "bank_account_validations_sent_idx" ON "bank_account_validations" USING btree ("effective_date") WHERE "bank_account_validations"."status" = 'sent';--> statement-breakpoint
CREATE INDEX "bank_account_validations_ach_batch_id_idx" ON "bank_account_validations" USING btree ("ach_batch_id");--> statement-breakpoint
CREATE UNIQUE INDEX "loan_fundings_one_live_idx" ON "loan_fundings" USING btree ("loan_id") WHERE "loan_fundings"."status" in ('prepared', 'released', 'sent', 'settled');--> statement-breakpoint
CREATE INDEX "loan_fundings_loan_id_idx" ON "loan_fundings" USING btree ("loan_id","prepared_at");--> statement-breakpoint
CREATE INDEX "loan_fundings_unsent_idx" ON "loan_fundings" USING btree ("prepared_at") WHERE "loan_fundings"."status" = 'released' and "loan_fundings"."ach_batch_id" is null;--> statement-breakpoint
CREATE INDEX "loan_fundings_ach_batch_id_idx" ON "loan_fundings" USING btree ("ach_batch_id");--> statement-breakpoint
CREATE INDEX "sanctions_matches_open_idx" ON "sanctions_matches" USING btree ("created_at") WHERE "sanctions_matches"."status" = 'open';--> statement-breakpoint
CREATE INDEX "sanctions_screenings_application_id_idx" ON "sanctions_screenings" USING btree ("application_id","screened_at");--> statement-breakpoint
ALTER TABLE "approved_loans" ADD CONSTRAINT "approved_loans_origination_fee_collected_by_user_id_fk" FOREIGN KEY ("origination_fee_collected_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approved_loans" ADD CONSTRAINT "approved_loans_cancelled_by_user_id_fk" FOREIGN KEY ("cancelled_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_documents" ADD CONSTRAINT "loan_documents_accepted_by_user_id_fk" FOREIGN KEY ("accepted_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ach_batches" ADD CONSTRAINT "ach_batches_credit_total_cents_check" CHECK ("ach_batches"."credit_total_cents" >= 0);--> statement-breakpoint
ALTER TABLE "ach_batches" ADD CONSTRAINT "ach_batches_total_cents_check" CHECK ("ach_batches"."total_cents" >= 0);--> statement-breakpoint
ALTER TABLE "approved_loans" ADD CONSTRAINT "approved_loans_origination_fee_handling_check" CHECK ("approved_loans"."origination_fee_handling" in ('deducted', 'collected'));--> statement-breakpoint
ALTER TABLE "approved_loans" ADD CONSTRAINT "approved_loans_cancelled_check" CHECK (("approved_loans"."status" = 'cancelled') = ("approved_loans"."cancelled_at" is not null));--> statement-breakpoint
ALTER TABLE "approved_loans" ADD CONSTRAINT "approved_loans_status_check" CHECK ("approved_loans"."status" in ('awaiting_funding', 'active', 'approved', 'paid_off', 'closed', 'cancelled'));