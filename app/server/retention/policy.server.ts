/**
 * How long each kind of record is kept, and what starts its clock. The disposal job
 * (disposal.server.ts) reads its periods from here; docs/security.md prints the same table.
 *
 * Legal floor for applications: Regulation B (12 CFR 1002.12(b)) requires a creditor to keep an
 * application and the records of the action taken on it for 25 months after notifying the applicant.
 * The FTC Safeguards Rule (16 CFR 314.4(c)(6)) asks for disposal no later than two years after last
 * use unless law or a legitimate business purpose requires longer. The published privacy notice
 * (app/content/legal/privacy.ts) promises about 7 years after the decision or the loan's end, which
 * covers Regulation B and the state lending-record rules the lender is subject to; changing the
 * period here means changing that notice too.
 */

export type RetentionPeriod = { months: number } | { days: number };

export type RetentionRule = {
  /** What the record is, as staff would name it. */
  readonly record: string;
  /** Tables (and file kinds) covered. */
  readonly holds: readonly string[];
  /** null: never removed by the disposal job (see `why`). */
  readonly period: RetentionPeriod | null;
  /** The instant the period is counted from. */
  readonly clock: string;
  readonly why: string;
};

export const APPLICATION_RETENTION = { months: 84 } as const satisfies RetentionPeriod;

/** An application's records go together: the application, its documents (rows and files) and bank account. */
const APPLICATION_RECORDS = ["loan_applications", "loan_documents", "bank_accounts", "document files"] as const;

/** Application records, kept the privacy notice's 7 years from `clock`. */
const applicationRecords = (extraTables: readonly string[] = []) => ({
  holds: [...extraTables, ...APPLICATION_RECORDS],
  period: APPLICATION_RETENTION,
});

/** Records that stop working at their expiry (expires_at), removed once `graceDays` have passed since. */
const afterExpiry = (table: string, graceDays: number) => ({
  period: { days: graceDays },
  clock: `its expiry (${table}.expires_at)`,
});

export const RETENTION_POLICY = {
  decidedApplication: {
    record: "Loan application that was approved or denied (no loan opened), with its documents and bank account",
    ...applicationRecords(),
    clock: "the decision (loan_applications.reviewed_at)",
    why: "Regulation B keeps application and decision records 25 months at least; the privacy notice promises 7 years.",
  },
  closedLoanApplication: {
    record: "Approved application whose loan was paid off or closed, with the loan record, documents and bank account",
    ...applicationRecords(["approved_loans"]),
    clock: "the loan's last change once it is paid_off or closed (approved_loans.updated_at); never while active",
    why: "A loan in servicing is in use; after it ends the same 7 years as a decision apply (privacy notice).",
  },
  withdrawnApplication: {
    record: "Loan application the applicant withdrew before a decision, with its documents and bank account",
    ...applicationRecords(),
    clock: "the withdrawal (loan_applications.withdrawn_at)",
    why:
      "Regulation B keeps the records of a withdrawn application as of any other (12 CFR 1002.12(b)); no notice " +
      "of action is owed (1002.9(e)), so the withdrawal starts the same 7 years a decision would.",
  },
  undecidedApplication: {
    record: "Loan application never decided (pending or under review)",
    ...applicationRecords(),
    clock: "its last change (loan_applications.updated_at)",
    why:
      "Regulation B's clock starts at a notice of action, which an undecided application never had; counting the " +
      "same 7 years from its last activity keeps it at least as long as a decided one, and no record lives forever.",
  },
  contactMessage: {
    record: "Contact-form message",
    holds: ["contact_messages"],
    period: { months: 24 },
    clock: "its receipt (contact_messages.created_at)",
    why: "Answered long before; the Safeguards Rule's two years after last use is the ceiling.",
  },
  sentEmail: {
    record: "E-mail sent through the outbox",
    holds: ["email_outbox (status sent)"],
    period: { days: 30 },
    clock: "its sending (email_outbox.sent_at)",
    why: "Kept only to investigate delivery questions; the decision itself is in the application and the audit log.",
  },
  failedEmail: {
    record: "E-mail the outbox gave up on",
    holds: ["email_outbox (status failed)"],
    period: { days: 90 },
    clock: "its creation (email_outbox.created_at)",
    why: "Long enough to investigate a mail outage and resend by hand.",
  },
  session: {
    record: "Sign-in session (and its second-factor mark)",
    holds: ["session", "session_mfa"],
    ...afterExpiry("session", 0),
    why: "An expired session authenticates nothing; its IP address and user agent serve no purpose after.",
  },
  verificationToken: {
    record: "Password-reset and other Better Auth verification tokens",
    holds: ["verification"],
    ...afterExpiry("verification", 1),
    why: "Refused once expired; a day's grace keeps them visible while investigating a fresh complaint.",
  },
  emailCode: {
    record: "Sign-up e-mail code (hash only)",
    holds: ["email_verification_codes"],
    ...afterExpiry("email_verification_codes", 1),
    why: "Valid 10 minutes; the sign-up that consumed it happened within that time.",
  },
  rateLimitCounter: {
    record: "Throttle counters and used captcha challenges",
    holds: ["rate_limit_hits", "rate_limit"],
    period: { days: 1 },
    clock: "the window's start (rate_limit_hits.window_start; rate_limit.last_request)",
    why: "Every throttle window is at most 15 minutes; keys hold hashed e-mail addresses or IP addresses.",
  },
  dataExport: {
    record: "Download My Data file (ZIP) and its request",
    holds: ["data_exports", "export files (exports/)"],
    ...afterExpiry("data_exports", 0),
    why: "The link works 24 hours; after that the file is a copy of personal data with no use. Failed requests go a day after they were made.",
  },
  applicationDraft: {
    record: "Save and Finish Later draft of an application, with its uploaded documents",
    holds: ["application_drafts", "draft_documents", "draft document files"],
    ...afterExpiry("application_drafts", 0),
    why:
      "A draft is never submitted to the lender; 30 days after its last save (its expires_at) it is removed with its files. " +
      "Submitting turns it into the application at once, and Close My Account removes it.",
  },
  achFile: {
    record: "NACHA file of borrower debits sent to the bank (encrypted: full account and routing numbers)",
    holds: ["ach_batches"],
    period: { months: 72 },
    clock: "its creation (ach_batches.created_at)",
    why:
      "The NACHA Operating Rules have originators keep a record of each entry for six years; the payments it held " +
      "stay on their loans (loan_payments.ach_batch_id is cleared), so the file itself goes when the six years end.",
  },
  achTraceSequence: {
    record: "The last ACH trace number used per originating bank and day",
    holds: ["ach_trace_sequences"],
    period: { days: 7 },
    clock: "its day (ach_trace_sequences.day)",
    why: "Trace numbers must be unique per originator and day; a past day's counter is never read again.",
  },
  closedAccount: {
    record: "Closed applicant account (user row, profile, sign-in and consent records)",
    holds: ["user", "profiles", "account", "privacy_acceptances", "testimonials"],
    period: { days: 0 },
    clock: "the closing (profiles.closed_at), once no application or loan of theirs is kept any longer",
    why:
      "Close My Account deletes sessions, drafts, passkeys and preferences at once; the account row stays " +
      "only while records the law requires (applications, loans, consents) still point at it (foreign key RESTRICT).",
  },
  account: {
    record: "Applicant or staff account and profile",
    holds: ["user", "profiles", "account", "user_roles", "admin_mfa", "two_factor", "testimonials"],
    period: null,
    clock: "—",
    why:
      "Kept while the account is open. An applicant with applications cannot be deleted (foreign key RESTRICT); " +
      "an applicant closes their own account with Close My Account (see closedAccount).",
  },
  auditLog: {
    record: "Audit log (who read, revealed, decided or disposed of what)",
    holds: ["audit_log"],
    period: null,
    clock: "—",
    why:
      "Append-only by design: the database refuses UPDATE, DELETE and TRUNCATE (drizzle/0001). It holds staff " +
      "names and e-mail addresses, IP addresses and record ids, never SSNs, bank numbers or document contents. " +
      "Purging it would take a deliberate migration that drops the triggers.",
  },
} as const satisfies Record<string, RetentionRule>;

export type RetentionKey = keyof typeof RETENTION_POLICY;

/** The instant before which a record whose clock started is expired (calendar months, in UTC). */
export function cutoffFor(period: RetentionPeriod, now: Date): Date {
  const cutoff = new Date(now.getTime());
  if (!("months" in period)) {
    cutoff.setUTCDate(cutoff.getUTCDate() - period.days);
    return cutoff;
  }
  // 31 March minus one month is 28/29 February, not 3 March: a record is never disposed days early.
  const day = cutoff.getUTCDate();
  cutoff.setUTCDate(1);
  cutoff.setUTCMonth(cutoff.getUTCMonth() - period.months);
  const lastDay = new Date(Date.UTC(cutoff.getUTCFullYear(), cutoff.getUTCMonth() + 1, 0)).getUTCDate();
  cutoff.setUTCDate(Math.min(day, lastDay));
  return cutoff;
}
