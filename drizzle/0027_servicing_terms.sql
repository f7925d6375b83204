-- The servicing terms a borrower signs, stored on the offer and copied to the loan at signing. Rows made
-- before are filled by the start-up step with the lender's settings in force then, one audit row each.
ALTER TABLE "approved_loans" ADD COLUMN "servicing_terms" jsonb;--> statement-breakpoint
ALTER TABLE "loan_offers" ADD COLUMN "servicing_terms" jsonb;
