-- Live updates: every change to the tables the dashboard and admin views show raises a NOTIFY on
-- channel 'portal_changes' with the table, operation, row id, owner and (where it has one) status.
-- Every server instance LISTENs and forwards each event only to the browsers entitled to it.
-- A deleted session (sign-out, revocation, password reset) is announced too, so its open event
-- streams close at once.
CREATE OR REPLACE FUNCTION "portal_notify_change"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  rec record;
  payload jsonb;
BEGIN
  IF TG_OP = 'DELETE' THEN rec := OLD; ELSE rec := NEW; END IF;
  payload := jsonb_build_object('t', TG_TABLE_NAME, 'op', TG_OP, 'id', rec.id::text, 'owner', rec.user_id::text);
  IF TG_TABLE_NAME IN ('loan_applications', 'approved_loans') THEN
    payload := payload || jsonb_build_object('status', rec.status);
  END IF;
  PERFORM pg_notify('portal_changes', payload::text);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "loan_applications_notify" AFTER INSERT OR UPDATE OR DELETE ON "loan_applications"
  FOR EACH ROW EXECUTE FUNCTION "portal_notify_change"();
--> statement-breakpoint
CREATE TRIGGER "approved_loans_notify" AFTER INSERT OR UPDATE OR DELETE ON "approved_loans"
  FOR EACH ROW EXECUTE FUNCTION "portal_notify_change"();
--> statement-breakpoint
CREATE TRIGGER "bank_accounts_notify" AFTER INSERT OR UPDATE OR DELETE ON "bank_accounts"
  FOR EACH ROW EXECUTE FUNCTION "portal_notify_change"();
--> statement-breakpoint
CREATE TRIGGER "loan_documents_notify" AFTER INSERT OR UPDATE OR DELETE ON "loan_documents"
  FOR EACH ROW EXECUTE FUNCTION "portal_notify_change"();
--> statement-breakpoint
CREATE TRIGGER "session_notify_delete" AFTER DELETE ON "session"
  FOR EACH ROW EXECUTE FUNCTION "portal_notify_change"();
