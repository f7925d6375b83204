ALTER TABLE "bank_account_validations" DROP CONSTRAINT "bank_account_validations_ach_batch_id_ach_batches_id_fk";
--> statement-breakpoint
ALTER TABLE "loan_fundings" DROP CONSTRAINT "loan_fundings_ach_batch_id_ach_batches_id_fk";
--> statement-breakpoint
ALTER TABLE "bank_account_validations" ADD CONSTRAINT "bank_account_validations_ach_batch_id_ach_batches_id_fk" FOREIGN KEY ("ach_batch_id") REFERENCES "public"."ach_batches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_fundings" ADD CONSTRAINT "loan_fundings_ach_batch_id_ach_batches_id_fk" FOREIGN KEY ("ach_batch_id") REFERENCES "public"."ach_batches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bank_account_validations_bank_account_id_idx" ON "bank_account_validations" USING btree ("bank_account_id","created_at");