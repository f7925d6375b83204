CREATE TABLE "charge_off_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"loan_id" uuid NOT NULL,
	"requested_by" text,
	"reason" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "charge_off_requests_status_check" CHECK ("charge_off_requests"."status" in ('pending', 'approved', 'rejected')),
	CONSTRAINT "charge_off_requests_amount_cents_check" CHECK ("charge_off_requests"."amount_cents" >= 0),
	CONSTRAINT "charge_off_requests_reason_check" CHECK (char_length("charge_off_requests"."reason") between 1 and 1000),
	CONSTRAINT "charge_off_requests_decided_check" CHECK (("charge_off_requests"."status" = 'pending') = ("charge_off_requests"."decided_at" is null))
);
--> statement-breakpoint
CREATE TABLE "collection_contacts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"loan_id" uuid NOT NULL,
	"staff_id" text,
	"channel" text NOT NULL,
	"outcome" text NOT NULL,
	"note" text,
	"next_action" text,
	"next_action_on" date,
	"contacted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "collection_contacts_channel_check" CHECK ("collection_contacts"."channel" in ('call', 'email', 'letter', 'text')),
	CONSTRAINT "collection_contacts_outcome_check" CHECK ("collection_contacts"."outcome" in ('reached', 'left_message', 'no_answer', 'wrong_number', 'promise_made', 'refused', 'dispute', 'hardship')),
	CONSTRAINT "collection_contacts_note_check" CHECK ("collection_contacts"."note" is null or char_length("collection_contacts"."note") <= 2000),
	CONSTRAINT "collection_contacts_next_action_check" CHECK ("collection_contacts"."next_action" is null or char_length("collection_contacts"."next_action") <= 200)
);
--> statement-breakpoint
CREATE TABLE "delinquency_rolls" (
	"as_of" date NOT NULL,
	"from_bucket" text NOT NULL,
	"to_bucket" text NOT NULL,
	"loans" integer NOT NULL,
	"principal_cents" bigint NOT NULL,
	CONSTRAINT "delinquency_rolls_as_of_from_bucket_to_bucket_pk" PRIMARY KEY("as_of","from_bucket","to_bucket"),
	CONSTRAINT "delinquency_rolls_from_bucket_check" CHECK ("delinquency_rolls"."from_bucket" in ('current', '1-29', '30-59', '60-89', '90-119', '120+')),
	CONSTRAINT "delinquency_rolls_loans_check" CHECK ("delinquency_rolls"."loans" >= 0),
	CONSTRAINT "delinquency_rolls_principal_cents_check" CHECK ("delinquency_rolls"."principal_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "delinquency_snapshots" (
	"as_of" date NOT NULL,
	"loan_id" uuid NOT NULL,
	"bucket" text NOT NULL,
	"principal_cents" bigint NOT NULL,
	CONSTRAINT "delinquency_snapshots_as_of_loan_id_pk" PRIMARY KEY("as_of","loan_id"),
	CONSTRAINT "delinquency_snapshots_bucket_check" CHECK ("delinquency_snapshots"."bucket" in ('current', '1-29', '30-59', '60-89', '90-119', '120+')),
	CONSTRAINT "delinquency_snapshots_principal_cents_check" CHECK ("delinquency_snapshots"."principal_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "delinquency_totals" (
	"as_of" date NOT NULL,
	"bucket" text NOT NULL,
	"loans" integer NOT NULL,
	"principal_cents" bigint NOT NULL,
	CONSTRAINT "delinquency_totals_as_of_bucket_pk" PRIMARY KEY("as_of","bucket"),
	CONSTRAINT "delinquency_totals_bucket_check" CHECK ("delinquency_totals"."bucket" in ('current', '1-29', '30-59', '60-89', '90-119', '120+')),
	CONSTRAINT "delinquency_totals_loans_check" CHECK ("delinquency_totals"."loans" >= 0),
	CONSTRAINT "delinquency_totals_principal_cents_check" CHECK ("delinquency_totals"."principal_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "hardship_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"loan_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"reason" text NOT NULL,
	"details" text,
	"can_pay_cents" bigint NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"closed_at" timestamp with time zone,
	"closed_by" text,
	"close_note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hardship_requests_reason_check" CHECK ("hardship_requests"."reason" in ('job_loss', 'medical', 'family', 'disaster', 'military', 'other')),
	CONSTRAINT "hardship_requests_status_check" CHECK ("hardship_requests"."status" in ('open', 'offered', 'closed')),
	CONSTRAINT "hardship_requests_can_pay_cents_check" CHECK ("hardship_requests"."can_pay_cents" >= 0),
	CONSTRAINT "hardship_requests_details_check" CHECK ("hardship_requests"."details" is null or char_length("hardship_requests"."details") <= 2000),
	CONSTRAINT "hardship_requests_closed_check" CHECK (("hardship_requests"."status" = 'closed') = ("hardship_requests"."closed_at" is not null))
);
--> statement-breakpoint
CREATE TABLE "loan_modifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"loan_id" uuid NOT NULL,
	"hardship_request_id" uuid,
	"kind" text NOT NULL,
	"offer" jsonb NOT NULL,
	"status" text DEFAULT 'offered' NOT NULL,
	"offered_by" text,
	"offered_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_on" date NOT NULL,
	"note" text,
	"signed_change" jsonb,
	"signed_at" timestamp with time zone,
	"signer_name" text,
	"signature_kind" text,
	"ip_address" text,
	"user_agent" text,
	"storage_key" text,
	"sha256" char(64),
	"totals_before" jsonb,
	"totals_after" jsonb,
	"ended_at" timestamp with time zone,
	"ended_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "loan_modifications_storage_key_unique" UNIQUE("storage_key"),
	CONSTRAINT "loan_modifications_kind_check" CHECK ("loan_modifications"."kind" in ('deferment', 'payment_plan', 'due_date_change')),
	CONSTRAINT "loan_modifications_status_check" CHECK ("loan_modifications"."status" in ('offered', 'signed', 'declined', 'withdrawn', 'expired')),
	CONSTRAINT "loan_modifications_sha256_check" CHECK ("loan_modifications"."sha256" is null or "loan_modifications"."sha256" ~ '^[0-9a-f]{64}$'),
	CONSTRAINT "loan_modifications_signed_check" CHECK (("loan_modifications"."status" = 'signed') = ("loan_modifications"."signed_at" is not null) and ("loan_modifications"."signed_at" is null or ("loan_modifications"."signed_change" is not null and "loan_modifications"."storage_key" is not null and "loan_modifications"."sha256" is not null and "loan_modifications"."signer_name" is not null)))
);
--> statement-breakpoint
CREATE TABLE "loan_protections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"loan_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"starts_on" date NOT NULL,
	"ends_on" date,
	"reference" text NOT NULL,
	"note" text,
	"recorded_by" text,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	"ended_by" text,
	CONSTRAINT "loan_protections_kind_check" CHECK ("loan_protections"."kind" in ('servicemember', 'bankruptcy')),
	CONSTRAINT "loan_protections_dates_check" CHECK ("loan_protections"."ends_on" is null or "loan_protections"."ends_on" >= "loan_protections"."starts_on"),
	CONSTRAINT "loan_protections_reference_check" CHECK (char_length("loan_protections"."reference") between 1 and 100)
);
--> statement-breakpoint
CREATE TABLE "payment_promises" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"loan_id" uuid NOT NULL,
	"staff_id" text,
	"amount_cents" bigint NOT NULL,
	"promised_on" date NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_by" text,
	CONSTRAINT "payment_promises_status_check" CHECK ("payment_promises"."status" in ('open', 'kept', 'broken', 'cancelled')),
	CONSTRAINT "payment_promises_amount_cents_check" CHECK ("payment_promises"."amount_cents" > 0),
	CONSTRAINT "payment_promises_resolved_check" CHECK (("payment_promises"."status" = 'open') = ("payment_promises"."resolved_at" is null))
);
--> statement-breakpoint
ALTER TABLE "application_events" DROP CONSTRAINT "application_events_kind_check";--> statement-breakpoint
ALTER TABLE "approved_loans" DROP CONSTRAINT "approved_loans_status_check";--> statement-breakpoint
ALTER TABLE "loan_flags" DROP CONSTRAINT "loan_flags_kind_check";--> statement-breakpoint
ALTER TABLE "servicing_notices" DROP CONSTRAINT "servicing_notices_kind_check";--> statement-breakpoint
DROP INDEX "loan_payments_ledger_idx";--> statement-breakpoint
ALTER TABLE "approved_loans" ADD COLUMN "collector_id" text;--> statement-breakpoint
ALTER TABLE "approved_loans" ADD COLUMN "schedule_changes" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "approved_loans" ADD COLUMN "rate_caps" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "approved_loans" ADD COLUMN "charged_off_on" date;--> statement-breakpoint
ALTER TABLE "approved_loans" ADD COLUMN "charged_off_cents" bigint;--> statement-breakpoint
ALTER TABLE "approved_loans" ADD COLUMN "charged_off_by" text;--> statement-breakpoint
ALTER TABLE "approved_loans" ADD COLUMN "charge_off_reason" text;--> statement-breakpoint
ALTER TABLE "approved_loans" ADD COLUMN "settled_on" date;--> statement-breakpoint
ALTER TABLE "approved_loans" ADD COLUMN "forgiven_cents" bigint;--> statement-breakpoint
ALTER TABLE "approved_loans" ADD COLUMN "settled_by" text;--> statement-breakpoint
ALTER TABLE "loan_payments" ADD COLUMN "recovery" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "charge_off_requests" ADD CONSTRAINT "charge_off_requests_loan_id_approved_loans_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."approved_loans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charge_off_requests" ADD CONSTRAINT "charge_off_requests_requested_by_user_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charge_off_requests" ADD CONSTRAINT "charge_off_requests_decided_by_user_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_contacts" ADD CONSTRAINT "collection_contacts_loan_id_approved_loans_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."approved_loans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_contacts" ADD CONSTRAINT "collection_contacts_staff_id_user_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delinquency_snapshots" ADD CONSTRAINT "delinquency_snapshots_loan_id_approved_loans_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."approved_loans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hardship_requests" ADD CONSTRAINT "hardship_requests_loan_id_approved_loans_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."approved_loans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hardship_requests" ADD CONSTRAINT "hardship_requests_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hardship_requests" ADD CONSTRAINT "hardship_requests_closed_by_user_id_fk" FOREIGN KEY ("closed_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_modifications" ADD CONSTRAINT "loan_modifications_loan_id_approved_loans_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."approved_loans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_modifications" ADD CONSTRAINT "loan_modifications_hardship_request_id_hardship_requests_id_fk" FOREIGN KEY ("hardship_request_id") REFERENCES "public"."hardship_requests"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_modifications" ADD CONSTRAINT "loan_modifications_offered_by_user_id_fk" FOREIGN KEY ("offered_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_modifications" ADD CONSTRAINT "loan_modifications_ended_by_user_id_fk" FOREIGN KEY ("ended_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_protections" ADD CONSTRAINT "loan_protections_loan_id_approved_loans_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."approved_loans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_protections" ADD CONSTRAINT "loan_protections_recorded_by_user_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_protections" ADD CONSTRAINT "loan_protections_ended_by_user_id_fk" FOREIGN KEY ("ended_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_promises" ADD CONSTRAINT "payment_promises_loan_id_approved_loans_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."approved_loans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_promises" ADD CONSTRAINT "payment_promises_staff_id_user_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_promises" ADD CONSTRAINT "payment_promises_resolved_by_user_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "charge_off_requests_one_pending_idx" ON "charge_off_requests" USING btree ("loan_id") WHERE "charge_off_requests"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "collection_contacts_loan_id_idx" ON "collection_contacts" USING btree ("loan_id","contacted_at");--> statement-breakpoint
CREATE INDEX "delinquency_snapshots_loan_id_idx" ON "delinquency_snapshots" USING btree ("loan_id");--> statement-breakpoint
CREATE UNIQUE INDEX "hardship_requests_one_open_idx" ON "hardship_requests" USING btree ("loan_id") WHERE "hardship_requests"."status" <> 'closed';--> statement-breakpoint
CREATE INDEX "hardship_requests_loan_id_idx" ON "hardship_requests" USING btree ("loan_id","created_at");--> statement-breakpoint
CREATE INDEX "hardship_requests_user_id_idx" ON "hardship_requests" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "hardship_requests_open_idx" ON "hardship_requests" USING btree ("created_at") WHERE "hardship_requests"."status" = 'open';--> statement-breakpoint
CREATE UNIQUE INDEX "loan_modifications_one_offered_idx" ON "loan_modifications" USING btree ("loan_id") WHERE "loan_modifications"."status" = 'offered';--> statement-breakpoint
CREATE INDEX "loan_modifications_loan_id_idx" ON "loan_modifications" USING btree ("loan_id","offered_at");--> statement-breakpoint
CREATE UNIQUE INDEX "loan_protections_one_active_idx" ON "loan_protections" USING btree ("loan_id","kind") WHERE "loan_protections"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "loan_protections_loan_id_idx" ON "loan_protections" USING btree ("loan_id","recorded_at");--> statement-breakpoint
CREATE INDEX "payment_promises_loan_id_idx" ON "payment_promises" USING btree ("loan_id","created_at");--> statement-breakpoint
CREATE INDEX "payment_promises_open_idx" ON "payment_promises" USING btree ("promised_on","id") WHERE "payment_promises"."status" = 'open';--> statement-breakpoint
ALTER TABLE "approved_loans" ADD CONSTRAINT "approved_loans_collector_id_user_id_fk" FOREIGN KEY ("collector_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approved_loans" ADD CONSTRAINT "approved_loans_charged_off_by_user_id_fk" FOREIGN KEY ("charged_off_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approved_loans" ADD CONSTRAINT "approved_loans_settled_by_user_id_fk" FOREIGN KEY ("settled_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "approved_loans_collections_idx" ON "approved_loans" USING btree ("next_due_date","id") WHERE "approved_loans"."status" = 'active';--> statement-breakpoint
CREATE INDEX "approved_loans_collector_idx" ON "approved_loans" USING btree ("collector_id","next_due_date","id") WHERE "approved_loans"."status" = 'active' and "approved_loans"."collector_id" is not null;--> statement-breakpoint
CREATE INDEX "loan_payments_ledger_idx" ON "loan_payments" USING btree ("loan_id","status","received_on","created_at","id","amount_cents","recovery");--> statement-breakpoint
ALTER TABLE "application_events" ADD CONSTRAINT "application_events_kind_check" CHECK ("application_events"."kind" in ('submitted', 'review_started', 'documents_requested', 'document_received', 'reply_received', 'document_accepted', 'document_rejected', 'message', 'note', 'approved', 'denied', 'closed_incomplete', 'withdrawn', 'offer_made', 'offer_withdrawn', 'offer_declined', 'offer_expired', 'esign_consented', 'esign_withdrawn', 'agreement_signed', 'loan_funded', 'funds_returned', 'loan_cancelled', 'autopay_on', 'autopay_changed', 'autopay_off', 'payment_returned', 'payment_retry', 'hardship_requested', 'plan_offered', 'plan_signed', 'plan_declined', 'plan_withdrawn', 'loan_charged_off', 'loan_settled', 'approval_proposed', 'approval_sent_back', 'assigned'));--> statement-breakpoint
ALTER TABLE "approved_loans" ADD CONSTRAINT "approved_loans_charged_off_check" CHECK (("approved_loans"."charged_off_on" is null) = ("approved_loans"."charged_off_cents" is null));--> statement-breakpoint
ALTER TABLE "approved_loans" ADD CONSTRAINT "approved_loans_settled_check" CHECK (("approved_loans"."settled_on" is null) = ("approved_loans"."forgiven_cents" is null) and ("approved_loans"."status" <> 'settled' or "approved_loans"."settled_on" is not null) and ("approved_loans"."status" <> 'charged_off' or "approved_loans"."charged_off_on" is not null));--> statement-breakpoint
ALTER TABLE "approved_loans" ADD CONSTRAINT "approved_loans_charged_off_cents_check" CHECK ("approved_loans"."charged_off_cents" is null or "approved_loans"."charged_off_cents" >= 0);--> statement-breakpoint
ALTER TABLE "approved_loans" ADD CONSTRAINT "approved_loans_forgiven_cents_check" CHECK ("approved_loans"."forgiven_cents" is null or "approved_loans"."forgiven_cents" >= 0);--> statement-breakpoint
ALTER TABLE "approved_loans" ADD CONSTRAINT "approved_loans_status_check" CHECK ("approved_loans"."status" in ('awaiting_funding', 'active', 'approved', 'paid_off', 'closed', 'cancelled', 'charged_off', 'settled'));--> statement-breakpoint
ALTER TABLE "loan_flags" ADD CONSTRAINT "loan_flags_kind_check" CHECK ("loan_flags"."kind" in ('unauthorized_return', 'broken_promise'));--> statement-breakpoint
ALTER TABLE "servicing_notices" ADD CONSTRAINT "servicing_notices_kind_check" CHECK ("servicing_notices"."kind" in ('reminder', 'late_notice', 'autopay_amount', 'collections_15', 'collections_30', 'collections_60'));