CREATE TABLE "esign_consents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"application_id" uuid NOT NULL,
	"version" text NOT NULL,
	"consented_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip_address" text,
	"user_agent" text,
	"withdrawn_at" timestamp with time zone,
	CONSTRAINT "esign_consents_user_agent_check" CHECK ("esign_consents"."user_agent" is null or char_length("esign_consents"."user_agent") <= 500)
);
--> statement-breakpoint
CREATE TABLE "loan_offers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"status" text DEFAULT 'offered' NOT NULL,
	"is_counteroffer" boolean NOT NULL,
	"counteroffer_reasons" text[] DEFAULT '{}'::text[] NOT NULL,
	"amount_cents" bigint NOT NULL,
	"note_rate_milli" integer NOT NULL,
	"term_months" integer NOT NULL,
	"origination_fee_milli" integer NOT NULL,
	"origination_fee_cents" bigint NOT NULL,
	"amount_financed_cents" bigint NOT NULL,
	"payment_cents" bigint NOT NULL,
	"final_payment_cents" bigint NOT NULL,
	"finance_charge_cents" bigint NOT NULL,
	"total_of_payments_cents" bigint NOT NULL,
	"apr_milli" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" text,
	"withdraw_reason" text,
	CONSTRAINT "loan_offers_status_check" CHECK ("loan_offers"."status" in ('offered', 'signed', 'declined', 'expired', 'withdrawn')),
	CONSTRAINT "loan_offers_amount_cents_check" CHECK ("loan_offers"."amount_cents" > 0),
	CONSTRAINT "loan_offers_note_rate_milli_check" CHECK ("loan_offers"."note_rate_milli" between 0 and 100000),
	CONSTRAINT "loan_offers_term_months_check" CHECK ("loan_offers"."term_months" between 1 and 480),
	CONSTRAINT "loan_offers_origination_fee_milli_check" CHECK ("loan_offers"."origination_fee_milli" between 0 and 10000),
	CONSTRAINT "loan_offers_origination_fee_cents_check" CHECK ("loan_offers"."origination_fee_cents" >= 0),
	CONSTRAINT "loan_offers_amount_financed_cents_check" CHECK ("loan_offers"."amount_financed_cents" = "loan_offers"."amount_cents" - "loan_offers"."origination_fee_cents"),
	CONSTRAINT "loan_offers_finance_charge_cents_check" CHECK ("loan_offers"."finance_charge_cents" = "loan_offers"."total_of_payments_cents" - "loan_offers"."amount_financed_cents"),
	CONSTRAINT "loan_offers_counteroffer_reasons_check" CHECK (not "loan_offers"."is_counteroffer" or cardinality("loan_offers"."counteroffer_reasons") > 0),
	CONSTRAINT "loan_offers_decided_when_not_offered_check" CHECK (("loan_offers"."status" = 'offered') = ("loan_offers"."decided_at" is null)),
	CONSTRAINT "loan_offers_withdrawn_has_reason_check" CHECK ("loan_offers"."status" <> 'withdrawn' or "loan_offers"."withdraw_reason" is not null),
	CONSTRAINT "loan_offers_withdraw_reason_check" CHECK ("loan_offers"."withdraw_reason" is null or char_length("loan_offers"."withdraw_reason") between 1 and 500)
);
--> statement-breakpoint
CREATE TABLE "signed_agreements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"offer_id" uuid NOT NULL,
	"application_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"storage_key" text NOT NULL,
	"sha256" char(64) NOT NULL,
	"byte_size" integer NOT NULL,
	"signer_name" text NOT NULL,
	"signer_email" text NOT NULL,
	"signature_kind" text NOT NULL,
	"signed_at" timestamp with time zone NOT NULL,
	"ip_address" text,
	"user_agent" text,
	"consent_id" uuid NOT NULL,
	"consent_version" text NOT NULL,
	"consented_at" timestamp with time zone NOT NULL,
	"first_payment_due" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "signed_agreements_offer_id_unique" UNIQUE("offer_id"),
	CONSTRAINT "signed_agreements_storage_key_unique" UNIQUE("storage_key"),
	CONSTRAINT "signed_agreements_signature_kind_check" CHECK ("signed_agreements"."signature_kind" in ('drawn', 'typed')),
	CONSTRAINT "signed_agreements_sha256_check" CHECK ("signed_agreements"."sha256" ~ '^[0-9a-f]{64}$'),
	CONSTRAINT "signed_agreements_byte_size_check" CHECK ("signed_agreements"."byte_size" > 0)
);
--> statement-breakpoint
ALTER TABLE "application_events" DROP CONSTRAINT "application_events_kind_check";--> statement-breakpoint
ALTER TABLE "approved_loans" ADD COLUMN "offer_id" uuid;--> statement-breakpoint
ALTER TABLE "approved_loans" ADD COLUMN "first_payment_due" date;--> statement-breakpoint
ALTER TABLE "approved_loans" ADD COLUMN "maturity_date" date;--> statement-breakpoint
ALTER TABLE "esign_consents" ADD CONSTRAINT "esign_consents_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "esign_consents" ADD CONSTRAINT "esign_consents_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."loan_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_offers" ADD CONSTRAINT "loan_offers_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."loan_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_offers" ADD CONSTRAINT "loan_offers_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_offers" ADD CONSTRAINT "loan_offers_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_offers" ADD CONSTRAINT "loan_offers_decided_by_user_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signed_agreements" ADD CONSTRAINT "signed_agreements_offer_id_loan_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."loan_offers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signed_agreements" ADD CONSTRAINT "signed_agreements_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."loan_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signed_agreements" ADD CONSTRAINT "signed_agreements_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signed_agreements" ADD CONSTRAINT "signed_agreements_consent_id_esign_consents_id_fk" FOREIGN KEY ("consent_id") REFERENCES "public"."esign_consents"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "esign_consents_one_current_idx" ON "esign_consents" USING btree ("user_id","application_id") WHERE "esign_consents"."withdrawn_at" is null;--> statement-breakpoint
CREATE INDEX "esign_consents_user_id_idx" ON "esign_consents" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "loan_offers_one_live_per_application_idx" ON "loan_offers" USING btree ("application_id") WHERE "loan_offers"."status" in ('offered', 'signed');--> statement-breakpoint
CREATE INDEX "loan_offers_application_id_idx" ON "loan_offers" USING btree ("application_id","created_at");--> statement-breakpoint
CREATE INDEX "loan_offers_user_id_idx" ON "loan_offers" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "loan_offers_open_expires_at_idx" ON "loan_offers" USING btree ("expires_at") WHERE "loan_offers"."status" = 'offered';--> statement-breakpoint
CREATE INDEX "signed_agreements_application_id_idx" ON "signed_agreements" USING btree ("application_id");--> statement-breakpoint
CREATE INDEX "signed_agreements_user_id_idx" ON "signed_agreements" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "approved_loans" ADD CONSTRAINT "approved_loans_offer_id_loan_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."loan_offers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approved_loans" ADD CONSTRAINT "approved_loans_offer_id_unique" UNIQUE("offer_id");--> statement-breakpoint
ALTER TABLE "application_events" ADD CONSTRAINT "application_events_kind_check" CHECK ("application_events"."kind" in ('submitted', 'review_started', 'documents_requested', 'document_received', 'reply_received', 'document_accepted', 'document_rejected', 'message', 'note', 'approved', 'denied', 'closed_incomplete', 'offer_made', 'offer_withdrawn', 'offer_declined', 'offer_expired', 'esign_consented', 'esign_withdrawn', 'agreement_signed'));