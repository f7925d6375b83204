import { ACCESS_DENIED_FOR_ROLE, can, type StaffRole } from "~/domain/staff-permissions";
import type { DenialSource } from "~/domain/adverse-action";
import { mayMake, type LifecycleActor } from "~/domain/application-lifecycle";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { REG_B_DUE_DAYS } from "~/domain/reg-b-clock";
import { completeSince, regBFlagged } from "~/server/applications/reg-b-clock.server";
import { offerStatusLabel, type OfferStatus } from "~/domain/loan-offers";
import { logFailure } from "~/server/platform/log/describe-error.server";
import { dollarsOf, formatRate, percentOf, type Cents, type RateMilli } from "~/domain/money";
import {
  REVIEW_PAGE_SIZE,
  REVIEW_TABS,
  REVIEW_TOASTS,
  migrationCompleteToast,
  reviewFormValues,
  schemaForIntent,
  UPDATE_FAILED_TITLE,
  updateFailedToast,
  type ReviewActionData,
  type ReviewIntent,
  type ReviewListParams,
  type ReviewTab,
} from "~/domain/validation/review";
import { issuesToFieldErrors } from "~/domain/validation/field-errors";
import type { Toast } from "~/domain/action-result";
import { writeAudit, type AuditActor, type Caller } from "~/server/platform/audit/audit.server";
import { getDb, type Db } from "~/server/platform/db/client.server";
import { keysetPage } from "~/server/platform/db/paging.server";
import { keptCounts } from "~/server/platform/db/row-counts.server";
import { readActionForm, type ServiceAnswer } from "~/server/platform/http/action-answer.server";
import { applicationStatusCounts, approvalProposals, loanApplications } from "~/server/platform/db/schema.server";
import { peopleByIds } from "~/server/accounts/index.server";
import { loanTermsByApplication } from "~/server/loans/index.server";
import { latestOffersOf, type LatestOffer } from "~/server/offers/index.server";
import { approveApplication, denyApplication } from "~/server/applications/reviews.server";
import { needsSecondApprover, proposeApproval } from "~/server/applications/approval-proposals.server";
import { APPROVAL_TOASTS } from "~/domain/validation/approval";
import { getConfig } from "~/server/platform/config.server";
import { runEncryptionMigration } from "~/server/staff/index.server";
import { unreadCounts } from "~/server/conversation/index.server";
import { recordStaffText } from "~/server/conversation/index.server";
import type { AdminApplication, AdminApplicationList, ApplicationCounts } from "~/domain/views/admin-applications";
import { AppError, actionRefusal } from "~/server/platform/http/app-error.server";

/**
 * The admin review list and its actions (/admin, docs/requirements.md §3, §5, §8). Every read of client data here
 * writes an audit row ('applications.list'); decisions go through reviews.server.ts (one conditional
 * UPDATE, so a decided application cannot be decided again); notes are appended, never rewritten.
 *
 * Only the columns the cards show are selected: never the SSN or any bank number.
 */

/** Applications per status (the tab labels): rows kept by triggers (drizzle/0005), not a count. */
export async function countApplicationsByStatus(db: Db = getDb()): Promise<ApplicationCounts> {
  const rows = await db.select().from(applicationStatusCounts);
  const counts: ApplicationCounts = { pending: 0, under_review: 0, approved: 0, denied: 0 };
  for (const row of rows) if ((REVIEW_TABS as readonly string[]).includes(row.status)) counts[row.status as ReviewTab] = row.applications;
  return counts;
}

/** The columns a card shows (also the staff application page's summary): never the SSN or bank numbers. */
export const CARD_COLUMNS = {
  id: loanApplications.id,
  userId: loanApplications.userId,
  status: loanApplications.status,
  firstName: loanApplications.firstName,
  lastName: loanApplications.lastName,
  applicationEmail: loanApplications.email,
  applicationPhone: loanApplications.phone,
  loanType: loanApplications.loanType,
  requestedAmountCents: loanApplications.requestedAmountCents,
  desiredRateMilli: loanApplications.desiredRateMilli,
  loanDuration: loanApplications.loanDuration,
  purpose: loanApplications.purpose,
  monthlyIncomeCents: loanApplications.monthlyIncomeCents,
  annualIncomeCents: loanApplications.annualIncomeCents,
  creditScore: loanApplications.creditScore,
  employmentStatus: loanApplications.employmentStatus,
  submittedAt: loanApplications.submittedAt,
  reviewedAt: loanApplications.reviewedAt,
  decisionReasons: loanApplications.decisionReasons,
  notes: loanApplications.notes,
  assignedTo: loanApplications.assignedTo,
};

/** A card's own row: the application's columns as selected. */
type CardApplication = Pick<typeof loanApplications.$inferSelect, Exclude<keyof typeof CARD_COLUMNS, "applicationEmail" | "applicationPhone">> & {
  applicationEmail: string;
  applicationPhone: string;
};

/** What a card shows of other modules: the applicant's profile, the loan, the latest offer, the assignee's name (each may be missing). */
type CardDetails = {
  profileName: string | null;
  profileEmail: string | null;
  profilePhone: string | null;
  loan: { amountCents: number; noteRateMilli: number; termMonths: number; paymentCents: number } | null;
  offer: LatestOffer | null;
  assignedToName: string | null;
};

type CardRow = CardApplication & CardDetails;

/**
 * The cards' details from their owners, three batched reads for the page's rows (never one per row):
 * the applicants' and assignees' names (accounts), the loans' terms (loans), the latest offers (offers).
 */
export async function withCardDetails<T extends CardApplication>(rows: T[], db: Db): Promise<(T & CardDetails)[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [people, loans, offers] = await Promise.all([
    peopleByIds(rows.flatMap((r) => [r.userId, r.assignedTo]), db),
    loanTermsByApplication(ids, db),
    latestOffersOf(ids, db),
  ]);
  return rows.map((r) => {
    const applicant = people.get(r.userId);
    return {
      ...r,
      profileName: applicant?.profileName ?? null,
      profileEmail: applicant?.profileEmail ?? null,
      profilePhone: applicant?.profilePhone ?? null,
      loan: loans.get(r.id) ?? null,
      offer: offers.get(r.id) ?? null,
      assignedToName: r.assignedTo ? (people.get(r.assignedTo)?.name ?? null) : null,
    };
  });
}

export function toAdminApplication(r: CardRow, unreadMessages: number, regBDueAt: Date | null = null): AdminApplication {
  return {
    id: r.id,
    userId: r.userId,
    status: r.status,
    applicantName: r.profileName?.trim() || `${r.firstName} ${r.lastName}`,
    email: r.profileEmail ?? r.applicationEmail,
    phone: r.profilePhone ?? r.applicationPhone,
    loanType: r.loanType,
    // The card's view is in dollars and percents, as the staff pages format them.
    requestedAmount: dollarsOf(r.requestedAmountCents),
    desiredInterestRate: percentOf(r.desiredRateMilli),
    loanDuration: r.loanDuration,
    purpose: r.purpose,
    monthlyIncome: dollarsOf(r.monthlyIncomeCents),
    annualIncome: r.annualIncomeCents === null ? null : dollarsOf(r.annualIncomeCents),
    creditScore: r.creditScore,
    employmentStatus: r.employmentStatus,
    submittedAt: r.submittedAt.toISOString(),
    reviewedAt: r.reviewedAt?.toISOString() ?? null,
    decisionReasons: r.decisionReasons ?? [],
    notes: r.notes,
    unreadMessages,
    approvedLoan: r.loan
      ? { approvedAmount: dollarsOf(r.loan.amountCents), interestRate: percentOf(r.loan.noteRateMilli), termMonths: r.loan.termMonths, monthlyPayment: dollarsOf(r.loan.paymentCents) }
      : null,
    latestOffer: r.offer
      ? {
          status: r.offer.status as OfferStatus,
          statusLabel: offerStatusLabel(r.offer.status),
          isCounteroffer: r.offer.isCounteroffer === true,
          amountCents: r.offer.amountCents,
          noteRatePercent: formatRate(r.offer.noteRateMilli),
          termMonths: r.offer.termMonths,
          paymentCents: r.offer.paymentCents,
        }
      : null,
    assignedTo: r.assignedTo ? { id: r.assignedTo, name: r.assignedToName ?? "Former staff member" } : null,
    regBDueAt: regBDueAt?.toISOString() ?? null,
  };
}

/** An application has an approval proposed and not yet confirmed or sent back (at most one: approval_proposals_one_open_idx). */
const hasOpenProposal = sql`exists (select 1 from ${approvalProposals} where ${approvalProposals.applicationId} = ${loanApplications.id} and ${approvalProposals.status} = 'proposed')`;

/** Who proposed the application's open approval, or null: one probe of the partial unique index per row. */
const openProposalBy = sql<string | null>`(select ${approvalProposals.proposedBy} from ${approvalProposals} where ${approvalProposals.applicationId} = ${loanApplications.id} and ${approvalProposals.status} = 'proposed')`;

/**
 * Approvals waiting for a second staff member: all of them, and those `viewerId` did not propose. Open
 * proposals are few at any time (each is decided or sent back), and the partial unique index holds
 * only them, so this count does not grow with the years of history.
 */
export async function countAwaitingConfirmation(viewerId: string | undefined, db: Db = getDb()): Promise<{ total: number; notMine: number }> {
  const [row] = await db
    .select({
      total: sql<number>`count(*)::int`,
      notMine: sql<number>`(count(*) filter (where ${approvalProposals.proposedBy} <> ${viewerId ?? ""}))::int`,
    })
    .from(approvalProposals)
    .where(eq(approvalProposals.status, "proposed"));
  return { total: row?.total ?? 0, notMine: row?.notMine ?? 0 };
}

/**
 * One page of one tab, newest first (submitted_at desc, id desc: the id breaks ties so pages never
 * overlap). The page's ids are picked first, from the (status, submitted_at, id) index alone; only
 * those REVIEW_PAGE_SIZE rows are then fetched and joined, so a deep page costs index entries, not
 * rows and joins for everything before it.
 */
export async function listApplicationsPage(params: ReviewListParams, db: Db = getDb(), viewer?: { id: string }, now: Date = new Date()): Promise<AdminApplicationList> {
  // My Queue: the viewer's own applications, with their own kept counts (drizzle/0012).
  // Awaiting Confirmation: every open application with an approval proposed, whoever it is assigned to.
  const awaiting = Boolean(params.awaiting);
  const mine = Boolean(params.mine && viewer) && !awaiting;
  const [counts, awaitingConfirmation] = await Promise.all([
    mine && viewer ? countAssignedByStatus(viewer.id, db) : countApplicationsByStatus(db),
    countAwaitingConfirmation(viewer?.id, db),
  ]);
  const total = awaiting ? awaitingConfirmation.total : counts[params.tab];
  // The page's ids from the (status, submitted_at, id) index (My Queue: assigned_to first) alone, by
  // keyset (decision 0050): a page past a token reads a page of entries, however deep.
  const { ids, page, pageCount, cursors } = await keysetPage(
    db,
    {
      scope: awaiting ? "applications:awaiting_confirmation" : `${mine ? "queue" : "applications"}:${params.tab}`,
      table: loanApplications,
      id: loanApplications.id,
      keys: [
        { column: loanApplications.submittedAt, order: "desc", type: "timestamptz" },
        { column: loanApplications.id, order: "desc", type: "uuid" },
      ],
      where: awaiting
        ? hasOpenProposal
        : mine && viewer
          ? and(eq(loanApplications.status, params.tab), eq(loanApplications.assignedTo, viewer.id))
          : eq(loanApplications.status, params.tab),
    },
    params,
    total,
    REVIEW_PAGE_SIZE,
  );

  // The ids as a limited subquery the rows are joined to (as with OFFSET before): a bare id list let
  // the planner hash-join whole tables for ten rows.
  const pageIds = db.select({ id: loanApplications.id }).from(loanApplications).where(inArray(loanApplications.id, ids)).limit(ids.length).as("page_ids");
  const rows = ids.length === 0 ? [] : await withCardDetails(await db
    .select({
      ...CARD_COLUMNS,
      // The Reg B clock (~/server/applications/reg-b-clock.server.ts), kept on the row.
      regBFlagged: regBFlagged(now),
      completeSince,
      proposedBy: openProposalBy,
    })
    .from(pageIds)
    .innerJoin(loanApplications, eq(loanApplications.id, pageIds.id))
    .orderBy(desc(loanApplications.submittedAt), desc(loanApplications.id)), db);
  // Unread is per reader: messages from applicants this admin has not read yet (one grouped query).
  const unread = viewer ? await unreadCounts(rows.map((r) => r.id), { id: viewer.id, side: "staff" }, db) : new Map<string, number>();

  return {
    tab: params.tab,
    page,
    pageCount,
    pageSize: REVIEW_PAGE_SIZE,
    cursors,
    counts,
    mine,
    awaiting,
    awaitingConfirmation,
    applications: rows.map((r) => ({
      ...toAdminApplication(r, unread.get(r.id) ?? 0, r.regBFlagged && r.completeSince ? regBDueDate(r.completeSince) : null),
      awaitingConfirmation: r.proposedBy ? { mine: r.proposedBy === viewer?.id } : null,
    })),
  };
}

/** The Reg B notice's due date: REG_B_DUE_DAYS after the application became complete. */
function regBDueDate(completeSinceAt: Date): Date {
  return new Date(completeSinceAt.getTime() + REG_B_DUE_DAYS * 86_400_000);
}

/**
 * My Queue's tab counts: the viewer's assigned applications per status, kept by triggers
 * (row_counts 'assigned:<id>:<status>', drizzle/0012): decided applications stay assigned, so a
 * count of them would grow with every year an officer works.
 */
async function countAssignedByStatus(viewerId: string, db: Db): Promise<ApplicationCounts> {
  const kept = await keptCounts(db, REVIEW_TABS.map((tab) => `assigned:${viewerId}:${tab}`));
  const counts: ApplicationCounts = { pending: 0, under_review: 0, approved: 0, denied: 0 };
  for (const tab of REVIEW_TABS) counts[tab] = kept[`assigned:${viewerId}:${tab}`] ?? 0;
  return counts;
}

/** The admin's read of the list, audited ('applications.list' with the tab, page and rows shown). */
export async function listApplicationsForAdmin(params: ReviewListParams, { actor, request }: Caller, db: Db = getDb()): Promise<AdminApplicationList> {
  const list = await listApplicationsPage(params, db, actor);
  await writeAudit(db, {
    actor,
    action: "applications.list",
    table: "loan_applications",
    details: { tab: list.awaiting ? "awaiting_confirmation" : list.tab, page: list.page, count: list.applications.length, ...(list.mine ? { queue: "mine" } : {}) },
    request,
  });
  return list;
}

/** No such application (the page answers 404, never saying more). */
export const applicationNotFound = () => new AppError("application_not_found", 404, "This application does not exist.");

/**
 * Appends a note to an application's admin notes ("[2026-05-01 14:03 UTC] Ada Admin: text", blank line
 * between entries) in one UPDATE, so two admins adding notes at once both keep theirs; audited
 * ('application.note', with the note's length: the text itself stays in the record, not the log), and
 * on the timeline as an internal entry (staff only; applicants never receive internal entries).
 */
export async function addApplicationNote(applicationId: string, note: string, { actor, request }: Caller, db: Db = getDb()): Promise<void> {
  const entry = sql`'[' || to_char(now() at time zone 'UTC', 'YYYY-MM-DD HH24:MI') || ' UTC] ' || ${actor.name} || ': ' || ${note}`;
  await db.transaction(async (tx) => {
    const updated = await tx
      .update(loanApplications)
      .set({
        notes: sql`concat_ws(E'\n\n', nullif(${loanApplications.notes}, ''), ${entry})`,
        updatedAt: sql`now()`,
      })
      .where(eq(loanApplications.id, applicationId))
      .returning({ id: loanApplications.id, userId: loanApplications.userId });
    const row = updated[0];
    if (!row) throw applicationNotFound();
    await recordStaffText(tx, { applicationId, ownerId: row.userId, kind: "note", staffId: actor.id, text: note });
    await writeAudit(tx, {
      actor,
      action: "application.note",
      table: "loan_applications",
      recordId: applicationId,
      details: { characters: note.length },
      request,
    });
  });
}

/** What approve, deny and note carry once their schema has passed. */
export type DecisionInput =
  | { intent: "approve"; approvedAmountCents: Cents; interestRateMilli: RateMilli; termMonths: number; originationFeeMilli: RateMilli; counterofferReasons: string[] }
  | { intent: "deny"; reasons: string[]; source: DenialSource }
  | { intent: "note"; note: string };

/**
 * Approves, denies or adds a note, and names the toast that says so: the one step the list (/admin)
 * and the application's page (/admin/applications/:id) share. Errors are the caller's to answer.
 */
export async function decide(applicationId: string, input: DecisionInput, caller: Caller, db: Db): Promise<Toast> {
  switch (input.intent) {
    case "approve": {
      const terms = {
        approvedAmountCents: input.approvedAmountCents,
        interestRateMilli: input.interestRateMilli,
        termMonths: input.termMonths,
        originationFeeMilli: input.originationFeeMilli,
        counterofferReasons: input.counterofferReasons,
      };
      // Four eyes: at or above the threshold the approval is a proposal another staff member confirms.
      const thresholdCents = getConfig().fourEyesThresholdCents;
      if (needsSecondApprover(input.approvedAmountCents, thresholdCents)) {
        await proposeApproval(applicationId, terms, caller, db);
        return APPROVAL_TOASTS.proposed(thresholdCents);
      }
      await approveApplication(applicationId, terms, caller, db);
      return REVIEW_TOASTS.approved;
    }
    case "deny":
      await denyApplication(applicationId, input.reasons, caller, db, input.source);
      return REVIEW_TOASTS.denied;
    case "note":
      await addApplicationNote(applicationId, input.note, caller, db);
      return REVIEW_TOASTS.noteAdded;
  }
}

export type ReviewActionResult = ServiceAnswer<ReviewActionData>;

/** The largest form the /admin action reads (a 2,000-character note is far below it). */
export const MAX_REVIEW_FORM_BYTES = 64 * 1024;

/** Reads the posted form (refusing one that is too large or unreadable), then handleReviewAction. */
export async function reviewActionFromRequest(
  request: Request, caller: Caller<AuditActor & LifecycleActor & { role: StaffRole | null }>,
): Promise<ReviewActionResult> {
  const { actor } = caller;
  // Decisions are the lifecycle's verified-admin transitions; requireAdmin has already refused anyone
  // else, and this keeps the rule next to the action should another caller appear.
  if (!mayMake("approve", actor) || !mayMake("deny", actor)) return failure(403, null, { toast: updateFailedToast("Access denied.") });
  const read = await readActionForm(request, (message): ReviewActionData => ({ ok: false, intent: null, toast: updateFailedToast(message) }), {
    limitBytes: MAX_REVIEW_FORM_BYTES,
  });
  if (!read.ok) return read.answer;
  // The key migration is the admin's alone (the route let every role that works applications in).
  if (read.form.get("intent") === "encrypt-migration" && !can(actor.role, "security.manage")) {
    return failure(403, "encrypt-migration", { toast: updateFailedToast(ACCESS_DENIED_FOR_ROLE) });
  }
  return handleReviewAction(read.form, caller);
}

function failure(status: number, intent: ReviewIntent | null, body: Omit<ReviewActionData, "ok" | "intent">): ReviewActionResult {
  return { status, body: { ok: false, intent, ...body } };
}

/**
 * The /admin action after the guard: validates the posted form with the intent's schema (bad input is
 * a 400 with a toast, never a 500), then approves, denies, adds a note or runs the encryption migration.
 */
export async function handleReviewAction(form: FormData, caller: Caller, db: Db = getDb()): Promise<ReviewActionResult> {
  const { actor, request } = caller;
  const values = reviewFormValues(form);
  const schema = schemaForIntent(values.intent);
  if (!schema) return failure(400, null, { toast: updateFailedToast("Unknown action.") });
  const intent = values.intent as ReviewIntent;
  const parsed = schema.safeParse(values);
  if (!parsed.success) {
    const fieldErrors = issuesToFieldErrors(parsed.error);
    const first = parsed.error.issues[0]?.message ?? "Check the form and try again.";
    const toast = intent === "encrypt-migration" ? REVIEW_TOASTS.migrationFailed : updateFailedToast(first);
    return failure(400, intent, { toast, fieldErrors });
  }
  const input = parsed.data;

  try {
    switch (input.intent) {
      case "approve":
      case "deny":
      case "note":
        return { status: 200, body: { ok: true, intent, toast: await decide(input.applicationId, input, caller, db) } };
      case "encrypt-migration": {
        const result = await runEncryptionMigration({ actor, request }, db);
        return { status: 200, body: { ok: true, intent, toast: migrationCompleteToast(result) } };
      }
    }
  } catch (error) {
    if (error instanceof AppError) return actionRefusal(error, { title: UPDATE_FAILED_TITLE }, { intent });
    logFailure("admin", `${intent} failed`, error, { admin: actor.id });
    const toast = intent === "encrypt-migration" ? REVIEW_TOASTS.migrationFailed : updateFailedToast("Something went wrong on our side. Please try again.");
    return failure(500, intent, { toast });
  }
}
