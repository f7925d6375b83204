CREATE TABLE "application_assignments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"assigned_to" text,
	"assigned_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "approval_proposals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"status" text DEFAULT 'proposed' NOT NULL,
	"approved_amount" numeric(14, 2) NOT NULL,
	"interest_rate" numeric(5, 2) NOT NULL,
	"term_months" integer NOT NULL,
	"origination_fee_percent" numeric(5, 2) NOT NULL,
	"counteroffer_reasons" text[] DEFAULT '{}'::text[] NOT NULL,
	"proposed_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"comment" text,
	"offer_id" uuid,
	CONSTRAINT "approval_proposals_status_check" CHECK ("approval_proposals"."status" in ('proposed', 'confirmed', 'sent_back')),
	CONSTRAINT "approval_proposals_approved_amount_check" CHECK ("approval_proposals"."approved_amount" > 0),
	CONSTRAINT "approval_proposals_decided_check" CHECK (("approval_proposals"."status" = 'proposed') = ("approval_proposals"."decided_at" is null)),
	CONSTRAINT "approval_proposals_not_own_check" CHECK ("approval_proposals"."decided_by" is null or "approval_proposals"."status" <> 'confirmed' or "approval_proposals"."decided_by" <> "approval_proposals"."proposed_by"),
	CONSTRAINT "approval_proposals_sent_back_comment_check" CHECK ("approval_proposals"."status" <> 'sent_back' or "approval_proposals"."comment" is not null),
	CONSTRAINT "approval_proposals_comment_check" CHECK ("approval_proposals"."comment" is null or char_length("approval_proposals"."comment") between 1 and 2000)
);
--> statement-breakpoint
CREATE TABLE "staff_invitations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"role" text NOT NULL,
	"token_hash" text NOT NULL,
	"invited_by" text,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"accepted_user_id" text,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "staff_invitations_token_hash_unique" UNIQUE("token_hash"),
	CONSTRAINT "staff_invitations_role_check" CHECK ("staff_invitations"."role" in ('admin', 'loan_officer', 'auditor')),
	CONSTRAINT "staff_invitations_email_check" CHECK (char_length("staff_invitations"."email") between 3 and 254),
	CONSTRAINT "staff_invitations_name_check" CHECK (char_length("staff_invitations"."name") between 1 and 100)
);
--> statement-breakpoint
ALTER TABLE "application_events" DROP CONSTRAINT "application_events_kind_check";--> statement-breakpoint
ALTER TABLE "user_roles" DROP CONSTRAINT "user_roles_role_check";--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "chain_seq" bigint;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "prev_hash" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "row_hash" text;--> statement-breakpoint
ALTER TABLE "loan_applications" ADD COLUMN "assigned_to" text;--> statement-breakpoint
ALTER TABLE "loan_applications" ADD COLUMN "assigned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "user_roles" ADD COLUMN "deactivated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "user_roles" ADD COLUMN "deactivated_by" text;--> statement-breakpoint
ALTER TABLE "application_assignments" ADD CONSTRAINT "application_assignments_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."loan_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "application_assignments" ADD CONSTRAINT "application_assignments_assigned_to_user_id_fk" FOREIGN KEY ("assigned_to") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "application_assignments" ADD CONSTRAINT "application_assignments_assigned_by_user_id_fk" FOREIGN KEY ("assigned_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_proposals" ADD CONSTRAINT "approval_proposals_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."loan_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_proposals" ADD CONSTRAINT "approval_proposals_proposed_by_user_id_fk" FOREIGN KEY ("proposed_by") REFERENCES "public"."user"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_proposals" ADD CONSTRAINT "approval_proposals_decided_by_user_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_proposals" ADD CONSTRAINT "approval_proposals_offer_id_loan_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."loan_offers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_invitations" ADD CONSTRAINT "staff_invitations_invited_by_user_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_invitations" ADD CONSTRAINT "staff_invitations_accepted_user_id_user_id_fk" FOREIGN KEY ("accepted_user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "application_assignments_application_id_idx" ON "application_assignments" USING btree ("application_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "approval_proposals_one_open_idx" ON "approval_proposals" USING btree ("application_id") WHERE "approval_proposals"."status" = 'proposed';--> statement-breakpoint
CREATE INDEX "approval_proposals_application_id_idx" ON "approval_proposals" USING btree ("application_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "staff_invitations_open_email_idx" ON "staff_invitations" USING btree (lower("email")) WHERE "staff_invitations"."accepted_at" is null and "staff_invitations"."revoked_at" is null;--> statement-breakpoint
ALTER TABLE "loan_applications" ADD CONSTRAINT "loan_applications_assigned_to_user_id_fk" FOREIGN KEY ("assigned_to") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_deactivated_by_user_id_fk" FOREIGN KEY ("deactivated_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "audit_log_chain_seq_idx" ON "audit_log" USING btree ("chain_seq");--> statement-breakpoint
CREATE INDEX "loan_applications_assigned_to_submitted_at_idx" ON "loan_applications" USING btree ("assigned_to","submitted_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE UNIQUE INDEX "user_roles_one_role_per_user_idx" ON "user_roles" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "application_events" ADD CONSTRAINT "application_events_kind_check" CHECK ("application_events"."kind" in ('submitted', 'review_started', 'documents_requested', 'document_received', 'reply_received', 'document_accepted', 'document_rejected', 'message', 'note', 'approved', 'denied', 'closed_incomplete', 'offer_made', 'offer_withdrawn', 'offer_declined', 'offer_expired', 'esign_consented', 'esign_withdrawn', 'agreement_signed', 'approval_proposed', 'approval_sent_back', 'assigned'));--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_role_check" CHECK ("user_roles"."role" in ('admin', 'loan_officer', 'auditor'));--> statement-breakpoint
-- Issue 22: the audit log's hash chain (decision 0035). A row's canonical text names every column
-- (octet length and value, "~" for null), its place in the chain and the previous row's hash;
-- row_hash is its SHA-256. scripts/audit-verify.ts recomputes the same text in JavaScript from the
-- raw columns, so a changed function cannot hide a changed row.
CREATE OR REPLACE FUNCTION "audit_log_canonical"(r "audit_log", seq bigint, prev text) RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT concat_ws('|',
    seq::text,
    coalesce(prev, '~'),
    r.id::text,
    coalesce(octet_length(r.actor_id) || ':' || r.actor_id, '~'),
    coalesce(octet_length(r.actor_name) || ':' || r.actor_name, '~'),
    coalesce(octet_length(r.actor_email) || ':' || r.actor_email, '~'),
    octet_length(r.action) || ':' || r.action,
    coalesce(octet_length(r.table_name) || ':' || r.table_name, '~'),
    coalesce(octet_length(r.record_id) || ':' || r.record_id, '~'),
    octet_length(r.details::text) || ':' || r.details::text,
    coalesce(octet_length(r.ip_address) || ':' || r.ip_address, '~'),
    coalesce(octet_length(r.user_agent) || ':' || r.user_agent, '~'),
    to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'))
$$;
--> statement-breakpoint
-- Sealing runs at commit (a deferred constraint trigger), so the chain's lock is held only while the
-- transaction commits: never while it waits for a row another transaction holds (no deadlocks with
-- the work around the audit row), and rows are chained in commit order.
CREATE OR REPLACE FUNCTION "audit_log_seal"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  last_seq bigint;
  last_hash text;
BEGIN
  IF NEW.row_hash IS NOT NULL THEN
    RETURN NULL; -- restored from a backup with its chain
  END IF;
  PERFORM pg_advisory_xact_lock(7208221);
  SELECT chain_seq, row_hash INTO last_seq, last_hash FROM "audit_log"
    WHERE chain_seq IS NOT NULL ORDER BY chain_seq DESC LIMIT 1;
  last_seq := coalesce(last_seq, 0) + 1;
  PERFORM set_config('audit.sealing', 'on', true);
  UPDATE "audit_log"
    SET chain_seq = last_seq,
        prev_hash = last_hash,
        row_hash = encode(sha256(convert_to("audit_log_canonical"(NEW, last_seq, last_hash), 'UTF8')), 'hex')
    WHERE id = NEW.id;
  PERFORM set_config('audit.sealing', 'off', true);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- Append-only still: the one UPDATE allowed is the seal filling an unsealed row's chain columns,
-- every other column unchanged.
CREATE OR REPLACE FUNCTION "audit_log_refuse_change"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE'
     AND current_setting('audit.sealing', true) = 'on'
     AND OLD.row_hash IS NULL AND OLD.chain_seq IS NULL
     AND NEW.id = OLD.id
     AND NEW.actor_id IS NOT DISTINCT FROM OLD.actor_id
     AND NEW.actor_name IS NOT DISTINCT FROM OLD.actor_name
     AND NEW.actor_email IS NOT DISTINCT FROM OLD.actor_email
     AND NEW.action = OLD.action
     AND NEW.table_name IS NOT DISTINCT FROM OLD.table_name
     AND NEW.record_id IS NOT DISTINCT FROM OLD.record_id
     AND NEW.details = OLD.details
     AND NEW.ip_address IS NOT DISTINCT FROM OLD.ip_address
     AND NEW.user_agent IS NOT DISTINCT FROM OLD.user_agent
     AND NEW.created_at = OLD.created_at THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit_log is append-only (% refused)', TG_OP
    USING ERRCODE = 'P0001', HINT = 'Audit entries can only be inserted.';
END;
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "audit_log_seal"
  AFTER INSERT ON "audit_log"
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "audit_log_seal"();
--> statement-breakpoint
-- The rows written before this migration, chained in id order.
DO $$
DECLARE
  r "audit_log";
  seq bigint := 0;
  prev text := NULL;
  h text;
BEGIN
  PERFORM pg_advisory_xact_lock(7208221);
  PERFORM set_config('audit.sealing', 'on', true);
  FOR r IN SELECT * FROM "audit_log" WHERE chain_seq IS NULL ORDER BY id LOOP
    seq := seq + 1;
    h := encode(sha256(convert_to("audit_log_canonical"(r, seq, prev), 'UTF8')), 'hex');
    UPDATE "audit_log" SET chain_seq = seq, prev_hash = prev, row_hash = h WHERE id = r.id;
    prev := h;
  END LOOP;
  PERFORM set_config('audit.sealing', 'off', true);
END;
$$;
