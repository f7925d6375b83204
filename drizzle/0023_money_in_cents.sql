-- Money becomes integer cents and rates integer thousandths of a percent (decision 0078). Each dollar
-- column is converted in place (numeric(14,2) × 100 and numeric(5,2) × 1000 are exact integers, so
-- round() only changes the type) and renamed for its unit. approved_loans held its terms twice: the
-- integer amount_cents, payment_cents and note_rate_milli stay, their dollar copies go.
ALTER TABLE "approval_proposals" DROP CONSTRAINT "approval_proposals_approved_amount_check";
--> statement-breakpoint
ALTER TABLE "approved_loans" DROP CONSTRAINT "approved_loans_approved_amount_check";
--> statement-breakpoint
ALTER TABLE "approved_loans" DROP CONSTRAINT "approved_loans_balance_check";
--> statement-breakpoint
ALTER TABLE "approved_loans" DROP CONSTRAINT "approved_loans_monthly_payment_check";
--> statement-breakpoint
ALTER TABLE "approved_loans" DROP CONSTRAINT "approved_loans_interest_rate_check";
--> statement-breakpoint
ALTER TABLE "loan_applications" DROP CONSTRAINT "loan_applications_requested_amount_check";
--> statement-breakpoint
ALTER TABLE "loan_applications" DROP CONSTRAINT "loan_applications_desired_interest_rate_check";
--> statement-breakpoint
ALTER TABLE "loan_applications" DROP CONSTRAINT "loan_applications_monthly_income_check";
--> statement-breakpoint
ALTER TABLE "loan_applications" DROP CONSTRAINT "loan_applications_annual_income_check";
--> statement-breakpoint
ALTER TABLE "loan_applications" DROP CONSTRAINT "loan_applications_monthly_debts_check";
--> statement-breakpoint
ALTER TABLE "loan_applications" ALTER COLUMN "requested_amount" SET DATA TYPE bigint USING round("requested_amount" * 100)::bigint;
--> statement-breakpoint
ALTER TABLE "loan_applications" RENAME COLUMN "requested_amount" TO "requested_amount_cents";
--> statement-breakpoint
ALTER TABLE "loan_applications" ALTER COLUMN "desired_interest_rate" SET DATA TYPE integer USING round("desired_interest_rate" * 1000)::integer;
--> statement-breakpoint
ALTER TABLE "loan_applications" RENAME COLUMN "desired_interest_rate" TO "desired_rate_milli";
--> statement-breakpoint
ALTER TABLE "loan_applications" ALTER COLUMN "monthly_income" SET DATA TYPE bigint USING round("monthly_income" * 100)::bigint;
--> statement-breakpoint
ALTER TABLE "loan_applications" RENAME COLUMN "monthly_income" TO "monthly_income_cents";
--> statement-breakpoint
ALTER TABLE "loan_applications" ALTER COLUMN "annual_income" SET DATA TYPE bigint USING round("annual_income" * 100)::bigint;
--> statement-breakpoint
ALTER TABLE "loan_applications" RENAME COLUMN "annual_income" TO "annual_income_cents";
--> statement-breakpoint
ALTER TABLE "loan_applications" ALTER COLUMN "monthly_debts" SET DATA TYPE bigint USING round("monthly_debts" * 100)::bigint;
--> statement-breakpoint
ALTER TABLE "loan_applications" RENAME COLUMN "monthly_debts" TO "monthly_debts_cents";
--> statement-breakpoint
ALTER TABLE "approval_proposals" ALTER COLUMN "approved_amount" SET DATA TYPE bigint USING round("approved_amount" * 100)::bigint;
--> statement-breakpoint
ALTER TABLE "approval_proposals" RENAME COLUMN "approved_amount" TO "approved_amount_cents";
--> statement-breakpoint
ALTER TABLE "approval_proposals" ALTER COLUMN "interest_rate" SET DATA TYPE integer USING round("interest_rate" * 1000)::integer;
--> statement-breakpoint
ALTER TABLE "approval_proposals" RENAME COLUMN "interest_rate" TO "interest_rate_milli";
--> statement-breakpoint
ALTER TABLE "approval_proposals" ALTER COLUMN "origination_fee_percent" SET DATA TYPE integer USING round("origination_fee_percent" * 1000)::integer;
--> statement-breakpoint
ALTER TABLE "approval_proposals" RENAME COLUMN "origination_fee_percent" TO "origination_fee_milli";
--> statement-breakpoint
ALTER TABLE "approved_loans" ALTER COLUMN "balance" SET DATA TYPE bigint USING round("balance" * 100)::bigint;
--> statement-breakpoint
ALTER TABLE "approved_loans" RENAME COLUMN "balance" TO "balance_cents";
--> statement-breakpoint
ALTER TABLE "approved_loans" DROP COLUMN "approved_amount";
--> statement-breakpoint
ALTER TABLE "approved_loans" DROP COLUMN "monthly_payment";
--> statement-breakpoint
ALTER TABLE "approved_loans" DROP COLUMN "interest_rate";
--> statement-breakpoint
ALTER TABLE "approval_proposals" ADD CONSTRAINT "approval_proposals_approved_amount_cents_check" CHECK ("approval_proposals"."approved_amount_cents" > 0);
--> statement-breakpoint
ALTER TABLE "approved_loans" ADD CONSTRAINT "approved_loans_amount_cents_check" CHECK ("approved_loans"."amount_cents" > 0);
--> statement-breakpoint
ALTER TABLE "approved_loans" ADD CONSTRAINT "approved_loans_balance_cents_check" CHECK ("approved_loans"."balance_cents" >= 0);
--> statement-breakpoint
ALTER TABLE "approved_loans" ADD CONSTRAINT "approved_loans_payment_cents_check" CHECK ("approved_loans"."payment_cents" >= 0);
--> statement-breakpoint
ALTER TABLE "approved_loans" ADD CONSTRAINT "approved_loans_note_rate_milli_check" CHECK ("approved_loans"."note_rate_milli" between 0 and 100000);
--> statement-breakpoint
ALTER TABLE "loan_applications" ADD CONSTRAINT "loan_applications_requested_amount_cents_check" CHECK ("loan_applications"."requested_amount_cents" > 0);
--> statement-breakpoint
ALTER TABLE "loan_applications" ADD CONSTRAINT "loan_applications_desired_rate_milli_check" CHECK ("loan_applications"."desired_rate_milli" between 5990 and 35990);
--> statement-breakpoint
ALTER TABLE "loan_applications" ADD CONSTRAINT "loan_applications_monthly_income_cents_check" CHECK ("loan_applications"."monthly_income_cents" >= 0);
--> statement-breakpoint
ALTER TABLE "loan_applications" ADD CONSTRAINT "loan_applications_annual_income_cents_check" CHECK ("loan_applications"."annual_income_cents" is null or "loan_applications"."annual_income_cents" >= 0);
--> statement-breakpoint
ALTER TABLE "loan_applications" ADD CONSTRAINT "loan_applications_monthly_debts_cents_check" CHECK ("loan_applications"."monthly_debts_cents" is null or "loan_applications"."monthly_debts_cents" >= 0);
