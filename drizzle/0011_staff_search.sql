-- Staff search (issue 24, docs/decisions/0043): keyed blind indexes of the SSN / account-number last 4
-- (filled by the submission and, for existing rows, by the encryption migration), and one btree per
-- search kind, each read as a range in index order, so a search reads one page whatever the table size.
CREATE TABLE "client_counts" (
	"name" text PRIMARY KEY NOT NULL,
	"clients" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bank_accounts" ADD COLUMN "account_last4_index" text;--> statement-breakpoint
ALTER TABLE "loan_applications" ADD COLUMN "ssn_last4_index" text;--> statement-breakpoint
CREATE INDEX "bank_accounts_account_last4_index_idx" ON "bank_accounts" USING btree ("account_last4_index","user_id");--> statement-breakpoint
CREATE INDEX "loan_applications_ssn_last4_index_idx" ON "loan_applications" USING btree ("ssn_last4_index","user_id");--> statement-breakpoint
CREATE INDEX "loan_applications_search_phone_idx" ON "loan_applications" USING btree (("phone" collate "C"),"user_id");--> statement-breakpoint
CREATE INDEX "profiles_list_order_idx" ON "profiles" USING btree ("full_name","email","id");--> statement-breakpoint
CREATE INDEX "profiles_search_name_idx" ON "profiles" USING btree ((lower("full_name") collate "C"),"id");--> statement-breakpoint
CREATE INDEX "profiles_search_last_name_idx" ON "profiles" USING btree ((lower(regexp_replace("full_name", '^.*[[:space:]]', '')) collate "C"),"id");--> statement-breakpoint
CREATE INDEX "profiles_search_email_idx" ON "profiles" USING btree ((lower("email") collate "C"),"id");--> statement-breakpoint
CREATE INDEX "profiles_search_email_domain_idx" ON "profiles" USING btree ((lower(split_part("email", '@', 2)) collate "C"),"id");--> statement-breakpoint
CREATE INDEX "profiles_search_phone_idx" ON "profiles" USING btree (("phone" collate "C"),"id");--> statement-breakpoint
-- The client list's total (docs/decisions/0043): applicants are profiles without a staff role, kept
-- in one row by statement triggers on both tables, in the same transaction as the change, so a list
-- reads one row instead of counting every profile. TRUNCATE of either table recounts.
LOCK TABLE "profiles", "user_roles" IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
INSERT INTO "client_counts" ("name", "clients")
  SELECT 'applicants', count(*)::integer FROM "profiles" p
  WHERE NOT EXISTS (SELECT 1 FROM "user_roles" r WHERE r."user_id" = p."id");
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "portal_count_clients_profiles"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  change integer;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE "client_counts" SET "clients" = 0 WHERE "name" = 'applicants';
    RETURN NULL;
  ELSIF TG_OP = 'INSERT' THEN
    SELECT count(*)::integer INTO change FROM new_rows n
    WHERE NOT EXISTS (SELECT 1 FROM "user_roles" r WHERE r."user_id" = n."id");
  ELSE
    SELECT -count(*)::integer INTO change FROM old_rows o
    WHERE NOT EXISTS (SELECT 1 FROM "user_roles" r WHERE r."user_id" = o."id");
  END IF;
  IF change <> 0 THEN
    UPDATE "client_counts" SET "clients" = "clients" + change WHERE "name" = 'applicants';
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- A role given to someone with a profile takes them off the list; a role removed (or moved to
-- another person) puts them back. An UPDATE that keeps user_id changes nothing.
CREATE OR REPLACE FUNCTION "portal_count_clients_roles"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  change integer := 0;
  added integer := 0;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE "client_counts" SET "clients" = (SELECT count(*)::integer FROM "profiles") WHERE "name" = 'applicants';
    RETURN NULL;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    SELECT count(DISTINCT o."user_id")::integer INTO change FROM old_rows o
    WHERE EXISTS (SELECT 1 FROM "profiles" p WHERE p."id" = o."user_id")
      AND NOT EXISTS (SELECT 1 FROM "user_roles" r WHERE r."user_id" = o."user_id");
  END IF;
  IF TG_OP = 'INSERT' THEN
    SELECT count(DISTINCT n."user_id")::integer INTO added FROM new_rows n
    WHERE EXISTS (SELECT 1 FROM "profiles" p WHERE p."id" = n."user_id");
  ELSIF TG_OP = 'UPDATE' THEN
    SELECT count(DISTINCT n."user_id")::integer INTO added FROM new_rows n
    WHERE EXISTS (SELECT 1 FROM "profiles" p WHERE p."id" = n."user_id")
      AND n."user_id" NOT IN (SELECT o."user_id" FROM old_rows o);
  END IF;
  change := change - added;
  IF change <> 0 THEN
    UPDATE "client_counts" SET "clients" = "clients" + change WHERE "name" = 'applicants';
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "profiles_count_insert" AFTER INSERT ON "profiles"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "portal_count_clients_profiles"();
--> statement-breakpoint
CREATE TRIGGER "profiles_count_delete" AFTER DELETE ON "profiles"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "portal_count_clients_profiles"();
--> statement-breakpoint
CREATE TRIGGER "profiles_count_truncate" AFTER TRUNCATE ON "profiles"
  FOR EACH STATEMENT EXECUTE FUNCTION "portal_count_clients_profiles"();
--> statement-breakpoint
CREATE TRIGGER "user_roles_count_insert" AFTER INSERT ON "user_roles"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "portal_count_clients_roles"();
--> statement-breakpoint
CREATE TRIGGER "user_roles_count_update" AFTER UPDATE ON "user_roles"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "portal_count_clients_roles"();
--> statement-breakpoint
CREATE TRIGGER "user_roles_count_delete" AFTER DELETE ON "user_roles"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "portal_count_clients_roles"();
--> statement-breakpoint
CREATE TRIGGER "user_roles_count_truncate" AFTER TRUNCATE ON "user_roles"
  FOR EACH STATEMENT EXECUTE FUNCTION "portal_count_clients_roles"();
