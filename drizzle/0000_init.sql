CREATE TABLE "account" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"provider_id" text NOT NULL,
	"user_id" text NOT NULL,
	"access_token" text,
	"refresh_token" text,
	"id_token" text,
	"access_token_expires_at" timestamp with time zone,
	"refresh_token_expires_at" timestamp with time zone,
	"scope" text,
	"password" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "approved_loans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"application_id" uuid NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"approved_amount" numeric(14, 2) NOT NULL,
	"balance" numeric(14, 2) NOT NULL,
	"monthly_payment" numeric(14, 2) NOT NULL,
	"interest_rate" numeric(5, 2) NOT NULL,
	"term_months" integer NOT NULL,
	"approval_date" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "approved_loans_application_id_unique" UNIQUE("application_id"),
	CONSTRAINT "approved_loans_status_check" CHECK ("approved_loans"."status" in ('active', 'approved', 'paid_off', 'closed')),
	CONSTRAINT "approved_loans_approved_amount_check" CHECK ("approved_loans"."approved_amount" > 0),
	CONSTRAINT "approved_loans_balance_check" CHECK ("approved_loans"."balance" >= 0),
	CONSTRAINT "approved_loans_monthly_payment_check" CHECK ("approved_loans"."monthly_payment" >= 0),
	CONSTRAINT "approved_loans_interest_rate_check" CHECK ("approved_loans"."interest_rate" between 0 and 100),
	CONSTRAINT "approved_loans_term_months_check" CHECK ("approved_loans"."term_months" between 1 and 600)
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"actor_id" text,
	"actor_name" text,
	"actor_email" text,
	"action" text NOT NULL,
	"table_name" text,
	"record_id" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"ip_address" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bank_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"application_id" uuid NOT NULL,
	"account_holder_name" text NOT NULL,
	"bank_name" text NOT NULL,
	"bank_address" text,
	"account_type" text DEFAULT 'checking' NOT NULL,
	"account_number" text NOT NULL,
	"routing_number" text NOT NULL,
	"account_number_last4" char(4) NOT NULL,
	"routing_number_last2" char(2) NOT NULL,
	"swift_code" text,
	"is_primary" boolean DEFAULT false NOT NULL,
	"is_verified" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bank_accounts_account_type_check" CHECK ("bank_accounts"."account_type" in ('checking', 'savings', 'business')),
	CONSTRAINT "bank_accounts_account_number_last4_check" CHECK ("bank_accounts"."account_number_last4" ~ '^[0-9]{4}$'),
	CONSTRAINT "bank_accounts_routing_number_last2_check" CHECK ("bank_accounts"."routing_number_last2" ~ '^[0-9]{2}$'),
	CONSTRAINT "bank_accounts_swift_code_check" CHECK ("bank_accounts"."swift_code" is null or "bank_accounts"."swift_code" ~ '^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$')
);
--> statement-breakpoint
CREATE TABLE "contact_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text,
	"subject" text NOT NULL,
	"message" text NOT NULL,
	"ip_address" text,
	"status" text DEFAULT 'new' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contact_messages_status_check" CHECK ("contact_messages"."status" in ('new', 'read', 'archived'))
);
--> statement-breakpoint
CREATE TABLE "email_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"to_address" text NOT NULL,
	"subject" text NOT NULL,
	"text_body" text NOT NULL,
	"html_body" text,
	"template" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"locked_until" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_outbox_status_check" CHECK ("email_outbox"."status" in ('pending', 'sending', 'sent', 'failed')),
	CONSTRAINT "email_outbox_attempts_check" CHECK ("email_outbox"."attempts" >= 0)
);
--> statement-breakpoint
CREATE TABLE "email_verification_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"code_hash" text NOT NULL,
	"purpose" text DEFAULT 'sign-up' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"verified" boolean DEFAULT false NOT NULL,
	"verified_at" timestamp with time zone,
	"consumed_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_verification_codes_email_check" CHECK ("email_verification_codes"."email" = lower("email_verification_codes"."email")),
	CONSTRAINT "email_verification_codes_purpose_check" CHECK ("email_verification_codes"."purpose" in ('sign-up')),
	CONSTRAINT "email_verification_codes_attempts_check" CHECK ("email_verification_codes"."attempts" between 0 and 5),
	CONSTRAINT "email_verification_codes_verified_at_check" CHECK (not "email_verification_codes"."verified" or "email_verification_codes"."verified_at" is not null),
	CONSTRAINT "email_verification_codes_consumed_at_check" CHECK ("email_verification_codes"."consumed_at" is null or "email_verification_codes"."verified")
);
--> statement-breakpoint
CREATE TABLE "loan_applications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"loan_type" text NOT NULL,
	"requested_amount" numeric(14, 2) NOT NULL,
	"desired_interest_rate" numeric(5, 2) NOT NULL,
	"loan_duration" integer NOT NULL,
	"purpose" text NOT NULL,
	"property_address" text,
	"business_name" text,
	"business_years" integer,
	"first_name" text NOT NULL,
	"middle_initial" text,
	"last_name" text NOT NULL,
	"date_of_birth" date NOT NULL,
	"email" text NOT NULL,
	"phone" text NOT NULL,
	"address_line1" text NOT NULL,
	"address_line2" text,
	"city" text NOT NULL,
	"state" text NOT NULL,
	"zip_code" text NOT NULL,
	"ssn_encrypted" text,
	"employment_status" text NOT NULL,
	"employer_name" text NOT NULL,
	"job_title" text,
	"years_employed" numeric(5, 1),
	"monthly_income" numeric(14, 2) NOT NULL,
	"annual_income" numeric(14, 2),
	"credit_score" integer,
	"has_outstanding_loans" boolean DEFAULT false NOT NULL,
	"monthly_debts" numeric(14, 2),
	"authorize_credit_report" boolean DEFAULT false NOT NULL,
	"notes" text,
	"idempotency_key" text,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reviewed_at" timestamp with time zone,
	"reviewed_by" text,
	"decision_reasons" text[],
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "loan_applications_user_id_idempotency_key_key" UNIQUE("user_id","idempotency_key"),
	CONSTRAINT "loan_applications_status_check" CHECK ("loan_applications"."status" in ('pending', 'under_review', 'approved', 'denied')),
	CONSTRAINT "loan_applications_loan_type_check" CHECK ("loan_applications"."loan_type" in ('personal', 'business', 'private', 'hard-money', 'auto-loans', 'debt-consolidation', 'home-improvement')),
	CONSTRAINT "loan_applications_requested_amount_check" CHECK ("loan_applications"."requested_amount" > 0),
	CONSTRAINT "loan_applications_desired_interest_rate_check" CHECK ("loan_applications"."desired_interest_rate" between 5.99 and 35.99),
	CONSTRAINT "loan_applications_loan_duration_check" CHECK ("loan_applications"."loan_duration" in (6, 12, 18, 24, 36, 48, 60, 84, 120, 180, 240, 300, 360)),
	CONSTRAINT "loan_applications_purpose_check" CHECK (char_length("loan_applications"."purpose") between 10 and 500),
	CONSTRAINT "loan_applications_property_address_check" CHECK ("loan_applications"."loan_type" <> 'hard-money' or ("loan_applications"."property_address" is not null and btrim("loan_applications"."property_address") <> '')),
	CONSTRAINT "loan_applications_business_years_check" CHECK ("loan_applications"."business_years" is null or "loan_applications"."business_years" >= 0),
	CONSTRAINT "loan_applications_middle_initial_check" CHECK ("loan_applications"."middle_initial" is null or char_length("loan_applications"."middle_initial") = 1),
	CONSTRAINT "loan_applications_phone_check" CHECK ("loan_applications"."phone" ~ '^[0-9]{10}$'),
	CONSTRAINT "loan_applications_state_check" CHECK ("loan_applications"."state" ~ '^[A-Z]{2}$'),
	CONSTRAINT "loan_applications_zip_code_check" CHECK ("loan_applications"."zip_code" ~ '^[0-9]{5}$'),
	CONSTRAINT "loan_applications_employment_status_check" CHECK ("loan_applications"."employment_status" in ('full-time', 'part-time', 'self-employed', 'retired', 'unemployed')),
	CONSTRAINT "loan_applications_years_employed_check" CHECK ("loan_applications"."years_employed" is null or "loan_applications"."years_employed" >= 0),
	CONSTRAINT "loan_applications_monthly_income_check" CHECK ("loan_applications"."monthly_income" >= 0),
	CONSTRAINT "loan_applications_annual_income_check" CHECK ("loan_applications"."annual_income" is null or "loan_applications"."annual_income" >= 0),
	CONSTRAINT "loan_applications_credit_score_check" CHECK ("loan_applications"."credit_score" is null or "loan_applications"."credit_score" between 300 and 850),
	CONSTRAINT "loan_applications_monthly_debts_check" CHECK ("loan_applications"."monthly_debts" is null or "loan_applications"."monthly_debts" >= 0),
	CONSTRAINT "loan_applications_reviewed_at_check" CHECK ("loan_applications"."status" not in ('approved', 'denied') or "loan_applications"."reviewed_at" is not null)
);
--> statement-breakpoint
CREATE TABLE "loan_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"document_type" text NOT NULL,
	"file_name" text NOT NULL,
	"file_path" text NOT NULL,
	"file_size" integer NOT NULL,
	"mime_type" text NOT NULL,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "loan_documents_file_path_unique" UNIQUE("file_path"),
	CONSTRAINT "loan_documents_application_id_document_type_key" UNIQUE("application_id","document_type"),
	CONSTRAINT "loan_documents_document_type_check" CHECK ("loan_documents"."document_type" in ('id_card_front', 'id_card_back', 'bank_statement_1', 'bank_statement_2', 'bank_statement_3', 'utility_bill', 'collateral_docs', 'signature')),
	CONSTRAINT "loan_documents_file_size_check" CHECK ("loan_documents"."file_size" > 0 and "loan_documents"."file_size" <= 5242880),
	CONSTRAINT "loan_documents_mime_type_check" CHECK ("loan_documents"."mime_type" in ('application/pdf', 'image/jpeg', 'image/png'))
);
--> statement-breakpoint
CREATE TABLE "profiles" (
	"id" text PRIMARY KEY NOT NULL,
	"full_name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text,
	"address" text,
	"city" text,
	"state" text,
	"zip_code" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "profiles_phone_check" CHECK ("profiles"."phone" is null or "profiles"."phone" ~ '^[0-9]{10}$'),
	CONSTRAINT "profiles_state_check" CHECK ("profiles"."state" is null or "profiles"."state" ~ '^[A-Z]{2}$'),
	CONSTRAINT "profiles_zip_code_check" CHECK ("profiles"."zip_code" is null or "profiles"."zip_code" ~ '^[0-9]{5}$')
);
--> statement-breakpoint
CREATE TABLE "rate_limit" (
	"id" text PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"count" integer NOT NULL,
	"last_request" bigint NOT NULL,
	CONSTRAINT "rate_limit_key_unique" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "rate_limit_hits" (
	"key" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "rate_limit_hits_pkey" PRIMARY KEY("key","window_start"),
	CONSTRAINT "rate_limit_hits_count_check" CHECK ("rate_limit_hits"."count" >= 0)
);
--> statement-breakpoint
CREATE TABLE "session" (
	"id" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip_address" text,
	"user_agent" text,
	"user_id" text NOT NULL,
	CONSTRAINT "session_token_unique" UNIQUE("token")
);
--> statement-breakpoint
CREATE TABLE "testimonials" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text,
	"full_name" text NOT NULL,
	"display_name" text NOT NULL,
	"role" text NOT NULL,
	"location" text,
	"content" text NOT NULL,
	"rating" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reviewed_at" timestamp with time zone,
	"reviewed_by" text,
	CONSTRAINT "testimonials_content_check" CHECK (char_length("testimonials"."content") between 1 and 2000),
	CONSTRAINT "testimonials_rating_check" CHECK ("testimonials"."rating" between 1 and 5),
	CONSTRAINT "testimonials_status_check" CHECK ("testimonials"."status" in ('pending', 'approved', 'rejected'))
);
--> statement-breakpoint
CREATE TABLE "two_factor" (
	"id" text PRIMARY KEY NOT NULL,
	"secret" text NOT NULL,
	"backup_codes" text NOT NULL,
	"user_id" text NOT NULL,
	"verified" boolean DEFAULT true,
	"failed_verification_count" integer DEFAULT 0,
	"locked_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "user" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"email_verified" boolean DEFAULT false NOT NULL,
	"image" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"two_factor_enabled" boolean DEFAULT false,
	CONSTRAINT "user_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "user_roles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_roles_user_id_role_key" UNIQUE("user_id","role"),
	CONSTRAINT "user_roles_role_check" CHECK ("user_roles"."role" in ('admin'))
);
--> statement-breakpoint
CREATE TABLE "verification" (
	"id" text PRIMARY KEY NOT NULL,
	"identifier" text NOT NULL,
	"value" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "account" ADD CONSTRAINT "account_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approved_loans" ADD CONSTRAINT "approved_loans_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approved_loans" ADD CONSTRAINT "approved_loans_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."loan_applications"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_accounts" ADD CONSTRAINT "bank_accounts_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_accounts" ADD CONSTRAINT "bank_accounts_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."loan_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_applications" ADD CONSTRAINT "loan_applications_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_applications" ADD CONSTRAINT "loan_applications_reviewed_by_user_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_documents" ADD CONSTRAINT "loan_documents_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."loan_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_documents" ADD CONSTRAINT "loan_documents_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_id_user_id_fk" FOREIGN KEY ("id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session" ADD CONSTRAINT "session_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "testimonials" ADD CONSTRAINT "testimonials_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "testimonials" ADD CONSTRAINT "testimonials_reviewed_by_user_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "two_factor" ADD CONSTRAINT "two_factor_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_user_id_idx" ON "account" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "approved_loans_user_id_status_approval_date_idx" ON "approved_loans" USING btree ("user_id","status","approval_date" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "audit_log_created_at_idx" ON "audit_log" USING btree ("created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "audit_log_actor_id_created_at_idx" ON "audit_log" USING btree ("actor_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE UNIQUE INDEX "bank_accounts_one_primary_per_user_idx" ON "bank_accounts" USING btree ("user_id") WHERE "bank_accounts"."is_primary";--> statement-breakpoint
CREATE INDEX "bank_accounts_user_id_idx" ON "bank_accounts" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "bank_accounts_application_id_idx" ON "bank_accounts" USING btree ("application_id");--> statement-breakpoint
CREATE INDEX "contact_messages_created_at_idx" ON "contact_messages" USING btree ("created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "email_outbox_status_next_attempt_at_idx" ON "email_outbox" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "email_verification_codes_email_created_at_idx" ON "email_verification_codes" USING btree ("email","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "loan_applications_user_id_submitted_at_idx" ON "loan_applications" USING btree ("user_id","submitted_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "loan_applications_status_submitted_at_idx" ON "loan_applications" USING btree ("status","submitted_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "loan_applications_submitted_at_idx" ON "loan_applications" USING btree ("submitted_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "loan_documents_user_id_idx" ON "loan_documents" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "loan_documents_uploaded_at_idx" ON "loan_documents" USING btree ("uploaded_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "profiles_email_lower_idx" ON "profiles" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "profiles_full_name_lower_idx" ON "profiles" USING btree (lower("full_name"));--> statement-breakpoint
CREATE INDEX "rate_limit_hits_window_start_idx" ON "rate_limit_hits" USING btree ("window_start");--> statement-breakpoint
CREATE INDEX "session_user_id_idx" ON "session" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "testimonials_status_created_at_idx" ON "testimonials" USING btree ("status","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "two_factor_secret_idx" ON "two_factor" USING btree ("secret");--> statement-breakpoint
CREATE INDEX "two_factor_user_id_idx" ON "two_factor" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "verification_identifier_idx" ON "verification" USING btree ("identifier");