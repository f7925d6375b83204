CREATE TABLE "application_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"actor_id" text,
	"actor_side" text,
	"summary" text,
	"internal" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "application_events_kind_check" CHECK ("application_events"."kind" in ('submitted', 'review_started', 'documents_requested', 'document_received', 'reply_received', 'document_accepted', 'document_rejected', 'message', 'note', 'approved', 'denied', 'closed_incomplete')),
	CONSTRAINT "application_events_actor_side_check" CHECK ("application_events"."actor_side" is null or "application_events"."actor_side" in ('applicant', 'staff'))
);
--> statement-breakpoint
CREATE TABLE "application_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"author_id" text,
	"author_side" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "application_messages_author_side_check" CHECK ("application_messages"."author_side" in ('applicant', 'staff')),
	CONSTRAINT "application_messages_body_check" CHECK (char_length("application_messages"."body") between 1 and 5000)
);
--> statement-breakpoint
CREATE TABLE "conversation_notices" (
	"application_id" uuid NOT NULL,
	"recipient_side" text NOT NULL,
	"last_sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "conversation_notices_application_id_recipient_side_pk" PRIMARY KEY("application_id","recipient_side"),
	CONSTRAINT "conversation_notices_recipient_side_check" CHECK ("conversation_notices"."recipient_side" in ('applicant', 'staff'))
);
--> statement-breakpoint
CREATE TABLE "conversation_reads" (
	"application_id" uuid NOT NULL,
	"reader_id" text NOT NULL,
	"last_read_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "conversation_reads_application_id_reader_id_pk" PRIMARY KEY("application_id","reader_id")
);
--> statement-breakpoint
CREATE TABLE "request_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"application_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"note" text,
	"due_date" date NOT NULL,
	"status" text DEFAULT 'requested' NOT NULL,
	"reply_text" text,
	"rejection_reason" text,
	"requested_by" text,
	"answered_at" timestamp with time zone,
	"reviewed_at" timestamp with time zone,
	"reviewed_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "request_items_kind_check" CHECK ("request_items"."kind" in ('id_document', 'bank_statement', 'pay_stub', 'tax_return', 'proof_of_address', 'business_license', 'other_document', 'question')),
	CONSTRAINT "request_items_status_check" CHECK ("request_items"."status" in ('requested', 'received', 'accepted', 'rejected')),
	CONSTRAINT "request_items_note_check" CHECK ("request_items"."note" is null or char_length("request_items"."note") <= 1000),
	CONSTRAINT "request_items_reply_text_check" CHECK ("request_items"."reply_text" is null or char_length("request_items"."reply_text") <= 5000),
	CONSTRAINT "request_items_rejection_reason_check" CHECK ("request_items"."rejection_reason" is null or char_length("request_items"."rejection_reason") <= 1000),
	CONSTRAINT "request_items_rejected_has_reason_check" CHECK ("request_items"."status" <> 'rejected' or "request_items"."rejection_reason" is not null)
);
--> statement-breakpoint
ALTER TABLE "loan_documents" DROP CONSTRAINT "loan_documents_application_id_document_type_key";--> statement-breakpoint
ALTER TABLE "loan_applications" DROP CONSTRAINT "loan_applications_status_check";--> statement-breakpoint
ALTER TABLE "loan_applications" DROP CONSTRAINT "loan_applications_reviewed_at_check";--> statement-breakpoint
ALTER TABLE "loan_documents" DROP CONSTRAINT "loan_documents_document_type_check";--> statement-breakpoint
ALTER TABLE "loan_documents" ADD COLUMN "request_item_id" uuid;--> statement-breakpoint
ALTER TABLE "application_events" ADD CONSTRAINT "application_events_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."loan_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "application_events" ADD CONSTRAINT "application_events_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "application_events" ADD CONSTRAINT "application_events_actor_id_user_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "application_messages" ADD CONSTRAINT "application_messages_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."loan_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "application_messages" ADD CONSTRAINT "application_messages_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "application_messages" ADD CONSTRAINT "application_messages_author_id_user_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_notices" ADD CONSTRAINT "conversation_notices_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."loan_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_reads" ADD CONSTRAINT "conversation_reads_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."loan_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_reads" ADD CONSTRAINT "conversation_reads_reader_id_user_id_fk" FOREIGN KEY ("reader_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_items" ADD CONSTRAINT "request_items_application_id_loan_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."loan_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_items" ADD CONSTRAINT "request_items_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_items" ADD CONSTRAINT "request_items_requested_by_user_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_items" ADD CONSTRAINT "request_items_reviewed_by_user_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "application_events_application_id_created_at_idx" ON "application_events" USING btree ("application_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "application_messages_application_id_created_at_idx" ON "application_messages" USING btree ("application_id","created_at");--> statement-breakpoint
CREATE INDEX "application_messages_user_id_created_at_idx" ON "application_messages" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "request_items_application_id_idx" ON "request_items" USING btree ("application_id","created_at");--> statement-breakpoint
CREATE INDEX "request_items_user_id_status_idx" ON "request_items" USING btree ("user_id","status");--> statement-breakpoint
ALTER TABLE "loan_documents" ADD CONSTRAINT "loan_documents_request_item_id_request_items_id_fk" FOREIGN KEY ("request_item_id") REFERENCES "public"."request_items"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "loan_documents_application_id_document_type_key" ON "loan_documents" USING btree ("application_id","document_type") WHERE request_item_id is null;--> statement-breakpoint
CREATE INDEX "loan_documents_request_item_id_idx" ON "loan_documents" USING btree ("request_item_id");--> statement-breakpoint
ALTER TABLE "loan_applications" ADD CONSTRAINT "loan_applications_status_check" CHECK ("loan_applications"."status" in ('pending', 'under_review', 'approved', 'denied', 'incomplete'));--> statement-breakpoint
ALTER TABLE "loan_applications" ADD CONSTRAINT "loan_applications_reviewed_at_check" CHECK ("loan_applications"."status" not in ('approved', 'denied', 'incomplete') or "loan_applications"."reviewed_at" is not null);--> statement-breakpoint
ALTER TABLE "loan_documents" ADD CONSTRAINT "loan_documents_document_type_check" CHECK ("loan_documents"."document_type" in ('id_card_front', 'id_card_back', 'bank_statement_1', 'bank_statement_2', 'bank_statement_3', 'utility_bill', 'collateral_docs', 'signature', 'id_document', 'bank_statement', 'pay_stub', 'tax_return', 'proof_of_address', 'business_license', 'other_document'));--> statement-breakpoint
-- Live updates for the conversation around an application: the payload now also names the
-- application ('app') so an open application page reloads only for its own changes.
CREATE OR REPLACE FUNCTION "portal_notify_change"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  rec record;
  payload jsonb;
  app text;
BEGIN
  IF TG_OP = 'DELETE' THEN rec := OLD; ELSE rec := NEW; END IF;
  payload := jsonb_build_object('t', TG_TABLE_NAME, 'op', TG_OP, 'id', rec.id::text, 'owner', rec.user_id::text);
  IF TG_TABLE_NAME IN ('loan_applications', 'approved_loans', 'request_items') THEN
    payload := payload || jsonb_build_object('status', rec.status);
  END IF;
  IF TG_TABLE_NAME = 'loan_applications' THEN
    app := rec.id::text;
  ELSIF TG_TABLE_NAME <> 'session' THEN
    app := to_jsonb(rec) ->> 'application_id';
  END IF;
  IF app IS NOT NULL THEN
    payload := payload || jsonb_build_object('app', app);
  END IF;
  PERFORM pg_notify('portal_changes', payload::text);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "application_events_notify" AFTER INSERT OR UPDATE OR DELETE ON "application_events"
  FOR EACH ROW EXECUTE FUNCTION "portal_notify_change"();
--> statement-breakpoint
CREATE TRIGGER "request_items_notify" AFTER INSERT OR UPDATE OR DELETE ON "request_items"
  FOR EACH ROW EXECUTE FUNCTION "portal_notify_change"();
--> statement-breakpoint
CREATE TRIGGER "application_messages_notify" AFTER INSERT OR UPDATE OR DELETE ON "application_messages"
  FOR EACH ROW EXECUTE FUNCTION "portal_notify_change"();
--> statement-breakpoint
-- The timeline of applications submitted before it existed: their submission and, if decided, the decision.
INSERT INTO "application_events" ("application_id", "user_id", "kind", "actor_id", "actor_side", "created_at")
  SELECT "id", "user_id", 'submitted', "user_id", 'applicant', "submitted_at" FROM "loan_applications";
--> statement-breakpoint
INSERT INTO "application_events" ("application_id", "user_id", "kind", "actor_id", "actor_side", "created_at")
  SELECT "id", "user_id",
    CASE "status" WHEN 'approved' THEN 'approved' ELSE 'denied' END,
    "reviewed_by", 'staff', "reviewed_at"
  FROM "loan_applications" WHERE "status" IN ('approved', 'denied') AND "reviewed_at" IS NOT NULL;
--> statement-breakpoint
INSERT INTO "application_events" ("application_id", "user_id", "kind", "actor_side", "created_at")
  SELECT "id", "user_id", 'review_started', 'staff', "updated_at" FROM "loan_applications" WHERE "status" = 'under_review';
