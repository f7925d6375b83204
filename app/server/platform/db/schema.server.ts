/**
 * The whole database schema (PostgreSQL 15+, the same on embedded PGlite and on a server).
 *
 * Rules worth knowing before editing:
 * - Every enumeration is a text column with a CHECK built from the constant arrays in
 *   app/domain/enums.ts, so forms, server validation and the database share one list.
 * - Sensitive values (SSN, bank account and routing numbers) are stored only as ciphertext
 *   (AES-256-GCM with a key version, produced by the crypto module). The only plaintext parts
 *   are bank_accounts.account_number_last4 and routing_number_last2, which the masked display needs.
 * - Money is integer cents (bigint read as a JS number, `*_cents`) and rates integer thousandths of a
 *   percent (`*_milli`), the units of ~/domain/money: no column holds dollars (decision 0078).
 * - Dates of birth are `date` read as 'yyyy-MM-dd' strings (no time-zone shift); instants are timestamptz.
 * - The Better Auth tables (user, session, account, verification, twoFactor, rateLimit) are exported
 *   under Better Auth's model names with its field names as property names, which is how its Drizzle
 *   adapter addresses them (checked by tests/integration/schema-constraints.test.ts).
 * - audit_log is append-only: a trigger (drizzle/0001_audit_log_append_only.sql) refuses UPDATE,
 *   DELETE and TRUNCATE.
 *
 * Changing this file: run `npx drizzle-kit generate --name <what>` and commit the new migration.
 */
import { relations, sql, type SQL } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  char,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  unique,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { ALLOWED_MIME_TYPES, APPLICATION_STATUSES, APPROVAL_PROPOSAL_STATUSES, DATA_EXPORT_STATUSES, WEBAUTHN_PURPOSES, APPROVED_LOAN_STATUSES, BANK_ACCOUNT_TYPES, CONTACT_MESSAGE_STATUSES, DECIDED_APPLICATION_STATUSES, DOCUMENT_TYPES, EMAIL_OUTBOX_STATUSES, EMPLOYMENT_STATUSES, JOB_NAMES, JOB_RUN_STATUSES, LIMITS, LOAN_DURATIONS, LOAN_TYPES, TESTIMONIAL_STATUSES, USER_ROLES, VERIFICATION_CODE_PURPOSES } from "../../../domain/enums";
import { OPEN_REVIEW_STATUSES } from "../../../domain/application-lifecycle";
import { APPLICATION_EVENT_KINDS, CONVERSATION_SIDES, REQUEST_ITEM_KINDS, REQUEST_ITEM_STATUSES, CONVERSATION_LIMITS } from "../../../domain/conversation-enums";
import type { DenialSource } from "../../../domain/adverse-action";
import { OFFER_LIMITS, OFFER_STATUSES, SIGNATURE_KINDS } from "../../../domain/loan-offers";
import { CHARGE_OFF_REQUEST_STATUSES, COLLECTIONS_LIMITS, CONTACT_CHANNELS, CONTACT_OUTCOMES, HARDSHIP_REASONS, HARDSHIP_REQUEST_STATUSES, MODIFICATION_STATUSES, PROMISE_STATUSES, PROTECTION_KINDS } from "../../../domain/collections-enums";
import { MODIFICATION_KINDS } from "../../../domain/loan-modifications";
import { DELINQUENCY_BUCKET_KEYS } from "../../../domain/delinquency";
import { ACCOUNT_RESTRICTION_KINDS, ACCOUNT_VALIDATION_METHODS, ACCOUNT_VALIDATION_STATUSES, AUTOPAY_AMOUNT_KINDS, AUTOPAY_MAX_DAYS_BEFORE_DUE, AUTOPAY_STATUSES, FUNDING_STATUSES, LOAN_FLAG_KINDS, WEB_PAYMENT_TYPES, LOAN_FEE_KINDS, LOAN_PAYMENT_STATUSES, ORIGINATION_FEE_HANDLINGS, PAYMENT_CHOICES, PAYMENT_METHODS, PAYMENT_SOURCES, SERVICING_NOTICE_KINDS } from "../../../domain/servicing-enums";
import { rateFromPercent } from "../../../domain/money";
import { SANCTIONS_ENTITY_TYPES, SANCTIONS_LISTS, SANCTIONS_MATCH_STATUSES, SANCTIONS_SCREENING_TRIGGERS, type SanctionsAlias, type SanctionsMatch } from "../../../domain/sanctions";
import {
  bytea,
  columnCheck,
  createdAt,
  lit,
  matches,
  cents,
  nonNegative,
  oneOf,
  sqlList,
  textPk,
  timestamps,
  timestamptz,
  updatedAt,
  usContactChecks,
  uuidPk,
  whenPresent,
} from "./columns.server";

// ---------------------------------------------------------------------------------------------
// Better Auth 1.7 core tables, its twoFactor plugin and its database rate-limit storage.
// Field list confirmed against node_modules/@better-auth/core/dist/db/get-tables.mjs and
// node_modules/better-auth/dist/plugins/two-factor/schema.mjs (1.7.25).
// ---------------------------------------------------------------------------------------------

export const user = pgTable("user", {
  id: textPk(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  ...timestamps(),
  /** twoFactor plugin. */
  twoFactorEnabled: boolean("two_factor_enabled").default(false),
});

/** The user a row belongs to: "cascade" for sign-in data, "restrict" for records a lender must keep. */
function userIdRef(onDelete: "cascade" | "restrict") {
  return text("user_id")
    .notNull()
    .references(() => user.id, { onDelete });
}

/** A table with one row per user keyed by the user's id, gone with the user. */
function userIdKey() {
  return text("user_id")
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" });
}

/** When and by which staff member a submission was decided (the reviewer may later be deleted). */
const review = () => ({
  reviewedAt: timestamptz("reviewed_at"),
  reviewedBy: text("reviewed_by").references(() => user.id, { onDelete: "set null" }),
});

/** The application a row belongs to (a function declaration: the tables using it come after it). */
function applicationIdRef(onDelete: "cascade" | "restrict") {
  return uuid("application_id")
    .notNull()
    .references(() => loanApplications.id, { onDelete });
}

/** The loan a servicing row belongs to (a function declaration: approvedLoans comes later), gone with the loan. */
function loanIdRef() {
  return uuid("loan_id")
    .notNull()
    .references(() => approvedLoans.id, { onDelete: "cascade" });
}

export const session = pgTable(
  "session",
  {
    id: textPk(),
    expiresAt: timestamptz("expires_at").notNull(),
    token: text("token").notNull().unique(),
    ...timestamps(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: userIdRef("cascade"),
  },
  (t) => [index("session_user_id_idx").on(t.userId)],
);

export const account = pgTable(
  "account",
  {
    id: textPk(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: userIdRef("cascade"),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamptz("access_token_expires_at"),
    refreshTokenExpiresAt: timestamptz("refresh_token_expires_at"),
    scope: text("scope"),
    password: text("password"),
    ...timestamps(),
  },
  (t) => [index("account_user_id_idx").on(t.userId)],
);

export const verification = pgTable(
  "verification",
  {
    id: textPk(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamptz("expires_at").notNull(),
    ...timestamps(),
  },
  (t) => [index("verification_identifier_idx").on(t.identifier)],
);

/** Better Auth twoFactor plugin (TOTP secret and backup codes, both encrypted by Better Auth). */
export const twoFactor = pgTable(
  "two_factor",
  {
    id: textPk(),
    secret: text("secret").notNull(),
    backupCodes: text("backup_codes").notNull(),
    userId: userIdRef("cascade"),
    verified: boolean("verified").default(true),
    failedVerificationCount: integer("failed_verification_count").default(0),
    lockedUntil: timestamptz("locked_until"),
  },
  (t) => [index("two_factor_secret_idx").on(t.secret), index("two_factor_user_id_idx").on(t.userId)],
);

/** Better Auth rate limiter with `rateLimit: { storage: "database" }` (lastRequest is epoch milliseconds). */
export const rateLimit = pgTable("rate_limit", {
  id: textPk(),
  key: text("key").notNull().unique(),
  count: integer("count").notNull(),
  lastRequest: bigint("last_request", { mode: "number" }).notNull(),
});

// ---------------------------------------------------------------------------------------------
// Product tables
// ---------------------------------------------------------------------------------------------

export const profiles = pgTable(
  "profiles",
  {
    id: text("id")
      .primaryKey()
      .references(() => user.id, { onDelete: "cascade" }),
    fullName: text("full_name").notNull(),
    email: text("email").notNull(),
    /** 10 digits, no punctuation (formatted for display only). */
    phone: text("phone"),
    address: text("address"),
    city: text("city"),
    state: text("state"),
    zipCode: text("zip_code"),
    /** Close My Account: set when the applicant closed it; no session is created after. */
    closedAt: timestamptz("closed_at"),
    ...timestamps(),
  },
  (t) => [
    ...usContactChecks(t),
    index("profiles_email_lower_idx").on(sql`lower(${t.email})`),
    index("profiles_full_name_lower_idx").on(sql`lower(${t.fullName})`),
    // Staff search (docs/decisions/0043): every kind is a range scan of a btree read in
    // index order. Byte order ("C") so a prefix range [p, p⁺) means the same on any database collation.
    index("profiles_list_order_idx").on(t.fullName, t.email, t.id),
    index("profiles_search_name_idx").on(sql`(lower(${t.fullName}) collate "C")`, t.id),
    index("profiles_search_last_name_idx").on(sql`(lower(regexp_replace(${t.fullName}, '^.*[[:space:]]', '')) collate "C")`, t.id),
    index("profiles_search_email_idx").on(sql`(lower(${t.email}) collate "C")`, t.id),
    index("profiles_search_email_domain_idx").on(sql`(lower(split_part(${t.email}, '@', 2)) collate "C")`, t.id),
    index("profiles_search_phone_idx").on(sql`(${t.phone} collate "C")`, t.id),
  ],
);

export const userRoles = pgTable(
  "user_roles",
  {
    id: uuidPk(),
    userId: userIdRef("cascade"),
    role: text("role", { enum: USER_ROLES }).notNull(),
    createdAt: createdAt(),
    /** A deactivated staff member cannot sign in (every session was ended when this was set). */
    deactivatedAt: timestamptz("deactivated_at"),
    deactivatedBy: text("deactivated_by").references(() => user.id, { onDelete: "set null" }),
  },
  (t) => [
    unique("user_roles_user_id_role_key").on(t.userId, t.role),
    // One staff role per person: the permission table reads a single role.
    uniqueIndex("user_roles_one_role_per_user_idx").on(t.userId),
    oneOf(t.role, USER_ROLES),
  ],
);

/**
 * Staff invitations: a link valid 72 hours (only the SHA-256 of its token is kept), used
 * once to set a password; the second factor is enrolled at /admin/mfa before any staff page opens.
 */
export const staffInvitations = pgTable(
  "staff_invitations",
  {
    id: uuidPk(),
    email: text("email").notNull(),
    name: text("name").notNull(),
    role: text("role", { enum: USER_ROLES }).notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    invitedBy: text("invited_by").references(() => user.id, { onDelete: "set null" }),
    expiresAt: timestamptz("expires_at").notNull(),
    acceptedAt: timestamptz("accepted_at"),
    acceptedUserId: text("accepted_user_id").references(() => user.id, { onDelete: "set null" }),
    /** Set when a newer invitation to the same address replaces it, or an admin cancels it. */
    revokedAt: timestamptz("revoked_at"),
    createdAt: createdAt(),
  },
  (t) => [
    oneOf(t.role, USER_ROLES),
    columnCheck(t.email, sql`char_length(${t.email}) between 3 and 254`),
    columnCheck(t.name, sql`char_length(${t.name}) between 1 and 100`),
    // One open invitation per address.
    uniqueIndex("staff_invitations_open_email_idx").on(sql`lower(${t.email})`).where(sql`${t.acceptedAt} is null and ${t.revokedAt} is null`),
  ],
);

/**
 * A decision's duration in seconds, as the reports page's median has always ordered decisions (numeric;
 * percentile_cont reads it as float8), and the display bucket the page shows for a duration: days
 * rounded to one decimal, monotone in the duration (decision 0055). Written once, because the index
 * on them is only used by a query that spells them the same way.
 */
export const decisionSecondsOf = (reviewedAt: AnyPgColumn | SQL, submittedAt: AnyPgColumn | SQL): SQL =>
  sql`extract(epoch from (${reviewedAt} - ${submittedAt}))`;
export const decisionDaysOf = (reviewedAt: AnyPgColumn | SQL, submittedAt: AnyPgColumn | SQL): SQL =>
  sql`round((${decisionSecondsOf(reviewedAt, submittedAt)}::float8 / 86400)::numeric, 1)`;

export const loanApplications = pgTable(
  "loan_applications",
  {
    id: uuidPk(),
    /** Restrict: a lender keeps application records; an applicant with applications cannot be deleted. */
    userId: userIdRef("restrict"),
    status: text("status", { enum: APPLICATION_STATUSES }).notNull().default("pending"),

    // Loan details
    loanType: text("loan_type", { enum: LOAN_TYPES }).notNull(),
    requestedAmountCents: cents("requested_amount_cents").notNull(),
    desiredRateMilli: integer("desired_rate_milli").notNull(),
    /** Months, one of LOAN_DURATIONS. */
    loanDuration: integer("loan_duration").notNull(),
    purpose: text("purpose").notNull(),
    /** Required for hard-money loans. */
    propertyAddress: text("property_address"),
    businessName: text("business_name"),
    businessYears: integer("business_years"),

    // Personal details
    firstName: text("first_name").notNull(),
    middleInitial: text("middle_initial"),
    lastName: text("last_name").notNull(),
    /** 'yyyy-MM-dd'. */
    dateOfBirth: date("date_of_birth", { mode: "string" }).notNull(),
    email: text("email").notNull(),
    /** 10 digits, no punctuation. */
    phone: text("phone").notNull(),
    addressLine1: text("address_line1").notNull(),
    addressLine2: text("address_line2"),
    city: text("city").notNull(),
    state: text("state").notNull(),
    zipCode: text("zip_code").notNull(),
    /** Ciphertext of the SSN (never plaintext); null when none was given. */
    ssnEncrypted: text("ssn_encrypted"),
    /** Keyed blind index of the SSN's last 4 digits (crypto/blind-index.server.ts), for staff search. */
    ssnLast4Index: text("ssn_last4_index"),

    // Employment and finances
    employmentStatus: text("employment_status", { enum: EMPLOYMENT_STATUSES }).notNull(),
    employerName: text("employer_name").notNull(),
    jobTitle: text("job_title"),
    yearsEmployed: numeric("years_employed", { precision: 5, scale: 1, mode: "number" }),
    monthlyIncomeCents: cents("monthly_income_cents").notNull(),
    annualIncomeCents: cents("annual_income_cents"),
    creditScore: integer("credit_score"),
    hasOutstandingLoans: boolean("has_outstanding_loans").notNull().default(false),
    monthlyDebtsCents: cents("monthly_debts_cents"),
    authorizeCreditReport: boolean("authorize_credit_report").notNull().default(false),

    // Review
    /** Admin notes. */
    notes: text("notes"),
    /** Set by the wizard so a double submit creates one application. */
    idempotencyKey: text("idempotency_key"),
    submittedAt: timestamptz("submitted_at").notNull().defaultNow(),
    ...review(),
    /** Reasons given with a denial. */
    decisionReasons: text("decision_reasons").array(),
    /**
     * Where the information behind a denial came from (~/domain/adverse-action.ts): the applicant's own, or
     * a consumer report with its agency and, when used, the credit score disclosures. Personal data, not a
     * secret: stored as given, kept and erased with the decision (docs/security.md).
     */
    denialSource: jsonb("denial_source").$type<DenialSource>(),
    /** The officer working it (history in application_assignments). */
    assignedTo: text("assigned_to").references(() => user.id, { onDelete: "set null" }),
    assignedAt: timestamptz("assigned_at"),
    /**
     * When the application became complete (the Reg B clock, ~/server/applications/reg-b-clock.server.ts),
     * null while something asked for is outstanding. Kept by triggers (drizzle/0014) on request_items and
     * on submitted_at; never written by the application.
     */
    completeSince: timestamptz("complete_since"),
    /**
     * Withdraw Application: when the applicant withdrew it and who did (the applicant's own account; set
     * null only if that account could ever be deleted). Set exactly when status is 'withdrawn'.
     */
    withdrawnAt: timestamptz("withdrawn_at"),
    withdrawnBy: text("withdrawn_by").references(() => user.id, { onDelete: "set null" }),
    ...timestamps(),
  },
  (t) => [
    unique("loan_applications_user_id_idempotency_key_key").on(t.userId, t.idempotencyKey),
    oneOf(t.status, APPLICATION_STATUSES),
    oneOf(t.loanType, LOAN_TYPES),
    columnCheck(t.requestedAmountCents, sql`${t.requestedAmountCents} > 0`),
    columnCheck(
      t.desiredRateMilli,
      sql`${t.desiredRateMilli} between ${lit(rateFromPercent(LIMITS.interestRateMin))} and ${lit(rateFromPercent(LIMITS.interestRateMax))}`,
    ),
    oneOf(t.loanDuration, LOAN_DURATIONS),
    columnCheck(
      t.purpose,
      sql`char_length(${t.purpose}) between ${lit(LIMITS.purposeMinLength)} and ${lit(LIMITS.purposeMaxLength)}`,
    ),
    columnCheck(
      t.propertyAddress,
      sql`${t.loanType} <> 'hard-money' or (${t.propertyAddress} is not null and btrim(${t.propertyAddress}) <> '')`,
    ),
    nonNegative(t.businessYears),
    columnCheck(t.middleInitial, whenPresent(t.middleInitial, sql`char_length(${t.middleInitial}) = 1`)),
    ...usContactChecks(t),
    oneOf(t.employmentStatus, EMPLOYMENT_STATUSES),
    nonNegative(t.yearsEmployed),
    nonNegative(t.monthlyIncomeCents),
    nonNegative(t.annualIncomeCents),
    columnCheck(
      t.creditScore,
      whenPresent(t.creditScore, sql`${t.creditScore} between ${lit(LIMITS.creditScoreMin)} and ${lit(LIMITS.creditScoreMax)}`),
    ),
    nonNegative(t.monthlyDebtsCents),
    columnCheck(
      t.reviewedAt,
      sql`${t.status} not in ${sqlList(DECIDED_APPLICATION_STATUSES)} or ${t.reviewedAt} is not null`,
    ),
    check("loan_applications_withdrawn_check", sql`(${t.status} = 'withdrawn') = (${t.withdrawnAt} is not null)`),
    index("loan_applications_user_id_submitted_at_idx").on(t.userId, t.submittedAt.desc().nullsFirst()),
    // The admin list's order (newest first, id breaking ties), so a page is read off the index
    // without sorting.
    index("loan_applications_status_submitted_at_id_idx").on(t.status, t.submittedAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // The applications export's keyset order (submitted_at, id), so each batch starts inside the index
    // and reads one batch (it replaced loan_applications_submitted_at_idx, its first column).
    index("loan_applications_submitted_at_id_idx").on(t.submittedAt, t.id),
    // My Queue: one officer's applications of a tab, newest first, a page's ids read off
    // the index alone (it replaced loan_applications_assigned_to_submitted_at_idx).
    index("loan_applications_assigned_to_status_submitted_at_id_idx").on(t.assignedTo, t.status, t.submittedAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // Staff search: by SSN last 4 (blind index) and by the applicant's phone on the application.
    index("loan_applications_ssn_last4_index_idx").on(t.ssnLast4Index, t.userId),
    index("loan_applications_search_phone_idx").on(sql`(${t.phone} collate "C")`, t.userId),
    // The reports page (decision 0049): the Reg B list in its order and the flagged count's
    // edge day. (The ageing buckets' edge days use loan_applications_status_submitted_at_id_idx: a
    // partial index on open rows' submitted_at would also tempt the planner for the admin list's
    // pending tab, which it serves worse.)
    index("loan_applications_reg_b_idx").on(t.completeSince, t.id).where(sql`${t.status} in ${sqlList(OPEN_REVIEW_STATUSES)} and ${t.completeSince} is not null`),
    // The median decision time (decision 0055): when the two middle decisions of a range fall in two
    // display buckets, the last duration of the one and the first of the other, found from the
    // bucket's edge with the range checked in the index (replaced loan_applications_decision_time_idx).
    index("loan_applications_decision_days_idx")
      .on(decisionDaysOf(t.reviewedAt, t.submittedAt), decisionSecondsOf(t.reviewedAt, t.submittedAt), t.submittedAt)
      .where(sql`${t.status} in ${sqlList(DECIDED_APPLICATION_STATUSES)} and ${t.reviewedAt} is not null`),
  ],
);

/** Every (re)assignment of an application to a staff member, kept as history. */
export const applicationAssignments = pgTable(
  "application_assignments",
  {
    id: uuidPk(),
    applicationId: applicationIdRef("cascade"),
    /** Null: unassigned. */
    assignedTo: text("assigned_to").references(() => user.id, { onDelete: "set null" }),
    assignedBy: text("assigned_by").references(() => user.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index("application_assignments_application_id_idx").on(t.applicationId, t.createdAt)],
);

/**
 * Four-eyes approval: an approval at or above FOUR_EYES_THRESHOLD is first a proposal with
 * the terms; another staff member confirms it (the offer is then made with these terms) or sends it
 * back with a comment. One open proposal per application.
 */
export const approvalProposals = pgTable(
  "approval_proposals",
  {
    id: uuidPk(),
    applicationId: applicationIdRef("cascade"),
    status: text("status", { enum: APPROVAL_PROPOSAL_STATUSES }).notNull().default("proposed"),
    approvedAmountCents: cents("approved_amount_cents").notNull(),
    interestRateMilli: integer("interest_rate_milli").notNull(),
    termMonths: integer("term_months").notNull(),
    originationFeeMilli: integer("origination_fee_milli").notNull(),
    counterofferReasons: text("counteroffer_reasons").array().notNull().default(sql`'{}'::text[]`),
    /** Restrict: the proposer is who may never confirm; the row must keep naming them. */
    proposedBy: text("proposed_by")
      .notNull()
      .references(() => user.id, { onDelete: "restrict" }),
    createdAt: createdAt(),
    decidedBy: text("decided_by").references(() => user.id, { onDelete: "set null" }),
    decidedAt: timestamptz("decided_at"),
    /** Send Back's comment. */
    comment: text("comment"),
    /** The offer a confirmation made. */
    offerId: uuid("offer_id").references(() => loanOffers.id, { onDelete: "set null" }),
  },
  (t) => [
    oneOf(t.status, APPROVAL_PROPOSAL_STATUSES),
    columnCheck(t.approvedAmountCents, sql`${t.approvedAmountCents} > 0`),
    check("approval_proposals_decided_check", sql`(${t.status} = 'proposed') = (${t.decidedAt} is null)`),
    check("approval_proposals_not_own_check", sql`${t.decidedBy} is null or ${t.status} <> 'confirmed' or ${t.decidedBy} <> ${t.proposedBy}`),
    check("approval_proposals_sent_back_comment_check", sql`${t.status} <> 'sent_back' or ${t.comment} is not null`),
    columnCheck(t.comment, whenPresent(t.comment, sql`char_length(${t.comment}) between 1 and 2000`)),
    uniqueIndex("approval_proposals_one_open_idx").on(t.applicationId).where(sql`${t.status} = 'proposed'`),
    index("approval_proposals_application_id_idx").on(t.applicationId, t.createdAt),
  ],
);

/**
 * Applications per status, kept by triggers on loan_applications (drizzle/0005) in the same
 * transaction as the change, so the admin list's tabs read four rows instead of counting the table
 * on every view. Derived data: no personal data, rebuilt from loan_applications by the migration.
 */
export const applicationStatusCounts = pgTable("application_status_counts", {
  status: text("status").primaryKey(),
  applications: integer("applications").notNull(),
});

/**
 * How many applicants (profiles without a staff role) there are, kept by statement triggers on
 * profiles and user_roles (drizzle/0011), so the client list's total is one row read instead of a
 * count of the whole table. One row, key 'applicants'. Derived data, rebuilt by the migration.
 */
export const clientCounts = pgTable("client_counts", {
  name: text("name").primaryKey(),
  clients: integer("clients").notNull(),
});

/**
 * Row counts the admin lists show, kept by statement-level triggers (drizzle/0012) in the
 * same transaction as the change, so a page reads a few rows instead of counting a growing table.
 * Keys: 'contact_messages:<status>', 'loan_documents', 'approved_loans:paid_off',
 * 'approved_loans:due:<yyyy-MM-dd | none>' (open loans by their next due date, so Late and Current
 * are sums over due dates, a number of rows bounded by the calendar) and
 * 'assigned:<staff user id>:<status>' (My Queue's tabs). Derived data, no personal data.
 */
export const rowCounts = pgTable("row_counts", {
  key: text("key").primaryKey(),
  rows: bigint("rows", { mode: "number" }).notNull(),
});

/**
 * Decision 0049: the reports page's figures kept per UTC day and per month by a statement-level
 * trigger on loan_applications (drizzle/0014), so a range reads at most ~60 months and ~62 days of rows.
 * metric 'status' (a = status), 'decided' (a = loan type, b = status), 'officer' (a = reviewer id or '',
 * b = status), 'reason' (a = denial reason, one per array element): by the submission's UTC day.
 * 'reg_b' (open applications by the UTC day they became complete). period: the day, or the month's first day.
 * Decision 0055, decided applications with a reviewed_at by the submission's UTC day: 'decision_days'
 * (a = the whole days of the display bucket, floor(decisionDaysOf) as text: '3', '-1') and, per whole
 * day W, 'decision_days:W' (a = the display bucket decisionDaysOf as text: '3.4'), so the median reads
 * the whole-day counts and then the tenths of the one or two whole days holding its middle positions.
 */
export const reportRollups = pgTable(
  "report_rollups",
  {
    metric: text("metric").notNull(),
    grain: text("grain", { enum: ["day", "month"] }).notNull(),
    period: date("period", { mode: "string" }).notNull(),
    a: text("a").notNull().default(""),
    b: text("b").notNull().default(""),
    n: bigint("n", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.metric, t.grain, t.period, t.a, t.b] })],
);

export const loanDocuments = pgTable(
  "loan_documents",
  {
    id: uuidPk(),
    applicationId: applicationIdRef("cascade"),
    userId: userIdRef("restrict"),
    documentType: text("document_type", { enum: DOCUMENT_TYPES }).notNull(),
    /** The name the applicant's file had (display only; never used to build a path). */
    fileName: text("file_name").notNull(),
    /** Storage key: {userId}/{applicationId}/{name}.{ext}. */
    filePath: text("file_path").notNull().unique(),
    /** Bytes. */
    fileSize: integer("file_size").notNull(),
    mimeType: text("mime_type", { enum: ALLOWED_MIME_TYPES }).notNull(),
    uploadedAt: timestamptz("uploaded_at").notNull().defaultNow(),
    /** Set when uploaded in answer to a staff request (What We Need); null for the wizard's documents. */
    requestItemId: uuid("request_item_id").references((): AnyPgColumn => requestItems.id, { onDelete: "set null" }),
    /** Staff accepted the document as what it claims to be (the funding checklist asks it of an ID document). */
    acceptedAt: timestamptz("accepted_at"),
    acceptedBy: text("accepted_by").references(() => user.id, { onDelete: "set null" }),
  },
  (t) => [
    // The wizard's documents: one of each type per application. Answers to requests may repeat a
    // type (a rejected bank statement is uploaded again), so they are not counted here.
    uniqueIndex("loan_documents_application_id_document_type_key").on(t.applicationId, t.documentType).where(sql`request_item_id is null`),
    index("loan_documents_request_item_id_idx").on(t.requestItemId),
    oneOf(t.documentType, DOCUMENT_TYPES),
    columnCheck(t.fileSize, sql`${t.fileSize} > 0 and ${t.fileSize} <= ${lit(LIMITS.maxDocumentBytes)}`),
    oneOf(t.mimeType, ALLOWED_MIME_TYPES),
    index("loan_documents_user_id_idx").on(t.userId),
    // /admin/documents in its order, a page's ids from the index alone (it replaced
    // loan_documents_uploaded_at_idx, its first column).
    index("loan_documents_list_order_idx").on(t.uploadedAt.desc().nullsFirst(), t.applicationId, t.documentType, t.id),
    // An application's documents (the staff application page; the unique index above is partial).
    index("loan_documents_application_id_idx").on(t.applicationId),
  ],
);

// ---------------------------------------------------------------------------------------------
// After submission: the timeline, the lender's requests and the conversation. Each row
// carries the application's owner (user_id) so the live-update trigger can address the applicant.
// ---------------------------------------------------------------------------------------------

/**
 * The Application Timeline: one row per thing that happened to an application, written in the same
 * transaction as the change itself. `internal` rows (staff notes) are never shown to the applicant.
 * `summary` is a short, non-sensitive line for the timeline (never an SSN, bank number or message text
 * beyond what the applicant or staff wrote for the other side to read).
 */
export const applicationEvents = pgTable(
  "application_events",
  {
    id: uuidPk(),
    applicationId: applicationIdRef("cascade"),
    /** The application's owner (the applicant), for live updates; not necessarily the actor. */
    userId: userIdRef("restrict"),
    kind: text("kind", { enum: APPLICATION_EVENT_KINDS }).notNull(),
    /** Who did it: an applicant, a staff member, or null (the system, a backfill). */
    actorId: text("actor_id").references(() => user.id, { onDelete: "set null" }),
    actorSide: text("actor_side", { enum: CONVERSATION_SIDES }),
    summary: text("summary"),
    internal: boolean("internal").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    oneOf(t.kind, APPLICATION_EVENT_KINDS),
    columnCheck(t.actorSide, whenPresent(t.actorSide, sql`${t.actorSide} in ${sqlList(CONVERSATION_SIDES)}`)),
    index("application_events_application_id_created_at_idx").on(t.applicationId, t.createdAt.desc().nullsFirst()),
  ],
);

/**
 * What We Need: one item a staff member asked for (a document of a kind, or a question), with the
 * note and due date of the request it came in (`request_id` groups the items of one Request Documents).
 * Status: requested → received → accepted | rejected; a rejected item is answered again (→ received).
 */
export const requestItems = pgTable(
  "request_items",
  {
    id: uuidPk(),
    requestId: uuid("request_id").notNull(),
    applicationId: applicationIdRef("cascade"),
    userId: userIdRef("restrict"),
    kind: text("kind", { enum: REQUEST_ITEM_KINDS }).notNull(),
    /** Staff's note to the applicant (shown to them). */
    note: text("note"),
    /** The date by which it is needed ('yyyy-MM-dd'); the Reg B notice of incompleteness names it. */
    dueDate: date("due_date", { mode: "string" }).notNull(),
    status: text("status", { enum: REQUEST_ITEM_STATUSES }).notNull().default("requested"),
    /** The applicant's written answer (question items). */
    replyText: text("reply_text"),
    /** Why staff rejected the last answer (shown to the applicant). */
    rejectionReason: text("rejection_reason"),
    /**
     * Files in the current answer of a document item: raised by each upload in one conditional UPDATE
     * (… WHERE file_count < 5), so parallel uploads can never pass the limit; back to 0 when the answer
     * is rejected (its files stay on file as earlier answers).
     */
    fileCount: integer("file_count").notNull().default(0),
    requestedBy: text("requested_by").references(() => user.id, { onDelete: "set null" }),
    answeredAt: timestamptz("answered_at"),
    reviewedAt: timestamptz("reviewed_at"),
    reviewedBy: text("reviewed_by").references(() => user.id, { onDelete: "set null" }),
    ...timestamps(),
  },
  (t) => [
    oneOf(t.kind, REQUEST_ITEM_KINDS),
    oneOf(t.status, REQUEST_ITEM_STATUSES),
    columnCheck(t.note, whenPresent(t.note, sql`char_length(${t.note}) <= ${lit(CONVERSATION_LIMITS.requestNoteMaxLength)}`)),
    columnCheck(t.replyText, whenPresent(t.replyText, sql`char_length(${t.replyText}) <= ${lit(CONVERSATION_LIMITS.requestReplyMaxLength)}`)),
    columnCheck(t.rejectionReason, whenPresent(t.rejectionReason, sql`char_length(${t.rejectionReason}) <= ${lit(CONVERSATION_LIMITS.requestNoteMaxLength)}`)),
    check("request_items_file_count_check", sql`${t.fileCount} between 0 and ${lit(CONVERSATION_LIMITS.filesPerItem)}`),
    check("request_items_rejected_has_reason_check", sql`${t.status} <> 'rejected' or ${t.rejectionReason} is not null`),
    index("request_items_application_id_idx").on(t.applicationId, t.createdAt),
    index("request_items_user_id_status_idx").on(t.userId, t.status),
  ],
);

/** The conversation about one application: plain text, shown as text (never as HTML). */
export const applicationMessages = pgTable(
  "application_messages",
  {
    id: uuidPk(),
    applicationId: applicationIdRef("cascade"),
    /** The application's owner (the applicant), for live updates. */
    userId: userIdRef("restrict"),
    authorId: text("author_id").references(() => user.id, { onDelete: "set null" }),
    authorSide: text("author_side", { enum: CONVERSATION_SIDES }).notNull(),
    body: text("body").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    oneOf(t.authorSide, CONVERSATION_SIDES),
    columnCheck(t.body, sql`char_length(${t.body}) between 1 and ${lit(CONVERSATION_LIMITS.messageMaxLength)}`),
    index("application_messages_application_id_created_at_idx").on(t.applicationId, t.createdAt),
    index("application_messages_user_id_created_at_idx").on(t.userId, t.createdAt),
  ],
);

/**
 * How far each reader has read a conversation: the applicant for their application; each staff
 * member for theirs. Unread = messages from the other side written after last_read_at.
 */
export const conversationReads = pgTable(
  "conversation_reads",
  {
    applicationId: applicationIdRef("cascade"),
    readerId: text("reader_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    lastReadAt: timestamptz("last_read_at").notNull().defaultNow(),
    /**
     * How many messages of each side the conversation held when this reader last read it (from
     * conversation_counts, never backwards): unread = the other side's count now minus this. Counting
     * instead of comparing instants also keeps a message whose transaction began before the mark but
     * committed after it unread (decision 0048).
     */
    seenApplicant: integer("seen_applicant").notNull().default(0),
    seenStaff: integer("seen_staff").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.applicationId, t.readerId] })],
);

/**
 * Messages per side of each conversation, kept by a statement trigger on application_messages
 * (drizzle/0013): a page of the admin list or the dashboard reads one row per application instead of
 * counting messages.
 */
export const conversationCounts = pgTable("conversation_counts", {
  applicationId: uuid("application_id")
    .primaryKey()
    .references(() => loanApplications.id, { onDelete: "cascade" }),
  applicantMessages: integer("applicant_messages").notNull().default(0),
  staffMessages: integer("staff_messages").notNull().default(0),
});

/**
 * The sum of each reader's read marks (seen_applicant, seen_staff over all their conversations), kept
 * by a statement trigger on conversation_reads (drizzle/0013). A staff member's unread badge is the
 * number of applicant messages (row_counts 'application_messages:applicant') minus their seen total:
 * two rows, whatever the number of conversations.
 */
export const conversationReaderTotals = pgTable("conversation_reader_totals", {
  readerId: text("reader_id")
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  seenApplicant: bigint("seen_applicant", { mode: "number" }).notNull().default(0),
  seenStaff: bigint("seen_staff", { mode: "number" }).notNull().default(0),
});

/**
 * "You have a new message" e-mails: at most one per conversation per hour for each side. The claim is
 * one conditional upsert (… ON CONFLICT DO UPDATE … WHERE last_sent_at < now() - 1 hour), so two
 * messages at once send one e-mail.
 */
export const conversationNotices = pgTable(
  "conversation_notices",
  {
    applicationId: applicationIdRef("cascade"),
    /** The side the e-mail goes to. */
    recipientSide: text("recipient_side", { enum: CONVERSATION_SIDES }).notNull(),
    lastSentAt: timestamptz("last_sent_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.applicationId, t.recipientSide] }), oneOf(t.recipientSide, CONVERSATION_SIDES)],
);

export const bankAccounts = pgTable(
  "bank_accounts",
  {
    id: uuidPk(),
    userId: userIdRef("restrict"),
    applicationId: applicationIdRef("cascade"),
    accountHolderName: text("account_holder_name").notNull(),
    bankName: text("bank_name").notNull(),
    bankAddress: text("bank_address"),
    accountType: text("account_type", { enum: BANK_ACCOUNT_TYPES }).notNull().default("checking"),
    /** Ciphertext of the account number. */
    accountNumber: text("account_number").notNull(),
    /** Ciphertext of the routing number. */
    routingNumber: text("routing_number").notNull(),
    /** Plaintext last 4 digits of the account number, for the masked display. */
    accountNumberLast4: char("account_number_last4", { length: 4 }).notNull(),
    /** Plaintext last 2 digits of the routing number, for the masked display. */
    routingNumberLast2: char("routing_number_last2", { length: 2 }).notNull(),
    /** Keyed blind index of the account number's last 4 digits (crypto/blind-index.server.ts), for staff search. */
    accountLast4Index: text("account_last4_index"),
    swiftCode: text("swift_code"),
    isPrimary: boolean("is_primary").notNull().default(false),
    isVerified: boolean("is_verified").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    oneOf(t.accountType, BANK_ACCOUNT_TYPES),
    matches(t.accountNumberLast4, "^[0-9]{4}$"),
    matches(t.routingNumberLast2, "^[0-9]{2}$"),
    matches(t.swiftCode, "^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$"),
    uniqueIndex("bank_accounts_one_primary_per_user_idx").on(t.userId).where(sql`${t.isPrimary}`),
    index("bank_accounts_user_id_idx").on(t.userId),
    index("bank_accounts_application_id_idx").on(t.applicationId),
    index("bank_accounts_account_last4_index_idx").on(t.accountLast4Index, t.userId),
  ],
);

/**
 * Loan offers: what an approval records. The terms and the Truth in Lending figures are
 * fixed here when the offer is made (integer cents; rates in thousandths of a percent), so the screen,
 * the signed PDF and the loan all read the same numbers. At most one offer per application is open or
 * signed at a time; each status change is one conditional UPDATE (… WHERE status = 'offered').
 */
export const loanOffers = pgTable(
  "loan_offers",
  {
    id: uuidPk(),
    applicationId: applicationIdRef("cascade"),
    userId: userIdRef("restrict"),
    status: text("status", { enum: OFFER_STATUSES }).notNull().default("offered"),
    isCounteroffer: boolean("is_counteroffer").notNull(),
    /** Reg B reasons for offering other terms than requested; required for a counteroffer. */
    counterofferReasons: text("counteroffer_reasons").array().notNull().default(sql`'{}'::text[]`),
    amountCents: cents("amount_cents").notNull(),
    noteRateMilli: integer("note_rate_milli").notNull(),
    termMonths: integer("term_months").notNull(),
    originationFeeMilli: integer("origination_fee_milli").notNull(),
    originationFeeCents: cents("origination_fee_cents").notNull(),
    amountFinancedCents: cents("amount_financed_cents").notNull(),
    paymentCents: cents("payment_cents").notNull(),
    finalPaymentCents: cents("final_payment_cents").notNull(),
    financeChargeCents: cents("finance_charge_cents").notNull(),
    totalOfPaymentsCents: cents("total_of_payments_cents").notNull(),
    /** The APR as disclosed (two decimals), in thousandths of a percent. */
    aprMilli: integer("apr_milli").notNull(),
    /**
     * The servicing terms the borrower signs (interest method, payment order, late and returned-payment
     * fees, prepayment), from the lender's settings when the offer is made; read with parseServicingTerms.
     * Null only on rows made before terms were stored, until the start-up step records the terms in force.
     */
    servicingTerms: jsonb("servicing_terms").$type<unknown>(),
    expiresAt: timestamptz("expires_at").notNull(),
    createdBy: text("created_by").references(() => user.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    /** When it left 'offered' (signed, declined, expired, withdrawn). */
    decidedAt: timestamptz("decided_at"),
    /** The staff member who withdrew it. */
    decidedBy: text("decided_by").references(() => user.id, { onDelete: "set null" }),
    withdrawReason: text("withdraw_reason"),
  },
  (t) => [
    oneOf(t.status, OFFER_STATUSES),
    columnCheck(t.amountCents, sql`${t.amountCents} > 0`),
    columnCheck(t.noteRateMilli, sql`${t.noteRateMilli} between 0 and 100000`),
    columnCheck(t.termMonths, sql`${t.termMonths} between 1 and 480`),
    columnCheck(t.originationFeeMilli, sql`${t.originationFeeMilli} between 0 and ${lit(OFFER_LIMITS.originationFeeMaxPercent * 1000)}`),
    nonNegative(t.originationFeeCents),
    columnCheck(t.amountFinancedCents, sql`${t.amountFinancedCents} = ${t.amountCents} - ${t.originationFeeCents}`),
    columnCheck(t.financeChargeCents, sql`${t.financeChargeCents} = ${t.totalOfPaymentsCents} - ${t.amountFinancedCents}`),
    check("loan_offers_counteroffer_reasons_check", sql`not ${t.isCounteroffer} or cardinality(${t.counterofferReasons}) > 0`),
    check("loan_offers_decided_when_not_offered_check", sql`(${t.status} = 'offered') = (${t.decidedAt} is null)`),
    check("loan_offers_withdrawn_has_reason_check", sql`${t.status} <> 'withdrawn' or ${t.withdrawReason} is not null`),
    columnCheck(t.withdrawReason, whenPresent(t.withdrawReason, sql`char_length(${t.withdrawReason}) between 1 and ${lit(OFFER_LIMITS.withdrawReasonMaxLength)}`)),
    uniqueIndex("loan_offers_one_live_per_application_idx").on(t.applicationId).where(sql`${t.status} in ('offered', 'signed')`),
    index("loan_offers_application_id_idx").on(t.applicationId, t.createdAt),
    index("loan_offers_user_id_idx").on(t.userId),
    // The expiry job reads open offers by their expiry.
    index("loan_offers_open_expires_at_idx").on(t.expiresAt).where(sql`${t.status} = 'offered'`),
  ],
);

/**
 * E-SIGN consents (15 U.S.C. 7001(c)): which version of the consent text a person agreed to, when,
 * from which address and browser. Withdrawal is recorded, never deleted; signing needs a consent that
 * is not withdrawn.
 */
export const esignConsents = pgTable(
  "esign_consents",
  {
    id: uuidPk(),
    userId: userIdRef("restrict"),
    /** The application it was given for (consent is asked on the way to signing its offer). */
    applicationId: applicationIdRef("cascade"),
    version: text("version").notNull(),
    consentedAt: timestamptz("consented_at").notNull().defaultNow(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    withdrawnAt: timestamptz("withdrawn_at"),
  },
  (t) => [
    columnCheck(t.userAgent, whenPresent(t.userAgent, sql`char_length(${t.userAgent}) <= 500`)),
    uniqueIndex("esign_consents_one_current_idx").on(t.userId, t.applicationId).where(sql`${t.withdrawnAt} is null`),
    index("esign_consents_user_id_idx").on(t.userId),
  ],
);

/**
 * The signed loan agreement: the PDF's storage key (private, like other documents), its SHA-256 and
 * the signing certificate's data. One per offer.
 */
export const signedAgreements = pgTable(
  "signed_agreements",
  {
    id: uuidPk(),
    offerId: uuid("offer_id")
      .notNull()
      .unique()
      .references(() => loanOffers.id, { onDelete: "cascade" }),
    applicationId: applicationIdRef("cascade"),
    userId: userIdRef("restrict"),
    storageKey: text("storage_key").notNull().unique(),
    sha256: char("sha256", { length: 64 }).notNull(),
    byteSize: integer("byte_size").notNull(),
    signerName: text("signer_name").notNull(),
    signerEmail: text("signer_email").notNull(),
    signatureKind: text("signature_kind", { enum: SIGNATURE_KINDS }).notNull(),
    signedAt: timestamptz("signed_at").notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    consentId: uuid("consent_id")
      .notNull()
      .references(() => esignConsents.id, { onDelete: "restrict" }),
    consentVersion: text("consent_version").notNull(),
    consentedAt: timestamptz("consented_at").notNull(),
    /** The first payment's due date, fixed by the signing (one month after it). */
    firstPaymentDue: date("first_payment_due", { mode: "string" }).notNull(),
    /**
     * What the borrower signed with, kept so the lender can render the agreement again: the typed name as
     * given, or the drawn PNG. Null on agreements signed before the file was digitally signed.
     */
    signatureTypedName: text("signature_typed_name"),
    signaturePng: bytea("signature_png"),
    /** SHA-256 (hex) of the certificate the lender digitally signed the stored PDF with. */
    signingCertificateSha256: char("signing_certificate_sha256", { length: 64 }),
    createdAt: createdAt(),
  },
  (t) => [
    oneOf(t.signatureKind, SIGNATURE_KINDS),
    matches(t.sha256, "^[0-9a-f]{64}$"),
    matches(t.signingCertificateSha256, "^[0-9a-f]{64}$"),
    // A digitally signed agreement keeps exactly the evidence of its kind; older ones keep none.
    check(
      "signed_agreements_signature_evidence_check",
      sql`(${t.signingCertificateSha256} is null and ${t.signatureTypedName} is null and ${t.signaturePng} is null) or (${t.signingCertificateSha256} is not null and ((${t.signatureKind} = 'typed' and ${t.signatureTypedName} is not null and ${t.signaturePng} is null) or (${t.signatureKind} = 'drawn' and ${t.signaturePng} is not null and ${t.signatureTypedName} is null)))`,
    ),
    columnCheck(t.byteSize, sql`${t.byteSize} > 0`),
    index("signed_agreements_application_id_idx").on(t.applicationId),
    index("signed_agreements_user_id_idx").on(t.userId),
  ],
);

export const approvedLoans = pgTable(
  "approved_loans",
  {
    id: uuidPk(),
    userId: userIdRef("restrict"),
    /** One approved loan per application. */
    applicationId: applicationIdRef("restrict").unique(),
    status: text("status", { enum: APPROVED_LOAN_STATUSES }).notNull().default("active"),
    /** The principal still owed, as the ledger last left it. */
    balanceCents: cents("balance_cents").notNull(),
    termMonths: integer("term_months").notNull(),
    approvalDate: timestamptz("approval_date").notNull().defaultNow(),
    /** The signed offer this loan came from; null only for loans made before offers existed. */
    offerId: uuid("offer_id")
      .unique()
      .references(() => loanOffers.id, { onDelete: "restrict" }),
    /**
     * The obligor as the note names them, fixed at signing: the loan tape and the letters name the person
     * who signed, whatever the account's profile says later (the current name is a contact detail).
     */
    obligorName: text("obligor_name").notNull(),
    /** Fixed by the signing: the first payment falls due one month after it. */
    firstPaymentDue: date("first_payment_due", { mode: "string" }),
    maturityDate: date("maturity_date", { mode: "string" }),
    // Servicing works in exact units: the terms in cents and thousandths of a percent
    // (migration 0008 filled them for loans made before), the day interest starts, and two values the
    // ledger derives, kept here so lists can filter without replaying every loan.
    amountCents: cents("amount_cents").notNull(),
    noteRateMilli: integer("note_rate_milli").notNull(),
    paymentCents: cents("payment_cents").notNull(),
    /**
     * The servicing terms of the signed offer, copied at signing: the loan is serviced by these, never by
     * today's settings. Null only on loans signed before terms were stored, until the start-up step
     * records the terms then in force (with an audit row).
     */
    servicingTerms: jsonb("servicing_terms").$type<unknown>(),
    /** The signing day: interest accrues from it; installment k falls due k months later. */
    startDate: date("start_date", { mode: "string" }).notNull(),
    /** The first unpaid installment's due date (null once paid in full); kept by every posting. */
    nextDueDate: date("next_due_date", { mode: "string" }),
    /**
     * The day the servicing job last looked at this loan (decision 0048): it looks at a loan at most
     * once a day, and again after any change to its ledger or its owner's reminder choice (null).
     */
    servicedOn: date("serviced_on", { mode: "string" }),
    paidOffAt: timestamptz("paid_off_at"),
    /**
     * The day the agreement's figures assume the proceeds settle (the first banking day after signing):
     * interest never accrues before it. Null on loans signed before funding was recorded (their interest
     * runs from start_date).
     */
    expectedFundingDate: date("expected_funding_date", { mode: "string" }),
    /** The day the proceeds' ACH credit settled: interest accrues from it. Null until funded. */
    fundedOn: date("funded_on", { mode: "string" }),
    /** How the origination fee is satisfied: deducted from the proceeds (default) or collected (with who, when, reference). */
    originationFeeHandling: text("origination_fee_handling", { enum: ORIGINATION_FEE_HANDLINGS }).notNull().default("deducted"),
    originationFeeCollectedAt: timestamptz("origination_fee_collected_at"),
    originationFeeCollectedBy: text("origination_fee_collected_by").references(() => user.id, { onDelete: "set null" }),
    originationFeeReference: text("origination_fee_reference"),
    /** Cancelled before funding: when, by whom and why (the agreement is void). */
    cancelledAt: timestamptz("cancelled_at"),
    cancelledBy: text("cancelled_by").references(() => user.id, { onDelete: "set null" }),
    cancelReason: text("cancel_reason"),
    /** The loan officer working the loan in collections (Assign to Me); null when nobody has it. */
    collectorId: text("collector_id").references(() => user.id, { onDelete: "set null" }),
    /**
     * The hardship plans the borrower signed, in the order signed (app/domain/loan-modifications.ts):
     * the schedule is projected from the terms and these, so the ledger services what was signed.
     * Appended in the signing's own transaction, with the loan locked.
     */
    scheduleChanges: jsonb("schedule_changes").$type<unknown>().notNull().default(sql`'[]'::jsonb`),
    /** Periods in which interest may not exceed a cap (SCRA 6 %), written with the protection record. */
    rateCaps: jsonb("rate_caps").$type<unknown>().notNull().default(sql`'[]'::jsonb`),
    /** Charged off: the day (no interest or fee from it on), what the ledger then owed, by whom and why. */
    chargedOffOn: date("charged_off_on", { mode: "string" }),
    chargedOffCents: cents("charged_off_cents"),
    chargedOffBy: text("charged_off_by").references(() => user.id, { onDelete: "set null" }),
    chargeOffReason: text("charge_off_reason"),
    /** Settled for less than the balance: the day, and what was forgiven (the 1099-C amount). */
    settledOn: date("settled_on", { mode: "string" }),
    forgivenCents: cents("forgiven_cents"),
    settledBy: text("settled_by").references(() => user.id, { onDelete: "set null" }),
    ...timestamps(),
  },
  (t) => [
    oneOf(t.status, APPROVED_LOAN_STATUSES),
    check("approved_loans_charged_off_check", sql`(${t.chargedOffOn} is null) = (${t.chargedOffCents} is null)`),
    check("approved_loans_settled_check", sql`(${t.settledOn} is null) = (${t.forgivenCents} is null) and (${t.status} <> 'settled' or ${t.settledOn} is not null) and (${t.status} <> 'charged_off' or ${t.chargedOffOn} is not null)`),
    nonNegative(t.chargedOffCents),
    nonNegative(t.forgivenCents),
    oneOf(t.originationFeeHandling, ORIGINATION_FEE_HANDLINGS),
    check("approved_loans_cancelled_check", sql`(${t.status} = 'cancelled') = (${t.cancelledAt} is not null)`),
    columnCheck(t.amountCents, sql`${t.amountCents} > 0`),
    nonNegative(t.balanceCents),
    nonNegative(t.paymentCents),
    columnCheck(t.noteRateMilli, sql`${t.noteRateMilli} between 0 and 100000`),
    columnCheck(t.termMonths, sql`${t.termMonths} between 1 and 600`),
    index("approved_loans_user_id_status_approval_date_idx").on(t.userId, t.status, t.approvalDate.desc().nullsFirst()),
    index("approved_loans_status_next_due_date_idx").on(t.status, t.nextDueDate),
    // The collections queue: active loans past due, oldest first, and one officer's.
    index("approved_loans_collections_idx").on(t.nextDueDate, t.id).where(sql`${t.status} = 'active'`),
    index("approved_loans_collector_idx").on(t.collectorId, t.nextDueDate, t.id).where(sql`${t.status} = 'active' and ${t.collectorId} is not null`),
    // /admin/loans in its order (late first), status last so a page's ids come from the index alone.
    index("approved_loans_list_order_idx").on(t.nextDueDate.asc().nullsLast(), t.approvalDate.desc().nullsFirst(), t.id, t.status),
    // Decision 0056: the servicing job's keyset order. serviced_on first, so the loans already looked at
    // today sit in a range of their own that no batch walks; the due date with no date as -infinity, so
    // a row comparison can step over every loan, dated or not; active and approved loans only.
    index("approved_loans_servicing_idx")
      .on(t.servicedOn, sql`coalesce(${t.nextDueDate}, '-infinity'::date)`, t.id)
      .where(sql`${t.status} in ('active', 'approved')`),
  ],
);

/**
 * Payments on a loan. A borrower's one-time ACH debit starts Pending (with the authorisation
 * the borrower gave: text version, time, IP, user agent) until staff settle it (Posted) or it comes back
 * (Returned, with the NACHA return code). Staff record payments received by ACH, wire or check as
 * Posted. A posted payment can be Reversed (returned / NSF) with a reason. The ledger is replayed from
 * the Posted rows, so allocations are never stored twice. A reference is posted once per loan.
 */
export const loanPayments = pgTable(
  "loan_payments",
  {
    id: uuidPk(),
    loanId: loanIdRef(),
    userId: userIdRef("restrict"),
    amountCents: cents("amount_cents").notNull(),
    status: text("status", { enum: LOAN_PAYMENT_STATUSES }).notNull(),
    method: text("method", { enum: PAYMENT_METHODS }).notNull(),
    source: text("source", { enum: PAYMENT_SOURCES }).notNull(),
    /** What the borrower chose to pay (borrower payments only). */
    choice: text("choice", { enum: PAYMENT_CHOICES }),
    /** Check number, wire reference, or the ACH entry's reference. */
    reference: text("reference").notNull(),
    /** The day the money was received (posted payments; a pending debit has none yet). */
    receivedOn: date("received_on", { mode: "string" }),
    bankAccountId: uuid("bank_account_id").references(() => bankAccounts.id, { onDelete: "set null" }),
    authorizationVersion: text("authorization_version"),
    authorizedAt: timestamptz("authorized_at"),
    authorizationIp: text("authorization_ip"),
    authorizationUserAgent: text("authorization_user_agent"),
    achBatchId: uuid("ach_batch_id").references((): AnyPgColumn => achBatches.id, { onDelete: "set null" }),
    returnCode: text("return_code"),
    /** The day the bank returned the debit (on or after its file's effective date). */
    returnedOn: date("returned_on", { mode: "string" }),
    /** Cancelled before it was sent: why (staff's reason, or the payoff), when and by whom (null: the system). */
    cancelReason: text("cancel_reason"),
    cancelledAt: timestamptz("cancelled_at"),
    cancelledBy: text("cancelled_by").references(() => user.id, { onDelete: "set null" }),
    /** A refund of a debit collected after payoff: the day it was sent back and its reference. */
    refundedOn: date("refunded_on", { mode: "string" }),
    refundReference: text("refund_reference"),
    refundedBy: text("refunded_by").references(() => user.id, { onDelete: "set null" }),
    reversalReason: text("reversal_reason"),
    reversedAt: timestamptz("reversed_at"),
    reversedBy: text("reversed_by").references(() => user.id, { onDelete: "set null" }),
    postedAt: timestamptz("posted_at"),
    postedBy: text("posted_by").references(() => user.id, { onDelete: "set null" }),
    /**
     * Record Payment's idempotency key (decision 0073): a uuid rendered into the dialog's form, so the
     * same form submitted twice (a double click, a retry) posts once and both submits get its answer.
     * Null for payments from elsewhere (borrower debits, the demo, API callers that send none).
     */
    idempotencyKey: uuid("idempotency_key"),
    /** An autopay debit: the recurring authorisation it comes from and the installment it pays. */
    autopayAuthorizationId: uuid("autopay_authorization_id").references((): AnyPgColumn => autopayAuthorizations.id, { onDelete: "set null" }),
    installmentNumber: integer("installment_number"),
    /** The banking day this debit is to settle (autopay, a retry): no file effective before it carries it. */
    scheduledOn: date("scheduled_on", { mode: "string" }),
    /** The WEB Payment Type Code: S single (Make a Payment, the default when null), R recurring (autopay). */
    paymentType: text("payment_type", { enum: WEB_PAYMENT_TYPES }),
    /** A re-presentment of a debit returned for insufficient or uncollected funds (R01/R09): the original and which retry (1 or 2). */
    retryOf: uuid("retry_of").references((): AnyPgColumn => loanPayments.id, { onDelete: "set null" }),
    retryNumber: integer("retry_number"),
    /** The entry's trace number in its ACH file (15 digits), so a bank's return file finds it. */
    achTraceNumber: text("ach_trace_number"),
    /** Received on a charged-off loan: a recovery (applied after the charge-off in the ledger). Set when it posts. */
    recovery: boolean("recovery").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    oneOf(t.status, LOAN_PAYMENT_STATUSES),
    columnCheck(t.paymentType, whenPresent(t.paymentType, sql`${t.paymentType} in ${sqlList(WEB_PAYMENT_TYPES)}`)),
    check("loan_payments_retry_number_check", sql`(${t.retryOf} is null) = (${t.retryNumber} is null) and (${t.retryNumber} is null or ${t.retryNumber} between 1 and 2)`),
    matches(t.achTraceNumber, "^[0-9]{15}$"),
    // Once per installment across instances: the servicing job's insert of an installment's autopay debit.
    uniqueIndex("loan_payments_one_autopay_per_installment_idx").on(t.loanId, t.installmentNumber).where(sql`${t.installmentNumber} is not null and ${t.retryOf} is null`),
    uniqueIndex("loan_payments_one_retry_idx").on(t.retryOf, t.retryNumber).where(sql`${t.retryOf} is not null`),
    index("loan_payments_ach_trace_number_idx").on(t.achTraceNumber).where(sql`${t.achTraceNumber} is not null`),
    oneOf(t.method, PAYMENT_METHODS),
    oneOf(t.source, PAYMENT_SOURCES),
    columnCheck(t.choice, whenPresent(t.choice, sql`${t.choice} in ${sqlList(PAYMENT_CHOICES)}`)),
    columnCheck(t.amountCents, sql`${t.amountCents} > 0`),
    columnCheck(t.reference, sql`char_length(${t.reference}) between 1 and 80`),
    check("loan_payments_posted_has_date_check", sql`${t.status} in ('pending', 'returned', 'cancelled') or ${t.receivedOn} is not null`),
    check("loan_payments_cancelled_has_reason_check", sql`${t.status} <> 'cancelled' or (${t.cancelReason} is not null and ${t.cancelledAt} is not null)`),
    check("loan_payments_refunded_has_date_check", sql`${t.status} <> 'refunded' or (${t.refundedOn} is not null and ${t.refundReference} is not null)`),
    check("loan_payments_borrower_authorized_check", sql`${t.source} <> 'borrower' or (${t.authorizationVersion} is not null and ${t.authorizedAt} is not null)`),
    check("loan_payments_returned_has_code_check", sql`${t.status} <> 'returned' or ${t.returnCode} is not null`),
    matches(t.returnCode, "^R[0-9]{2}$"),
    check("loan_payments_reversed_has_reason_check", sql`${t.status} <> 'reversed' or ${t.reversalReason} is not null`),
    unique("loan_payments_loan_id_reference_key").on(t.loanId, t.reference),
    unique("loan_payments_loan_id_idempotency_key_key").on(t.loanId, t.idempotencyKey),
    index("loan_payments_loan_id_idx").on(t.loanId, t.createdAt),
    // Decision 0056: the ledger read (a loan's posted payments by day received, then in the order they
    // were recorded) in index order, amount and the recovery mark last so the read can be answered from the index alone.
    index("loan_payments_ledger_idx").on(t.loanId, t.status, t.receivedOn, t.createdAt, t.id, t.amountCents, t.recovery),
    index("loan_payments_pending_idx").on(t.status).where(sql`${t.status} = 'pending'`),
    index("loan_payments_refund_due_idx").on(t.loanId).where(sql`${t.status} = 'refund_due'`),
  ],
);

/**
 * The bank account each loan's debits come from (Change Bank Account on the borrower's loan page): one
 * row per account the loan has used, the current one marked, so the history of which account was in
 * use when stays readable. A loan without a row pays from the account given with its application. The
 * account itself is a bank_accounts row (numbers encrypted there, like the application's); restrict, so
 * an account a loan has used is never deleted under it. Later work (validating an account before use,
 * autopay) adds columns here.
 */
export const loanPaymentAccounts = pgTable(
  "loan_payment_accounts",
  {
    id: uuidPk(),
    loanId: loanIdRef(),
    bankAccountId: uuid("bank_account_id")
      .notNull()
      .references(() => bankAccounts.id, { onDelete: "restrict" }),
    isCurrent: boolean("is_current").notNull().default(true),
    createdAt: createdAt(),
    /** When another account replaced it (null while current). */
    replacedAt: timestamptz("replaced_at"),
  },
  (t) => [
    uniqueIndex("loan_payment_accounts_one_current_idx").on(t.loanId).where(sql`${t.isCurrent}`),
    check("loan_payment_accounts_replaced_when_not_current_check", sql`${t.isCurrent} = (${t.replacedAt} is null)`),
    index("loan_payment_accounts_loan_id_idx").on(t.loanId, t.createdAt),
    index("loan_payment_accounts_bank_account_id_idx").on(t.bankAccountId),
  ],
);

/** Fees assessed on a loan: a late fee at most once per installment (the unique key decides across instances). */
export const loanFees = pgTable(
  "loan_fees",
  {
    id: uuidPk(),
    loanId: loanIdRef(),
    kind: text("kind", { enum: LOAN_FEE_KINDS }).notNull(),
    installmentNumber: integer("installment_number").notNull(),
    amountCents: cents("amount_cents").notNull(),
    assessedOn: date("assessed_on", { mode: "string" }).notNull(),
    // A fee the borrower does not owe after all (a bankruptcy stay covering its day, recorded late):
    // the row stays, for the record and so the installment is never charged again; the ledger skips it.
    waivedAt: timestamptz("waived_at"),
    waivedReason: text("waived_reason"),
    createdAt: createdAt(),
  },
  (t) => [
    oneOf(t.kind, LOAN_FEE_KINDS),
    columnCheck(t.amountCents, sql`${t.amountCents} > 0`),
    unique("loan_fees_loan_id_kind_installment_key").on(t.loanId, t.kind, t.installmentNumber),
    check("loan_fees_waived_check", sql`(${t.waivedAt} is null) = (${t.waivedReason} is null)`),
  ],
);

/** Reminders and late notices: one per installment and kind, claimed by an insert (ON CONFLICT DO NOTHING). */
export const servicingNotices = pgTable(
  "servicing_notices",
  {
    loanId: loanIdRef(),
    kind: text("kind", { enum: SERVICING_NOTICE_KINDS }).notNull(),
    installmentNumber: integer("installment_number").notNull(),
    sentAt: timestamptz("sent_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.loanId, t.kind, t.installmentNumber] }), oneOf(t.kind, SERVICING_NOTICE_KINDS)],
);

/** An exported NACHA file of pending borrower debits (kept, encrypted, for the record and re-download). */
export const achBatches = pgTable(
  "ach_batches",
  {
    id: uuidPk(),
    createdBy: text("created_by").references(() => user.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    entryCount: integer("entry_count").notNull(),
    totalCents: cents("total_cents").notNull(),
    fileName: text("file_name").notNull(),
    /** The day the file asks the debits to settle: no entry settles or returns before it. */
    effectiveDate: date("effective_date", { mode: "string" }).notNull(),
    /**
     * The NACHA file (94-character records) encrypted like a bank account number (AES-256-GCM, versioned
     * keys, purpose ach_batches.content): it holds full account and routing numbers. Staff only, audited
     * download. Files written before encryption are sealed by 'Encrypt Existing Bank Data'.
     */
    content: text("content").notNull(),
    /** The credits' total (loan proceeds); total_cents is the debits'. A file of prenotes alone totals zero. */
    creditTotalCents: cents("credit_total_cents").notNull().default(0),
    /** The Company Identification the file's batches carried (return rates are per originator). */
    originatorId: text("originator_id"),
  },
  (t) => [columnCheck(t.entryCount, sql`${t.entryCount} > 0`), nonNegative(t.totalCents), nonNegative(t.creditTotalCents)],
);

/**
 * Funding a signed loan: the ACH credit of its net proceeds to the borrower's account. One live credit
 * per loan (the partial unique index): Fund Loan twice or in parallel creates one row. The checklist as
 * it stood when the credit was prepared is kept with it.
 */
export const loanFundings = pgTable(
  "loan_fundings",
  {
    id: uuidPk(),
    loanId: loanIdRef(),
    bankAccountId: uuid("bank_account_id")
      .notNull()
      .references(() => bankAccounts.id, { onDelete: "restrict" }),
    /** The net proceeds: the amount financed (the amount less a deducted origination fee). */
    amountCents: cents("amount_cents").notNull(),
    /** PPD for a consumer's account, CCD for a business's. */
    secCode: text("sec_code", { enum: ["PPD", "CCD"] }).notNull(),
    status: text("status", { enum: FUNDING_STATUSES }).notNull(),
    checklist: jsonb("checklist").$type<unknown>().notNull(),
    preparedBy: text("prepared_by").references(() => user.id, { onDelete: "set null" }),
    preparedAt: timestamptz("prepared_at").notNull().defaultNow(),
    releasedBy: text("released_by").references(() => user.id, { onDelete: "set null" }),
    releasedAt: timestamptz("released_at"),
    achBatchId: uuid("ach_batch_id").references(() => achBatches.id, { onDelete: "set null" }),
    achTraceNumber: text("ach_trace_number"),
    settledOn: date("settled_on", { mode: "string" }),
    returnedOn: date("returned_on", { mode: "string" }),
    returnCode: text("return_code"),
    cancelledAt: timestamptz("cancelled_at"),
    ...timestamps(),
  },
  (t) => [
    oneOf(t.status, FUNDING_STATUSES),
    oneOf(t.secCode, ["PPD", "CCD"]),
    columnCheck(t.amountCents, sql`${t.amountCents} > 0`),
    uniqueIndex("loan_fundings_one_live_idx").on(t.loanId).where(sql`${t.status} in ('prepared', 'released', 'sent', 'settled')`),
    index("loan_fundings_loan_id_idx").on(t.loanId, t.preparedAt),
    index("loan_fundings_unsent_idx").on(t.preparedAt).where(sql`${t.status} = 'released' and ${t.achBatchId} is null`),
    index("loan_fundings_ach_batch_id_idx").on(t.achBatchId),
  ],
);

/**
 * Validating a bank account before its first debit or credit: a zero-dollar prenote in the next ACH
 * file (validated when no return arrived within ACH_PRENOTE_WAIT_DAYS banking days of its effective
 * date) or a method staff record with a reference. One live validation per account.
 */
export const bankAccountValidations = pgTable(
  "bank_account_validations",
  {
    id: uuidPk(),
    bankAccountId: uuid("bank_account_id")
      .notNull()
      .references(() => bankAccounts.id, { onDelete: "cascade" }),
    method: text("method", { enum: ACCOUNT_VALIDATION_METHODS }).notNull(),
    status: text("status", { enum: ACCOUNT_VALIDATION_STATUSES }).notNull(),
    /** A prenote's class: PPD or CCD for a credit prenote (funding), WEB for a debit prenote. */
    secCode: text("sec_code", { enum: ["PPD", "CCD", "WEB"] }),
    direction: text("direction", { enum: ["credit", "debit"] }),
    // SET NULL, as for the debits: retention removes old ACH files, while the validation they carried
    // stays true (its effective date is kept on the row).
    achBatchId: uuid("ach_batch_id").references(() => achBatches.id, { onDelete: "set null" }),
    achTraceNumber: text("ach_trace_number"),
    /** The prenote's effective entry date (the wait counts banking days from it). */
    effectiveDate: date("effective_date", { mode: "string" }),
    validatedAt: timestamptz("validated_at"),
    returnCode: text("return_code"),
    returnedOn: date("returned_on", { mode: "string" }),
    /** What staff recorded for another method (the service's or letter's reference). */
    reference: text("reference"),
    recordedBy: text("recorded_by").references(() => user.id, { onDelete: "set null" }),
    ...timestamps(),
  },
  (t) => [
    oneOf(t.method, ACCOUNT_VALIDATION_METHODS),
    oneOf(t.status, ACCOUNT_VALIDATION_STATUSES),
    uniqueIndex("bank_account_validations_one_live_idx").on(t.bankAccountId).where(sql`${t.status} <> 'failed'`),
    index("bank_account_validations_unsent_idx").on(t.createdAt).where(sql`${t.status} = 'pending' and ${t.achBatchId} is null`),
    index("bank_account_validations_sent_idx").on(t.effectiveDate).where(sql`${t.status} = 'sent'`),
    index("bank_account_validations_ach_batch_id_idx").on(t.achBatchId),
    // An account's validations, failed ones included (the state a page shows is the live row, else the last failed one).
    index("bank_account_validations_bank_account_id_idx").on(t.bankAccountId, t.createdAt),
  ],
);

/**
 * A borrower's authorisation of recurring autopay debits (Reg E 12 CFR 1005.10(b)): the account, the
 * amount (the installment due, or a fixed larger amount), the day (the due date or up to five days
 * before it), the text's version, time, IP address and browser. One active per loan (the partial
 * unique index): Set Up Autopay twice or in parallel makes one; Change Autopay replaces the row.
 * next_queue_on: the day the servicing job next looks at it (null once it has ended).
 */
export const autopayAuthorizations = pgTable(
  "autopay_authorizations",
  {
    id: uuidPk(),
    loanId: loanIdRef(),
    userId: userIdRef("restrict"),
    bankAccountId: uuid("bank_account_id")
      .notNull()
      .references(() => bankAccounts.id, { onDelete: "restrict" }),
    amountKind: text("amount_kind", { enum: AUTOPAY_AMOUNT_KINDS }).notNull(),
    fixedAmountCents: cents("fixed_amount_cents"),
    daysBeforeDue: integer("days_before_due").notNull(),
    status: text("status", { enum: AUTOPAY_STATUSES }).notNull().default("active"),
    textVersion: text("text_version").notNull(),
    authorizedAt: timestamptz("authorized_at").notNull().defaultNow(),
    authorizationIp: text("authorization_ip"),
    authorizationUserAgent: text("authorization_user_agent"),
    nextQueueOn: date("next_queue_on", { mode: "string" }),
    endedAt: timestamptz("ended_at"),
    endedBy: text("ended_by").references(() => user.id, { onDelete: "set null" }),
    endReason: text("end_reason"),
    /** The return code that stopped it (R02/R03/R04, R05/R07/R10/R11/R29). */
    stopReturnCode: text("stop_return_code"),
    ...timestamps(),
  },
  (t) => [
    oneOf(t.amountKind, AUTOPAY_AMOUNT_KINDS),
    oneOf(t.status, AUTOPAY_STATUSES),
    check("autopay_authorizations_fixed_amount_check", sql`(${t.amountKind} = 'fixed') = (${t.fixedAmountCents} is not null) and (${t.fixedAmountCents} is null or ${t.fixedAmountCents} > 0)`),
    check("autopay_authorizations_days_before_due_check", sql`${t.daysBeforeDue} between 0 and ${sql.raw(String(AUTOPAY_MAX_DAYS_BEFORE_DUE))}`),
    check("autopay_authorizations_ended_check", sql`(${t.status} = 'active') = (${t.endedAt} is null)`),
    matches(t.stopReturnCode, "^R[0-9]{2}$"),
    uniqueIndex("autopay_authorizations_one_active_idx").on(t.loanId).where(sql`${t.status} = 'active'`),
    index("autopay_authorizations_queue_idx").on(t.nextQueueOn, t.id).where(sql`${t.status} = 'active'`),
    index("autopay_authorizations_loan_id_idx").on(t.loanId, t.createdAt),
    index("autopay_authorizations_user_id_idx").on(t.userId),
    index("autopay_authorizations_bank_account_id_idx").on(t.bankAccountId),
  ],
);

/**
 * A bank account no debit may come from after a return: unusable (R02/R03/R04) or blocked
 * (R05/R07/R10/R11/R29). One live restriction per account (cleared_at null); staff can clear it.
 */
export const bankAccountRestrictions = pgTable(
  "bank_account_restrictions",
  {
    id: uuidPk(),
    bankAccountId: uuid("bank_account_id")
      .notNull()
      .references(() => bankAccounts.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ACCOUNT_RESTRICTION_KINDS }).notNull(),
    returnCode: text("return_code").notNull(),
    paymentId: uuid("payment_id").references(() => loanPayments.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    clearedAt: timestamptz("cleared_at"),
    clearedBy: text("cleared_by").references(() => user.id, { onDelete: "set null" }),
    clearReason: text("clear_reason"),
  },
  (t) => [
    oneOf(t.kind, ACCOUNT_RESTRICTION_KINDS),
    matches(t.returnCode, "^R[0-9]{2}$"),
    uniqueIndex("bank_account_restrictions_one_live_idx").on(t.bankAccountId).where(sql`${t.clearedAt} is null`),
  ],
);

/** Something on a loan staff must look at (an unauthorised return); open until staff resolve it with a note. */
export const loanFlags = pgTable(
  "loan_flags",
  {
    id: uuidPk(),
    loanId: loanIdRef(),
    kind: text("kind", { enum: LOAN_FLAG_KINDS }).notNull(),
    paymentId: uuid("payment_id").references(() => loanPayments.id, { onDelete: "set null" }),
    returnCode: text("return_code"),
    summary: text("summary").notNull(),
    createdAt: createdAt(),
    resolvedAt: timestamptz("resolved_at"),
    resolvedBy: text("resolved_by").references(() => user.id, { onDelete: "set null" }),
    resolution: text("resolution"),
  },
  (t) => [
    oneOf(t.kind, LOAN_FLAG_KINDS),
    check("loan_flags_resolved_check", sql`(${t.resolvedAt} is null) = (${t.resolution} is null)`),
    index("loan_flags_open_idx").on(t.createdAt).where(sql`${t.resolvedAt} is null`),
    index("loan_flags_loan_id_idx").on(t.loanId, t.createdAt),
  ],
);

/** A bank's return file imported (npm run ach:returns, or the upload on /admin/ach): once per file (its hash). */
export const achReturnImports = pgTable(
  "ach_return_imports",
  {
    id: uuidPk(),
    fileName: text("file_name").notNull(),
    sha256: text("sha256").notNull(),
    entryCount: integer("entry_count").notNull(),
    importedBy: text("imported_by").references(() => user.id, { onDelete: "set null" }),
    importedAt: createdAt(),
  },
  (t) => [unique("ach_return_imports_sha256_key").on(t.sha256), columnCheck(t.entryCount, sql`${t.entryCount} > 0`)],
);

/** A contact attempt staff logged on a late loan (Log Contact): channel, outcome, note, the next action. */
export const collectionContacts = pgTable(
  "collection_contacts",
  {
    id: uuidPk(),
    loanId: loanIdRef(),
    staffId: text("staff_id").references(() => user.id, { onDelete: "set null" }),
    channel: text("channel", { enum: CONTACT_CHANNELS }).notNull(),
    outcome: text("outcome", { enum: CONTACT_OUTCOMES }).notNull(),
    note: text("note"),
    nextAction: text("next_action"),
    nextActionOn: date("next_action_on", { mode: "string" }),
    contactedAt: timestamptz("contacted_at").notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [
    oneOf(t.channel, CONTACT_CHANNELS),
    oneOf(t.outcome, CONTACT_OUTCOMES),
    columnCheck(t.note, whenPresent(t.note, sql`char_length(${t.note}) <= ${lit(COLLECTIONS_LIMITS.noteMaxLength)}`)),
    columnCheck(t.nextAction, whenPresent(t.nextAction, sql`char_length(${t.nextAction}) <= ${lit(COLLECTIONS_LIMITS.nextActionMaxLength)}`)),
    index("collection_contacts_loan_id_idx").on(t.loanId, t.contactedAt),
  ],
);

/** A promise to pay: amount by a day; kept when payments that much post by then, broken the day after if not. */
export const paymentPromises = pgTable(
  "payment_promises",
  {
    id: uuidPk(),
    loanId: loanIdRef(),
    staffId: text("staff_id").references(() => user.id, { onDelete: "set null" }),
    amountCents: cents("amount_cents").notNull(),
    promisedOn: date("promised_on", { mode: "string" }).notNull(),
    status: text("status", { enum: PROMISE_STATUSES }).notNull().default("open"),
    /** Payments posted on the loan before the promise: what counts toward it is what posts after. */
    createdAt: createdAt(),
    resolvedAt: timestamptz("resolved_at"),
    resolvedBy: text("resolved_by").references(() => user.id, { onDelete: "set null" }),
  },
  (t) => [
    oneOf(t.status, PROMISE_STATUSES),
    columnCheck(t.amountCents, sql`${t.amountCents} > 0`),
    check("payment_promises_resolved_check", sql`(${t.status} = 'open') = (${t.resolvedAt} is null)`),
    index("payment_promises_loan_id_idx").on(t.loanId, t.createdAt),
    index("payment_promises_open_idx").on(t.promisedOn, t.id).where(sql`${t.status} = 'open'`),
  ],
);

/** A borrower's Request Help with Payments: why, what they can pay; staff answer with a plan or close it. */
export const hardshipRequests = pgTable(
  "hardship_requests",
  {
    id: uuidPk(),
    loanId: loanIdRef(),
    userId: userIdRef("restrict"),
    reason: text("reason", { enum: HARDSHIP_REASONS }).notNull(),
    details: text("details"),
    canPayCents: cents("can_pay_cents").notNull(),
    status: text("status", { enum: HARDSHIP_REQUEST_STATUSES }).notNull().default("open"),
    closedAt: timestamptz("closed_at"),
    closedBy: text("closed_by").references(() => user.id, { onDelete: "set null" }),
    closeNote: text("close_note"),
    ...timestamps(),
  },
  (t) => [
    oneOf(t.reason, HARDSHIP_REASONS),
    oneOf(t.status, HARDSHIP_REQUEST_STATUSES),
    nonNegative(t.canPayCents),
    columnCheck(t.details, whenPresent(t.details, sql`char_length(${t.details}) <= ${lit(COLLECTIONS_LIMITS.hardshipDetailsMaxLength)}`)),
    check("hardship_requests_closed_check", sql`(${t.status} = 'closed') = (${t.closedAt} is not null)`),
    // One request in progress per loan: asking twice (or in parallel) keeps one.
    uniqueIndex("hardship_requests_one_open_idx").on(t.loanId).where(sql`${t.status} <> 'closed'`),
    index("hardship_requests_loan_id_idx").on(t.loanId, t.createdAt),
    index("hardship_requests_user_id_idx").on(t.userId),
    index("hardship_requests_open_idx").on(t.createdAt).where(sql`${t.status} = 'open'`),
  ],
);

/**
 * A hardship plan offered by staff and signed by the borrower like the agreement: the change (as
 * offered, app/domain/loan-modifications.ts ScheduleChangeOffer), then at signing the change as signed
 * (with its day and a payment plan's later payment), the signed PDF's storage key and hash, the evidence.
 */
export const loanModifications = pgTable(
  "loan_modifications",
  {
    id: uuidPk(),
    loanId: loanIdRef(),
    hardshipRequestId: uuid("hardship_request_id").references(() => hardshipRequests.id, { onDelete: "set null" }),
    kind: text("kind", { enum: MODIFICATION_KINDS }).notNull(),
    offer: jsonb("offer").$type<unknown>().notNull(),
    status: text("status", { enum: MODIFICATION_STATUSES }).notNull().default("offered"),
    offeredBy: text("offered_by").references(() => user.id, { onDelete: "set null" }),
    offeredAt: timestamptz("offered_at").notNull().defaultNow(),
    expiresOn: date("expires_on", { mode: "string" }).notNull(),
    note: text("note"),
    /** The change as signed, appended to approved_loans.schedule_changes in the same transaction. */
    signedChange: jsonb("signed_change").$type<unknown>(),
    signedAt: timestamptz("signed_at"),
    signerName: text("signer_name"),
    signatureKind: text("signature_kind", { enum: SIGNATURE_KINDS }),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    storageKey: text("storage_key").unique(),
    sha256: char("sha256", { length: 64 }),
    /** Total of payments left and total interest, before and after: the plan's effect on the total cost. */
    totalsBefore: jsonb("totals_before").$type<unknown>(),
    totalsAfter: jsonb("totals_after").$type<unknown>(),
    endedAt: timestamptz("ended_at"),
    endedBy: text("ended_by").references(() => user.id, { onDelete: "set null" }),
    ...timestamps(),
  },
  (t) => [
    oneOf(t.kind, MODIFICATION_KINDS),
    oneOf(t.status, MODIFICATION_STATUSES),
    matches(t.sha256, "^[0-9a-f]{64}$"),
    check("loan_modifications_signed_check", sql`(${t.status} = 'signed') = (${t.signedAt} is not null) and (${t.signedAt} is null or (${t.signedChange} is not null and ${t.storageKey} is not null and ${t.sha256} is not null and ${t.signerName} is not null))`),
    // One offer open per loan: a plan accepted twice (or two offers) applies once.
    uniqueIndex("loan_modifications_one_offered_idx").on(t.loanId).where(sql`${t.status} = 'offered'`),
    index("loan_modifications_loan_id_idx").on(t.loanId, t.offeredAt),
  ],
);

/**
 * A protected borrower on a loan: an active-duty servicemember (SCRA: interest above 6 % forgiven from
 * the start of service, collections contact stops) or a bankruptcy filing (the automatic stay:
 * collections, notices and autopay stop at once). Ended by staff (service over, case dismissed).
 */
export const loanProtections = pgTable(
  "loan_protections",
  {
    id: uuidPk(),
    loanId: loanIdRef(),
    kind: text("kind", { enum: PROTECTION_KINDS }).notNull(),
    startsOn: date("starts_on", { mode: "string" }).notNull(),
    endsOn: date("ends_on", { mode: "string" }),
    /** Orders or case number, court: what staff checked. */
    reference: text("reference").notNull(),
    note: text("note"),
    recordedBy: text("recorded_by").references(() => user.id, { onDelete: "set null" }),
    recordedAt: timestamptz("recorded_at").notNull().defaultNow(),
    endedAt: timestamptz("ended_at"),
    endedBy: text("ended_by").references(() => user.id, { onDelete: "set null" }),
  },
  (t) => [
    oneOf(t.kind, PROTECTION_KINDS),
    check("loan_protections_dates_check", sql`${t.endsOn} is null or ${t.endsOn} >= ${t.startsOn}`),
    columnCheck(t.reference, sql`char_length(${t.reference}) between 1 and ${lit(COLLECTIONS_LIMITS.referenceMaxLength)}`),
    uniqueIndex("loan_protections_one_active_idx").on(t.loanId, t.kind).where(sql`${t.endedAt} is null`),
    index("loan_protections_loan_id_idx").on(t.loanId, t.recordedAt),
  ],
);

/** A charge-off at or above the four-eyes threshold, proposed by one admin and decided by another. */
export const chargeOffRequests = pgTable(
  "charge_off_requests",
  {
    id: uuidPk(),
    loanId: loanIdRef(),
    requestedBy: text("requested_by").references(() => user.id, { onDelete: "set null" }),
    reason: text("reason").notNull(),
    amountCents: cents("amount_cents").notNull(),
    status: text("status", { enum: CHARGE_OFF_REQUEST_STATUSES }).notNull().default("pending"),
    decidedBy: text("decided_by").references(() => user.id, { onDelete: "set null" }),
    decidedAt: timestamptz("decided_at"),
    createdAt: createdAt(),
  },
  (t) => [
    oneOf(t.status, CHARGE_OFF_REQUEST_STATUSES),
    nonNegative(t.amountCents),
    columnCheck(t.reason, sql`char_length(${t.reason}) between 1 and ${lit(COLLECTIONS_LIMITS.reasonMaxLength)}`),
    check("charge_off_requests_decided_check", sql`(${t.status} = 'pending') = (${t.decidedAt} is null)`),
    uniqueIndex("charge_off_requests_one_pending_idx").on(t.loanId).where(sql`${t.status} = 'pending'`),
  ],
);

/**
 * Each active loan's delinquency bucket and principal at a month's end (as_of, the last day), written
 * once a month by the delinquency job: the month-over-month roll rates compare two of these.
 */
export const delinquencySnapshots = pgTable(
  "delinquency_snapshots",
  {
    asOf: date("as_of", { mode: "string" }).notNull(),
    loanId: loanIdRef(),
    bucket: text("bucket", { enum: DELINQUENCY_BUCKET_KEYS }).notNull(),
    principalCents: cents("principal_cents").notNull(),
  },
  (t) => [primaryKey({ columns: [t.asOf, t.loanId] }), oneOf(t.bucket, DELINQUENCY_BUCKET_KEYS), nonNegative(t.principalCents), index("delinquency_snapshots_loan_id_idx").on(t.loanId)],
);

/** A snapshot's totals by bucket (count and principal): what the reports page reads (a handful of rows). */
export const delinquencyTotals = pgTable(
  "delinquency_totals",
  {
    asOf: date("as_of", { mode: "string" }).notNull(),
    bucket: text("bucket", { enum: DELINQUENCY_BUCKET_KEYS }).notNull(),
    loans: integer("loans").notNull(),
    principalCents: cents("principal_cents").notNull(),
  },
  (t) => [primaryKey({ columns: [t.asOf, t.bucket] }), oneOf(t.bucket, DELINQUENCY_BUCKET_KEYS), nonNegative(t.loans), nonNegative(t.principalCents)],
);

/** From one month-end snapshot to the next: loans (and principal) that went from one bucket to another. */
export const delinquencyRolls = pgTable(
  "delinquency_rolls",
  {
    asOf: date("as_of", { mode: "string" }).notNull(),
    fromBucket: text("from_bucket", { enum: DELINQUENCY_BUCKET_KEYS }).notNull(),
    toBucket: text("to_bucket").notNull(),
    loans: integer("loans").notNull(),
    principalCents: cents("principal_cents").notNull(),
  },
  (t) => [primaryKey({ columns: [t.asOf, t.fromBucket, t.toBucket] }), oneOf(t.fromBucket, DELINQUENCY_BUCKET_KEYS), nonNegative(t.loans), nonNegative(t.principalCents)],
);

/**
 * The last trace-number sequence used per originating bank and day: NACHA wants trace numbers unique
 * per originator and day, across every file and every instance. A batch takes its range with one
 * upsert (ON CONFLICT … DO UPDATE … RETURNING), which also serialises two batches made at once.
 */
export const achTraceSequences = pgTable(
  "ach_trace_sequences",
  {
    originatingDfi: text("originating_dfi").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    lastSequence: integer("last_sequence").notNull(),
  },
  (t) => [primaryKey({ columns: [t.originatingDfi, t.day] }), columnCheck(t.lastSequence, sql`${t.lastSequence} between 1 and 9999999`)],
);

/**
 * Sign-up e-mail codes. Only a hash of the code is stored. A code is verified at most once,
 * then consumed (consumed_at) by the account creation that used it: single use.
 */
export const emailVerificationCodes = pgTable(
  "email_verification_codes",
  {
    id: uuidPk(),
    /** Lowercased. */
    email: text("email").notNull(),
    codeHash: text("code_hash").notNull(),
    purpose: text("purpose", { enum: VERIFICATION_CODE_PURPOSES }).notNull().default("sign-up"),
    /** Change Email: the account asking (the code goes to the new address in `email`). */
    userId: text("user_id").references(() => user.id, { onDelete: "cascade" }),
    expiresAt: timestamptz("expires_at").notNull(),
    verified: boolean("verified").notNull().default(false),
    verifiedAt: timestamptz("verified_at"),
    consumedAt: timestamptz("consumed_at"),
    /** Wrong tries so far (at most LIMITS.maxVerificationAttempts). */
    attempts: integer("attempts").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    columnCheck(t.email, sql`${t.email} = lower(${t.email})`),
    oneOf(t.purpose, VERIFICATION_CODE_PURPOSES),
    columnCheck(t.attempts, sql`${t.attempts} between 0 and ${lit(LIMITS.maxVerificationAttempts)}`),
    columnCheck(t.verifiedAt, sql`not ${t.verified} or ${t.verifiedAt} is not null`),
    columnCheck(t.consumedAt, sql`${t.consumedAt} is null or ${t.verified}`),
    index("email_verification_codes_email_created_at_idx").on(t.email, t.createdAt.desc().nullsFirst()),
  ],
);

export const testimonials = pgTable(
  "testimonials",
  {
    id: uuidPk(),
    userId: text("user_id").references(() => user.id, { onDelete: "set null" }),
    fullName: text("full_name").notNull(),
    /** Falls back to the full name. */
    displayName: text("display_name").notNull(),
    role: text("role").notNull(),
    location: text("location"),
    content: text("content").notNull(),
    rating: integer("rating").notNull(),
    status: text("status", { enum: TESTIMONIAL_STATUSES }).notNull().default("pending"),
    createdAt: createdAt(),
    ...review(),
  },
  (t) => [
    columnCheck(t.content, sql`char_length(${t.content}) between 1 and ${lit(LIMITS.testimonialMaxLength)}`),
    columnCheck(
      t.rating,
      sql`${t.rating} between ${lit(LIMITS.testimonialRatingMin)} and ${lit(LIMITS.testimonialRatingMax)}`,
    ),
    oneOf(t.status, TESTIMONIAL_STATUSES),
    index("testimonials_status_created_at_idx").on(t.status, t.createdAt.desc().nullsFirst()),
  ],
);

export const contactMessages = pgTable(
  "contact_messages",
  {
    id: uuidPk(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    phone: text("phone"),
    subject: text("subject").notNull(),
    message: text("message").notNull(),
    ipAddress: text("ip_address"),
    status: text("status", { enum: CONTACT_MESSAGE_STATUSES }).notNull().default("new"),
    createdAt: createdAt(),
  },
  (t) => [
    oneOf(t.status, CONTACT_MESSAGE_STATUSES),
    // A view's page (newest first, Inbox or Archived), its ids from the index alone
    // (it replaced contact_messages_created_at_idx, its first column).
    index("contact_messages_created_at_id_status_idx").on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst(), t.status),
  ],
);

/**
 * Append-only audit trail (a trigger refuses UPDATE, DELETE and TRUNCATE). actor_id has no
 * foreign key on purpose: deleting a user must not rewrite history, so the actor's name and
 * e-mail are copied into the row when it is written.
 */
/**
 * Audit entries per UTC hour and actor ('' for the system), kept by a statement trigger on
 * audit_log (drizzle/0012) in the same transaction as the entries, so /admin/monitoring reads
 * hours × actors rows plus at most one hour of entries, not every entry of its range. The latest
 * entry's name and e-mail are kept (an admin may be renamed). Derived from audit_log.
 */
export const auditActivityHourly = pgTable(
  "audit_activity_hourly",
  {
    hour: timestamptz("hour").notNull(),
    actorId: text("actor_id").notNull(),
    actions: integer("actions").notNull(),
    lastAt: timestamptz("last_at").notNull(),
    lastId: bigint("last_id", { mode: "number" }).notNull(),
    /**
     * The smallest and largest id of the hour's entries (drizzle/0015): the audit export of a range
     * reads its id interval from the range's hours, so its first batch starts inside the primary key.
     */
    minId: bigint("min_id", { mode: "number" }).notNull(),
    maxId: bigint("max_id", { mode: "number" }).notNull(),
    actorName: text("actor_name"),
    actorEmail: text("actor_email"),
    tables: text("tables").array().notNull(),
  },
  (t) => [primaryKey({ columns: [t.hour, t.actorId] })],
);

export const auditLog = pgTable(
  "audit_log",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    actorId: text("actor_id"),
    actorName: text("actor_name"),
    actorEmail: text("actor_email"),
    /** Dotted event name, e.g. 'ssn.reveal', 'application.approve'. */
    action: text("action").notNull(),
    tableName: text("table_name"),
    recordId: text("record_id"),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
    /**
     * The hash chain (decision 0035): set by the deferred trigger audit_log_seal at commit,
     * one transaction at a time. row_hash = SHA-256 of the row's canonical text, which includes
     * prev_hash (the row_hash of chain_seq - 1). `npm run audit:verify` walks it.
     */
    chainSeq: bigint("chain_seq", { mode: "number" }),
    prevHash: text("prev_hash"),
    rowHash: text("row_hash"),
  },
  (t) => [
    uniqueIndex("audit_log_chain_seq_idx").on(t.chainSeq),
    // (created_at, id): the log's order exactly, so the latest 50 of a range are its first 50 entries
    // even when thousands share one instant (one transaction's rows share now()); drizzle/0015.
    index("audit_log_created_at_id_idx").on(t.createdAt, t.id),
    index("audit_log_actor_id_created_at_idx").on(t.actorId, t.createdAt.desc().nullsFirst()),
  ],
);

/** Outgoing e-mail, written in the same transaction as the change it reports; a worker sends it. */
export const emailOutbox = pgTable(
  "email_outbox",
  {
    id: uuidPk(),
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    textBody: text("text_body").notNull(),
    htmlBody: text("html_body"),
    /** Which template produced it, e.g. 'verification-code'. */
    template: text("template").notNull(),
    status: text("status", { enum: EMAIL_OUTBOX_STATUSES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamptz("next_attempt_at").notNull().defaultNow(),
    lastError: text("last_error"),
    /** A worker's claim on a 'sending' row; past it, another worker may retry. */
    lockedUntil: timestamptz("locked_until"),
    sentAt: timestamptz("sent_at"),
    createdAt: createdAt(),
  },
  (t) => [
    oneOf(t.status, EMAIL_OUTBOX_STATUSES),
    nonNegative(t.attempts),
    index("email_outbox_status_next_attempt_at_idx").on(t.status, t.nextAttemptAt),
  ],
);

/**
 * One run of a background job (decision 0081), written outside the job's own transaction so a failed
 * run is recorded even when its work rolled back. A Retry writes a 'queued' row that the job's next
 * start claims; `instance` names the process that ran it (host:pid). The last runs per job are kept.
 */
export const jobRuns = pgTable(
  "job_runs",
  {
    id: uuidPk(),
    job: text("job", { enum: JOB_NAMES }).notNull(),
    status: text("status", { enum: JOB_RUN_STATUSES }).notNull(),
    queuedAt: timestamptz("queued_at"),
    /** The admin whose Retry queued it; null for a scheduled run. */
    requestedBy: text("requested_by"),
    startedAt: timestamptz("started_at"),
    finishedAt: timestamptz("finished_at"),
    instance: text("instance"),
    error: text("error"),
    createdAt: createdAt(),
  },
  (t) => [
    oneOf(t.job, JOB_NAMES),
    oneOf(t.status, JOB_RUN_STATUSES),
    index("job_runs_job_created_at_idx").on(t.job, t.createdAt),
  ],
);

/**
 * Staff second factor (FTC Safeguards Rule 16 CFR 314.4(c)(5)): a TOTP secret (encrypted with the
 * field key), hashed single-use backup codes, and the last time step used (no code replays).
 */
export const adminMfa = pgTable("admin_mfa", {
  userId: userIdKey(),
  secretEncrypted: text("secret_encrypted").notNull(),
  backupCodeHashes: text("backup_code_hashes").array().notNull(),
  /** Null while enrolment is pending (QR shown, first code not yet confirmed). */
  enabledAt: timestamptz("enabled_at"),
  lastUsedStep: bigint("last_used_step", { mode: "number" }),
  failedAttempts: integer("failed_attempts").notNull().default(0),
  lockedUntil: timestamptz("locked_until"),
  createdAt: createdAt(),
});

/** Sessions whose second factor was verified; admin data is reachable only from these. */
export const sessionMfa = pgTable(
  "session_mfa",
  {
    sessionId: text("session_id")
      .primaryKey()
      .references(() => session.id, { onDelete: "cascade" }),
    userId: userIdRef("cascade"),
    verifiedAt: timestamptz("verified_at").notNull().defaultNow(),
  },
  (t) => [index("session_mfa_user_id_idx").on(t.userId)],
);

// ---------------------------------------------------------------------------------------------
// The applicant's own account.
// ---------------------------------------------------------------------------------------------

/**
 * Save and Finish Later: one server-side draft per applicant and loan type. Plain wizard values in
 * `data`; the SSN and bank numbers only inside `sensitive_encrypted` (one AES-256-GCM ciphertext of a
 * JSON object, the field key as for submitted values). Removed by the retention job once expired.
 */
export const applicationDrafts = pgTable(
  "application_drafts",
  {
    id: uuidPk(),
    userId: userIdRef("cascade"),
    loanType: text("loan_type", { enum: LOAN_TYPES }).notNull(),
    /** The wizard step reached (1–5). */
    step: integer("step").notNull().default(1),
    data: jsonb("data").$type<Record<string, string>>().notNull().default({}),
    sensitiveEncrypted: text("sensitive_encrypted"),
    ...timestamps(),
    expiresAt: timestamptz("expires_at").notNull(),
  },
  (t) => [
    unique("application_drafts_user_id_loan_type_key").on(t.userId, t.loanType),
    oneOf(t.loanType, LOAN_TYPES),
    columnCheck(t.step, sql`${t.step} between 1 and 5`),
    index("application_drafts_expires_at_idx").on(t.expiresAt),
  ],
);

/** Files uploaded into a draft (kept in storage under the draft until submission moves them). */
export const draftDocuments = pgTable(
  "draft_documents",
  {
    id: uuidPk(),
    draftId: uuid("draft_id")
      .notNull()
      .references(() => applicationDrafts.id, { onDelete: "cascade" }),
    userId: userIdRef("cascade"),
    documentType: text("document_type", { enum: DOCUMENT_TYPES }).notNull(),
    storageKey: text("storage_key").notNull(),
    fileName: text("file_name").notNull(),
    mimeType: text("mime_type").notNull(),
    fileSize: integer("file_size").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    unique("draft_documents_draft_id_document_type_key").on(t.draftId, t.documentType),
    oneOf(t.documentType, DOCUMENT_TYPES),
    nonNegative(t.fileSize),
  ],
);

/** Optional e-mail an applicant chose (transactional notices always go). */
export const notificationPreferences = pgTable("notification_preferences", {
  userId: userIdKey(),
  paymentReminders: boolean("payment_reminders").notNull().default(true),
  productNews: boolean("product_news").notNull().default(false),
  updatedAt: updatedAt(),
});

/** Which version of the privacy notice a person accepted, and when. */
export const privacyAcceptances = pgTable(
  "privacy_acceptances",
  {
    id: uuidPk(),
    userId: userIdRef("cascade"),
    noticeVersion: text("notice_version").notNull(),
    acceptedAt: timestamptz("accepted_at").notNull().defaultNow(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
  },
  (t) => [unique("privacy_acceptances_user_id_notice_version_key").on(t.userId, t.noticeVersion)],
);

/** WebAuthn credentials (passkeys) for applicants and staff. */
export const passkeys = pgTable(
  "passkeys",
  {
    id: uuidPk(),
    userId: userIdRef("cascade"),
    /** base64url credential id. */
    credentialId: text("credential_id").notNull().unique(),
    /** base64url COSE public key. */
    publicKey: text("public_key").notNull(),
    counter: bigint("counter", { mode: "number" }).notNull().default(0),
    transports: text("transports").array().notNull().default(sql`'{}'::text[]`),
    deviceType: text("device_type"),
    backedUp: boolean("backed_up").notNull().default(false),
    name: text("name").notNull(),
    aaguid: text("aaguid"),
    createdAt: createdAt(),
    lastUsedAt: timestamptz("last_used_at"),
  },
  (t) => [index("passkeys_user_id_idx").on(t.userId), columnCheck(t.name, sql`char_length(${t.name}) between 1 and 60`)],
);

/** Outstanding WebAuthn challenges: each used once, within minutes. */
export const webauthnChallenges = pgTable(
  "webauthn_challenges",
  {
    id: uuidPk(),
    /** Null for a sign-in that has not named its account yet. */
    userId: text("user_id").references(() => user.id, { onDelete: "cascade" }),
    challenge: text("challenge").notNull().unique(),
    purpose: text("purpose", { enum: WEBAUTHN_PURPOSES }).notNull(),
    expiresAt: timestamptz("expires_at").notNull(),
    consumedAt: timestamptz("consumed_at"),
    createdAt: createdAt(),
  },
  (t) => [oneOf(t.purpose, WEBAUTHN_PURPOSES), index("webauthn_challenges_expires_at_idx").on(t.expiresAt)],
);

/** Download My Data requests: the ZIP is prepared in the background and linked for 24 hours. */
export const dataExports = pgTable(
  "data_exports",
  {
    id: uuidPk(),
    userId: userIdRef("cascade"),
    status: text("status", { enum: DATA_EXPORT_STATUSES }).notNull().default("pending"),
    storageKey: text("storage_key"),
    /** SHA-256 of the download link's token. */
    tokenHash: text("token_hash").unique(),
    requestedAt: timestamptz("requested_at").notNull().defaultNow(),
    readyAt: timestamptz("ready_at"),
    expiresAt: timestamptz("expires_at"),
    downloadedAt: timestamptz("downloaded_at"),
    error: text("error"),
  },
  (t) => [
    oneOf(t.status, DATA_EXPORT_STATUSES),
    index("data_exports_user_id_idx").on(t.userId, t.requestedAt),
    // One export in preparation per person.
    uniqueIndex("data_exports_one_pending_idx").on(t.userId).where(sql`${t.status} = 'pending'`),
  ],
);

/** Fixed-window counters for our own throttles, shared by every instance. */
export const rateLimitHits = pgTable(
  "rate_limit_hits",
  {
    key: text("key").notNull(),
    windowStart: timestamptz("window_start").notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [
    primaryKey({ name: "rate_limit_hits_pkey", columns: [t.key, t.windowStart] }),
    nonNegative(t.count),
    index("rate_limit_hits_window_start_idx").on(t.windowStart),
  ],
);

/**
 * One publication of an OFAC sanctions list as loaded by `npm run sanctions:load` (decision 0089). Kept
 * after a newer load replaces its entries: it records which publication screenings compared against.
 */
export const sanctionsListLoads = pgTable(
  "sanctions_list_loads",
  {
    id: uuidPk(),
    list: text("list", { enum: SANCTIONS_LISTS }).notNull(),
    /** The publication date the operator gave (OFAC's CSV files carry none). */
    publishedOn: date("published_on", { mode: "string" }).notNull(),
    fileNames: text("file_names").array().notNull(),
    entryCount: integer("entry_count").notNull(),
    loadedAt: timestamptz("loaded_at").notNull().defaultNow(),
  },
  (t) => [
    oneOf(t.list, SANCTIONS_LISTS),
    nonNegative(t.entryCount),
    index("sanctions_list_loads_list_loaded_at_idx").on(t.list, t.loadedAt),
  ],
);

/**
 * The entries of each list's current load; a new load of a list deletes the previous entries and
 * writes its own in one transaction, so a screening reads one whole publication. Public data: no
 * field is encrypted.
 */
export const sanctionsEntries = pgTable(
  "sanctions_entries",
  {
    id: uuidPk(),
    listLoadId: uuid("list_load_id")
      .notNull()
      .references(() => sanctionsListLoads.id, { onDelete: "cascade" }),
    list: text("list", { enum: SANCTIONS_LISTS }).notNull(),
    /** The list's ent_num. */
    entityNumber: integer("entity_number").notNull(),
    primaryName: text("primary_name").notNull(),
    entityType: text("entity_type", { enum: SANCTIONS_ENTITY_TYPES }).notNull(),
    programs: text("programs").array().notNull(),
    aliases: jsonb("aliases").$type<SanctionsAlias[]>().notNull(),
    /** "yyyy-MM-dd", "yyyy-MM" or "yyyy", from the Remarks' DOB. */
    datesOfBirth: text("dates_of_birth").array().notNull(),
    /** From the addresses' Country and the Remarks' nationality and citizenship. */
    countries: text("countries").array().notNull(),
    /** The primary name and aliases normalised as the matching compares them (~/domain/sanctions-matching). */
    nameKeys: text("name_keys").array().notNull(),
    /** SHA-256 of what screening shows of the entry: changes when the entry does. */
    fingerprint: text("fingerprint").notNull(),
  },
  (t) => [
    oneOf(t.list, SANCTIONS_LISTS),
    oneOf(t.entityType, SANCTIONS_ENTITY_TYPES),
    unique("sanctions_entries_list_entity_number_key").on(t.list, t.entityNumber),
    index("sanctions_entries_list_load_id_idx").on(t.listLoadId),
  ],
);

/** Each screening of an application's applicant against the lists (at submission, at Fund Loan, after each list load). */
export const sanctionsScreenings = pgTable(
  "sanctions_screenings",
  {
    id: uuidPk(),
    applicationId: applicationIdRef("cascade"),
    trigger: text("trigger", { enum: SANCTIONS_SCREENING_TRIGGERS }).notNull(),
    screenedAt: timestamptz("screened_at").notNull().defaultNow(),
    /** The publications compared against ([] when no list was loaded). */
    lists: jsonb("lists").$type<unknown>().notNull(),
    threshold: numeric("threshold", { precision: 4, scale: 3, mode: "number" }).notNull(),
    /** How many potential matches it found (before cleared ones were set aside). */
    matchCount: integer("match_count").notNull(),
  },
  (t) => [oneOf(t.trigger, SANCTIONS_SCREENING_TRIGGERS), nonNegative(t.matchCount), index("sanctions_screenings_application_id_idx").on(t.applicationId, t.screenedAt)],
);

/**
 * A potential match of an application's applicant with a list entry, as found (the entry shown to
 * staff) and decided: open blocks funding; cleared (a reason) is not flagged again while the entry's
 * fingerprint is the same; confirmed denies and freezes the application.
 */
export const sanctionsMatches = pgTable(
  "sanctions_matches",
  {
    id: uuidPk(),
    applicationId: applicationIdRef("cascade"),
    screeningId: uuid("screening_id")
      .notNull()
      .references(() => sanctionsScreenings.id, { onDelete: "cascade" }),
    entryFingerprint: text("entry_fingerprint").notNull(),
    match: jsonb("match").$type<SanctionsMatch>().notNull(),
    status: text("status", { enum: SANCTIONS_MATCH_STATUSES }).notNull().default("open"),
    decidedBy: text("decided_by").references(() => user.id, { onDelete: "set null" }),
    decidedAt: timestamptz("decided_at"),
    reason: text("reason"),
    createdAt: createdAt(),
  },
  (t) => [
    oneOf(t.status, SANCTIONS_MATCH_STATUSES),
    unique("sanctions_matches_application_id_fingerprint_key").on(t.applicationId, t.entryFingerprint),
    index("sanctions_matches_open_idx").on(t.createdAt).where(sql`${t.status} = 'open'`),
  ],
);

// ---------------------------------------------------------------------------------------------
// Relations (for db.query.*; they create no constraints). Relation names on the auth tables follow
// what Better Auth's schema generator emits (user.sessions, user.accounts, session.user, ...).
// ---------------------------------------------------------------------------------------------

export const userRelations = relations(user, ({ one, many }) => ({
  sessions: many(session),
  accounts: many(account),
  twoFactors: many(twoFactor),
  profile: one(profiles, { fields: [user.id], references: [profiles.id] }),
  roles: many(userRoles),
  loanApplications: many(loanApplications, { relationName: "applicant" }),
  loanDocuments: many(loanDocuments),
  bankAccounts: many(bankAccounts),
  approvedLoans: many(approvedLoans),
  testimonials: many(testimonials, { relationName: "author" }),
}));

export const sessionRelations = relations(session, ({ one }) => ({
  user: one(user, { fields: [session.userId], references: [user.id] }),
}));

export const accountRelations = relations(account, ({ one }) => ({
  user: one(user, { fields: [account.userId], references: [user.id] }),
}));

export const twoFactorRelations = relations(twoFactor, ({ one }) => ({
  user: one(user, { fields: [twoFactor.userId], references: [user.id] }),
}));

export const profilesRelations = relations(profiles, ({ one }) => ({
  user: one(user, { fields: [profiles.id], references: [user.id] }),
}));

export const userRolesRelations = relations(userRoles, ({ one }) => ({
  user: one(user, { fields: [userRoles.userId], references: [user.id] }),
}));

export const loanApplicationsRelations = relations(loanApplications, ({ one, many }) => ({
  user: one(user, { fields: [loanApplications.userId], references: [user.id], relationName: "applicant" }),
  reviewer: one(user, { fields: [loanApplications.reviewedBy], references: [user.id], relationName: "reviewer" }),
  profile: one(profiles, { fields: [loanApplications.userId], references: [profiles.id] }),
  documents: many(loanDocuments),
  bankAccounts: many(bankAccounts),
  approvedLoan: one(approvedLoans, { fields: [loanApplications.id], references: [approvedLoans.applicationId] }),
}));

export const loanDocumentsRelations = relations(loanDocuments, ({ one }) => ({
  application: one(loanApplications, { fields: [loanDocuments.applicationId], references: [loanApplications.id] }),
  user: one(user, { fields: [loanDocuments.userId], references: [user.id] }),
}));

export const bankAccountsRelations = relations(bankAccounts, ({ one }) => ({
  application: one(loanApplications, { fields: [bankAccounts.applicationId], references: [loanApplications.id] }),
  user: one(user, { fields: [bankAccounts.userId], references: [user.id] }),
}));

export const approvedLoansRelations = relations(approvedLoans, ({ one }) => ({
  application: one(loanApplications, { fields: [approvedLoans.applicationId], references: [loanApplications.id] }),
  user: one(user, { fields: [approvedLoans.userId], references: [user.id] }),
}));

export const testimonialsRelations = relations(testimonials, ({ one }) => ({
  user: one(user, { fields: [testimonials.userId], references: [user.id], relationName: "author" }),
}));

// ---------------------------------------------------------------------------------------------
// Row types
// ---------------------------------------------------------------------------------------------

export type User = typeof user.$inferSelect;
export type NewUser = typeof user.$inferInsert;
export type Session = typeof session.$inferSelect;
export type Account = typeof account.$inferSelect;
export type Verification = typeof verification.$inferSelect;
export type TwoFactor = typeof twoFactor.$inferSelect;
export type RateLimit = typeof rateLimit.$inferSelect;
export type Profile = typeof profiles.$inferSelect;
export type NewProfile = typeof profiles.$inferInsert;
export type UserRoleRow = typeof userRoles.$inferSelect;
export type NewUserRoleRow = typeof userRoles.$inferInsert;
export type LoanApplication = typeof loanApplications.$inferSelect;
export type NewLoanApplication = typeof loanApplications.$inferInsert;
export type LoanDocument = typeof loanDocuments.$inferSelect;
export type NewLoanDocument = typeof loanDocuments.$inferInsert;
export type BankAccount = typeof bankAccounts.$inferSelect;
export type NewBankAccount = typeof bankAccounts.$inferInsert;
export type ApprovedLoan = typeof approvedLoans.$inferSelect;
export type NewApprovedLoan = typeof approvedLoans.$inferInsert;
export type EmailVerificationCode = typeof emailVerificationCodes.$inferSelect;
export type NewEmailVerificationCode = typeof emailVerificationCodes.$inferInsert;
export type Testimonial = typeof testimonials.$inferSelect;
export type NewTestimonial = typeof testimonials.$inferInsert;
export type ContactMessage = typeof contactMessages.$inferSelect;
export type NewContactMessage = typeof contactMessages.$inferInsert;
export type AuditLogEntry = typeof auditLog.$inferSelect;
export type NewAuditLogEntry = typeof auditLog.$inferInsert;
export type EmailOutboxMessage = typeof emailOutbox.$inferSelect;
export type NewEmailOutboxMessage = typeof emailOutbox.$inferInsert;
export type JobRun = typeof jobRuns.$inferSelect;
export type RateLimitHit = typeof rateLimitHits.$inferSelect;
export type ApplicationEventRow = typeof applicationEvents.$inferSelect;
export type RequestItem = typeof requestItems.$inferSelect;
export type ApplicationMessage = typeof applicationMessages.$inferSelect;
