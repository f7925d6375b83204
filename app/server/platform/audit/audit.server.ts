import type { DbOrTx } from "~/server/platform/mail/outbox.server";
import { auditLog } from "~/server/platform/db/schema.server";

/**
 * The append-only audit trail (the database refuses UPDATE, DELETE and TRUNCATE on it). Every admin
 * read of client data, reveal, document link, decision and migration writes one row, in the same
 * transaction as the act where there is one.
 */

export type AuditActor = { id: string; name: string; email: string };
export type RequestInfo = { ip?: string | null; userAgent?: string | null };
/**
 * Who is asking a service to act: the person (an audit actor, or the module's own viewer type) and the
 * request's address and agent, which every audit row of the act records. One parameter, so a service's
 * signature reads (input, caller, db, now) everywhere.
 */
export type Caller<A = AuditActor> = { actor: A; request: RequestInfo };

export type AuditAction =
  | "application.approve"
  | "application.deny"
  | "application.note"
  | "application.view"
  | "application.start_review"
  | "application.close_incomplete"
  | "application.withdraw"
  | "applications.list"
  | "client.list"
  | "client.view"
  | "ssn.reveal"
  | "bank.reveal"
  | "document.list"
  | "document.link"
  | "document.download"
  | "encryption.migrate"
  | "testimonial.moderate"
  | "contact.list"
  | "conversations.list"
  | "contact.update"
  | "records.dispose"
  | "storage.orphan_sweep"
  | "job.retry"
  | "admin.mfa"
  | "request.create"
  | "request.accept"
  | "request.reject"
  | "message.send"
  // The offer and the agreement.
  | "offer.withdraw"
  | "offer.terms_recorded"
  | "offer.decline"
  | "offer.expire"
  | "esign.consent"
  | "esign.withdraw"
  | "agreement.sign"
  | "agreement.download"
  // Servicing.
  | "loan.view"
  | "collections.queue_view"
  | "loan.collector_assign"
  | "collections.contact"
  | "collections.promise"
  | "collections.promise_cancel"
  | "collections.promise_kept"
  | "collections.promise_reopened"
  | "collections.promise_broken"
  | "loans.list"
  | "payment.post"
  | "payment.reverse"
  | "payment.settle"
  | "payment.return"
  | "payment.authorize"
  | "autopay.authorize"
  | "autopay.change"
  | "autopay.cancel"
  | "autopay.queue"
  | "autopay.end"
  | "payment.cancel"
  | "payment.refund_due"
  | "payment.refund"
  | "payment_account.change"
  | "bank_account.validation"
  | "bank_account.restriction_clear"
  | "fee.assess"
  | "fee.waive"
  | "loan.terms_recorded"
  | "loan.fund_prepare"
  | "loan.fund_release"
  | "loan.fund_cancel"
  | "loan.fund_settle"
  | "loan.fund_return"
  | "loan.cancel"
  | "loan.fee_collected"
  | "document.accept_id"
  | "ach.export"
  | "ach.return_import"
  | "loan.flag_resolve"
  | "loan_tape.export"
  | "servicing.document"
  // Charge-off, recovery, settlement and protected borrowers.
  | "loan.charge_off"
  | "loan.charge_off_propose"
  | "loan.charge_off_reject"
  | "loan.settle"
  | "loan.protection_record"
  | "loan.protection_end"
  // Hardship: the borrower's request for help, the plans staff offer and the borrower signs.
  | "hardship.request"
  | "hardship.close"
  | "plan.offer"
  | "plan.withdraw"
  | "plan.decline"
  | "plan.sign"
  | "plan.download"
  // Staff, four-eyes approval, assignment, reports and exports.
  | "staff.invite"
  | "staff.invite_revoke"
  | "staff.invite_accept"
  | "staff.role_change"
  | "staff.deactivate"
  | "staff.mfa_reset"
  | "approval.propose"
  | "approval.confirm"
  | "approval.send_back"
  | "application.assign"
  | "reports.view"
  | "applications.export"
  | "audit.export"
  // Sanctions screening: a potential match decided by staff.
  | "sanctions.clear"
  | "sanctions.confirm"
  // The applicant's own account.
  | "account.update"
  | "account.email_change"
  | "account.password_change"
  | "account.sessions_revoke"
  | "account.notifications"
  | "account.mfa_enable"
  | "account.mfa_disable"
  | "account.mfa_verify"
  | "account.close"
  | "privacy.accept"
  | "passkey.add"
  | "passkey.remove"
  | "passkey.sign_in"
  | "data_export.request"
  | "data_export.ready"
  | "data_export.failed"
  | "data_export.download";

export async function writeAudit(
  db: DbOrTx,
  entry: {
    actor: AuditActor | null;
    action: AuditAction;
    table?: string;
    recordId?: string | null;
    details?: Record<string, unknown>;
    request?: RequestInfo;
  },
): Promise<void> {
  await db.insert(auditLog).values({
    actorId: entry.actor?.id ?? null,
    actorName: entry.actor?.name ?? null,
    actorEmail: entry.actor?.email ?? null,
    action: entry.action,
    tableName: entry.table ?? null,
    recordId: entry.recordId ?? null,
    details: entry.details ?? {},
    ipAddress: entry.request?.ip ?? null,
    userAgent: entry.request?.userAgent?.slice(0, 500) ?? null,
  });
}
