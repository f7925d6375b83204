/**
 * The accounts module's front door: what routes and other modules may use. Everything else in
 * app/server/accounts/ is internal; ESLint (no-restricted-imports in eslint.config.js) refuses an import of it
 * from outside the module, so the module can change its insides without touching its callers.
 */
export { accountIdWithEmail, deleteAccount, markEmailVerified } from "./account-records.server";
export { ensureAdmin, ensureStaff } from "./admins.server";
export { applicantProfile, applicantProfilesPage } from "./applicant-profiles.server";
export { authFormError, parseAuthForm } from "./auth-form.server";
export { getAuth } from "./auth.server";
export { startDataExportJob } from "./data-export-job.server";
export { openDataExport } from "./data-export.server";
export { accountDataAction, loadAccountData } from "./data.server";
export { checkResetLink, requestPasswordReset, resetPassword, sendSignUpCode, signIn, signOut, signUp } from "./flows.server";
export type { FlowResult } from "./flows.server";
export { anyone, maybeSignedIn, signedIn, signedInBeforeSecondFactor, staffBeforeSecondFactor, staffWith } from "./guards.server";
export { confirmEnrolment, getMfaState, isSessionVerified, MFA_SECRET_PURPOSE, pendingEnrolment, startEnrolment, verifySession } from "./mfa.server";
export { migrateMfaSecrets, mfaSecretCount } from "./mfa-secret-migration.server";
export { passkeyAction } from "./passkey-sign-in.server";
export { accountNamesIn, peopleByIds, personById } from "./people.server";
export { personSearchReads } from "./person-search.server";
export type { Person } from "./people.server";
export { hashPassword } from "./password-hash.server";
export { accountNameOf } from "./people-sql.server";
export { acceptCurrentPrivacyNotice, acceptedPrivacyNoticeVersion, currentPrivacyNoticeVersion, signInLanding } from "./privacy-notice.server";
export { accountSecurityAction, loadAccountSecurity } from "./security.server";
export { remindersTurnedOff } from "./reminder-preferences.server";
export { profileStatesByIds } from "./profile-states.server";
export { recheckSessions } from "./session-recheck.server";
export { getOptionalUser, getSessionUser, landingPath, requireStaff, requireUser, safeRedirectPath } from "./session.server";
export type { SessionUser } from "./session.server";
export { accountSettingsAction, loadAccountSettings } from "./settings.server";
export { endAllSessions } from "./sessions.server";
export { removeSecondFactor, staffMemberAccounts } from "./staff-member-accounts.server";
export { removeAllPasskeys } from "./webauthn.server";
