ALTER TABLE "loan_payments" ADD COLUMN "idempotency_key" uuid;--> statement-breakpoint
ALTER TABLE "loan_payments" ADD CONSTRAINT "loan_payments_loan_id_idempotency_key_key" UNIQUE("loan_id","idempotency_key");
