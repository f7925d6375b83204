/**
 * The loans module's front door: what routes and other modules may use. Everything else in
 * app/server/loans/ is internal; ESLint (no-restricted-imports in eslint.config.js) refuses an import of it
 * from outside the module, so the module can change its insides without touching its callers.
 */
export { createAchBatch, downloadAchBatch, loadAchPage, refundAchEntry, returnAchEntry, settleAchEntry } from "./ach-batches.server";
export type { AchBatchSummary, BatchCredit, BatchEntry, BatchPrenote, EntrySource, PendingDebit, PendingPrenote, RefundDue } from "./ach-batches.server";
export { achFileCount, migrateAchFiles } from "./ach-file-migration.server";
export { serveLoanDocument } from "./borrower-documents.server";
export { loadBorrowerLoan } from "./borrower-loan.server";
export { borrowerLoanAction } from "./borrower-payments.server";
export { cancelDebit } from "./debit-cancellation.server";
export { loadLedger } from "./ledger.server";
export { openLoan } from "./loan-opening.server";
export { loansOfBorrower, loanTermsByApplication } from "./loan-records.server";
export { recordPayment } from "./payments.server";
export { hasCurrentLoan, loanRecordsOfPerson, loanStatesByApplicationIds } from "./person-loans.server";
export { runServicingJobs, startServicingJob } from "./servicing-jobs.server";
export { clearServicingMarks } from "./servicing-marks.server";
export { exportLoanTape, listLoans, loadStaffLoan, loanPageAction, parseLoanId, parseLoansUrl } from "./staff-loans.server";
export { recordLoanTermsInForce } from "./loan-terms-in-force.server";
export { claimFundingCredits, fundingCreditsForBatch, FUNDING_SKIP_REASONS } from "./funding.server";
export { fundingNoticesOf } from "./funding-views.server";
export {
  accountValidations,
  recordAccountValidation,
  recordPriorPaymentValidations,
  requestAccountValidation,
  returnPrenote,
  validateMaturedPrenotes,
} from "./account-validations.server";
export { accountValidationPanel, recordValidationIntent } from "./account-validation-panel.server";
export { makePayment } from "./borrower-payments.server";
export { returnedDebitsView } from "./returned-debits.server";
export type { ReturnReactionResult } from "./ach-return-reactions.server";
export { achReturnsCommand } from "./ach-returns-command.server";
export { AchReturnFileRefused, importAchReturns } from "./ach-return-import.server";
export { loanAccountRestrictions, openLoanFlags, resolveLoanFlag, returnRates } from "./ach-returns-panel.server";
export { ACH_RETURN_FILE_MAX_BYTES } from "./ach-return-file.server";
export { cancelAutopay, changeAutopay, setUpAutopay } from "./autopay.server";
export type { AutopayResult } from "./autopay.server";
export { queueAutopayDebits } from "./autopay-job.server";
export { currentPaymentAccount } from "./payment-accounts.server";
export { delinquencyReport } from "./delinquency-report.server";
export { runDelinquencyJob } from "./delinquency-job.server";
export { collectionsAction, loanCollectionsPanel } from "./collections.server";
export { collectionsQueuePage, parseCollectionsUrl } from "./collections-queue.server";
export { approveChargeOff, chargeOffAction, chargeOffLoan, chargeOffPanel, rejectChargeOff, settleLoan } from "./charge-off.server";
export { activeProtections, endProtection, protectionAction, protectionsPanel, recordProtection } from "./loan-protections.server";
export { chargeOffAndProtections } from "./charge-off-panels.server";
export { borrowerHardshipAction, staffHardshipAction } from "./hardship-actions.server";
export { borrowerHardship, loadPlanReview, staffHardshipPanel } from "./hardship-views.server";
export { serveModificationFile } from "./modification-file.server";
export { breakPromises, promiseToPay } from "./collections.server";
export { offerPlan, requestHelp, signPlan } from "./hardship-plans.server";
