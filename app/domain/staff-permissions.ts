import type { UserRole } from "./enums";

/**
 * Who on the staff may do what. Every staff loader and action asks `can(role, permission)`
 * through requireStaff (app/server/accounts/session.server.ts); no route compares role names. Separation of
 * duties: the auditor reads (lists, reports, the audit log, exports) and changes nothing and reveals
 * nothing; the loan officer works applications but never moves money, moderates the public site,
 * manages staff or runs the key migration; four-eyes approval above the limit is a rule of its own
 * (app/server/applications/approval-proposals.server.ts), whatever the role.
 */

export type StaffRole = UserRole;

export const STAFF_ROLE_LABELS: Record<StaffRole, string> = {
  admin: "Admin",
  loan_officer: "Loan Officer",
  auditor: "Auditor",
};

export const PERMISSIONS = {
  /** Staff pages: lists, an application or loan read-only, the audit log, reports, CSV exports. */
  "staff.read": ["admin", "loan_officer", "auditor"],
  /** Work an application: review, requests, messages, notes, assignment, approve / deny / close, offers. */
  "applications.work": ["admin", "loan_officer"],
  /** See a full SSN or bank number, open a document or a signed agreement (each audited). */
  "sensitive.reveal": ["admin", "loan_officer"],
  /** Post, reverse, settle and return payments; build and download ACH (NACHA) files. */
  "servicing.manage": ["admin"],
  /**
   * Work late loans: the collections queue (assign, log contact, promise to pay), hardship plans offered
   * to a borrower, protected-borrower records. Charge-off and settlement move money: servicing.manage.
   */
  "collections.work": ["admin", "loan_officer"],
  /** Moderate testimonials and the contact inbox. */
  "content.moderate": ["admin", "loan_officer"],
  /** Re-encrypt stored values with the newest key. */
  "security.manage": ["admin"],
  /** Start a failed background job again (Retry on the monitoring page's Jobs section). */
  "jobs.run": ["admin"],
  /** Invite staff, change roles, deactivate, reset another's second factor. */
  "staff.manage": ["admin"],
} as const satisfies Record<string, readonly StaffRole[]>;

export type Permission = keyof typeof PERMISSIONS;

export function can(role: StaffRole | null | undefined, permission: Permission): boolean {
  return role != null && (PERMISSIONS[permission] as readonly StaffRole[]).includes(role);
}

/** The permissions a role holds, for pages that hide controls the server would refuse anyway. */
export function permissionsOf(role: StaffRole | null | undefined): Record<Permission, boolean> {
  return Object.fromEntries(Object.keys(PERMISSIONS).map((p) => [p, can(role, p as Permission)])) as Record<Permission, boolean>;
}

export const ACCESS_DENIED_FOR_ROLE = "Your staff role does not allow this.";
