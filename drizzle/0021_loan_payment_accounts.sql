CREATE TABLE "loan_payment_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"loan_id" uuid NOT NULL,
	"bank_account_id" uuid NOT NULL,
	"is_current" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"replaced_at" timestamp with time zone,
	CONSTRAINT "loan_payment_accounts_replaced_when_not_current_check" CHECK ("loan_payment_accounts"."is_current" = ("loan_payment_accounts"."replaced_at" is null))
);
--> statement-breakpoint
ALTER TABLE "loan_payment_accounts" ADD CONSTRAINT "loan_payment_accounts_loan_id_approved_loans_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."approved_loans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_payment_accounts" ADD CONSTRAINT "loan_payment_accounts_bank_account_id_bank_accounts_id_fk" FOREIGN KEY ("bank_account_id") REFERENCES "public"."bank_accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "loan_payment_accounts_one_current_idx" ON "loan_payment_accounts" USING btree ("loan_id") WHERE "loan_payment_accounts"."is_current";--> statement-breakpoint
CREATE INDEX "loan_payment_accounts_loan_id_idx" ON "loan_payment_accounts" USING btree ("loan_id","created_at");--> statement-breakpoint
CREATE INDEX "loan_payment_accounts_bank_account_id_idx" ON "loan_payment_accounts" USING btree ("bank_account_id");