/**
 * The applications module's front door: what routes and other modules may use. Everything else in
 * app/server/applications/ is internal; ESLint (no-restricted-imports in eslint.config.js) refuses an import of it
 * from outside the module, so the module can change its insides without touching its callers.
 */
export { getApplicantApplication } from "./applicant-application.server";
export { applicationById, applicationIdsOfSql, applicationOpenSql, applicationsByIds, lockApplication, touchApplication } from "./application-records.server";
export type { ApplicationRecord } from "./application-records.server";
export { approvalAction } from "./approval-proposals.server";
export { addBankAccount, applicationBankAccount, bankAccountsByIds, bankAccountsOfUser, ownBankAccountIdSql, sealedBankAccountsByIds } from "./bank-account-records.server";
export type { BankAccountRecord } from "./bank-account-records.server";
export { assignmentAction } from "./assignment.server";
export { getDashboard } from "./dashboard.server";
export { acceptIdDocument, idDocumentsOf, ID_DOCUMENT_MESSAGES } from "./id-documents.server";
export type { IdDocument } from "./id-documents.server";
export { createDocumentLink, listDocuments, plain, serveSignedDocument } from "./documents.server";
export { clientRecords } from "./client-records.server";
export { draftAction } from "./draft-action.server";
export { applicationExportBatch } from "./export-batches.server";
export type { ApplicationCursor } from "./export-batches.server";
export { decryptSensitive, deleteExpiredDrafts, listDrafts } from "./drafts.server";
export { createOwnDocumentLink, serveOwnDocument } from "./own-documents.server";
export { applicationClocksOf, applicationRecordsOfPerson, applicationTypeAndStatus, openApplicationOf } from "./person-applications.server";
export { deleteDraftsOf, draftsWithDocuments } from "./person-drafts.server";
export { completeSince, regBFlagCutoff, regBFlagged } from "./reg-b-clock.server";
export { regBListPage } from "./reg-b-list.server";
export { migrateBankAccountValues, migrateSsnValues, sealedApplicationValueCount } from "./sealed-migration.server";
export { sealedValue } from "./sealed-values.server";
export { openCompleteBetween, openSubmittedBetween, straddlingMedian } from "./report-figures.server";
export { addRequestDocument, documentsOfRequestItems } from "./request-documents.server";
export { approveApplication, closeAsIncomplete, denyApplication } from "./reviews.server";
export { decideSanctionsMatch, sanctionsDecisionAction } from "./sanctions-decision.server";
export { APPLICANT_COUNTRY, applicationScreeningSubject, screeningSubjectsPage } from "./screening-subjects.server";
export type { ApprovalTerms } from "./reviews.server";
export { applicationPageAction, loadAdminApplication, parseApplicationId } from "./staff-application-page.server";
export { listApplicationsForAdmin, reviewActionFromRequest } from "./staff-applications.server";
export { applicationRow, bankAccountRow, submissionThrottled, submitApplication } from "./submit.server";
export { parseSubmission } from "./upload-parser.server";
export type { FormShape, ParsedSubmission } from "./upload-parser.server";
export { APPLICATION_WITHDRAW_FORM, applicationWithdrawAction } from "./withdraw-action.server";
