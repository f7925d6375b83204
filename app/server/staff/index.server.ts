/**
 * The staff module's front door: what routes and other modules may use. Everything else in
 * app/server/staff/ is internal; ESLint (no-restricted-imports in eslint.config.js) refuses an import of it
 * from outside the module, so the module can change its insides without touching its callers.
 */
export { classifySearch, uuidRange } from "./client-search-terms.server";
export { prefixRange } from "./client-search.server";
export { getClientDetail, listClients, parseClientsUrl, parseUserId } from "./clients.server";
export { runEncryptionMigration } from "./encryption-migration.server";
export { exportResponse } from "./exports.server";
export { acceptInvitationAction, invitationForToken } from "./invitations.server";
export { getSecurityOverview, loadMonitoring } from "./monitoring.server";
export { viewPipelineReport } from "./pipeline-report.server";
export { decryptOrLegacy, revealSensitiveValue, revealThrottled } from "./reveal.server";
export { staffAction } from "./staff-actions.server";
export { holdsNoStaffRole } from "./staff-role-filter.server";
export { countAdmins, grantStaffRole, hasActiveStaffRole, staffRoleOf, staffRoleRows } from "./staff-roles.server";
export { listStaff } from "./staff.server";
export { activeStaffIdsSql, holdActiveStaff } from "./working-staff.server";
