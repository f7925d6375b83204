-- audit_log is append-only: rows can be inserted and read, never changed or removed.
-- A row trigger refuses UPDATE and DELETE, a statement trigger refuses TRUNCATE.
-- (Retention, if ever needed, is a deliberate migration that drops these triggers.)
CREATE OR REPLACE FUNCTION "audit_log_refuse_change"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only (% refused)', TG_OP
    USING ERRCODE = 'P0001', HINT = 'Audit entries can only be inserted.';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "audit_log_no_update_or_delete"
  BEFORE UPDATE OR DELETE ON "audit_log"
  FOR EACH ROW EXECUTE FUNCTION "audit_log_refuse_change"();
--> statement-breakpoint
CREATE TRIGGER "audit_log_no_truncate"
  BEFORE TRUNCATE ON "audit_log"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_log_refuse_change"();
