/**
 * The retention module's front door: what routes and other modules may use. Everything else in
 * app/server/retention/ is internal; ESLint (no-restricted-imports in eslint.config.js) refuses an import of it
 * from outside the module, so the module can change its insides without touching its callers.
 */
export { startRetentionJob } from "./daily-job.server";
export { APPLICATION_RETENTION } from "./policy.server";
export { retentionCommand } from "./retention-command.server";
export { referencedStorageKeys } from "./stored-keys.server";
