import { dollarsOf } from "~/domain/money";
import { and, asc, desc, eq, sql } from "drizzle-orm";
import { denialSourceSummary, readDenialSource } from "~/domain/adverse-action";
import { eventsFrom, mayMake, type LifecycleActor } from "~/domain/application-lifecycle";
import { errorToast } from "~/domain/action-result";
import { isOneOf, APPLICATION_STATUSES } from "~/domain/enums";
import {
  applicationPageSchemaForIntent,
  REVIEW_MESSAGES,
  REVIEW_TOASTS,
  reviewFormValues,
  UPDATE_FAILED_TITLE,
  updateFailedToast,
  type ApplicationPageIntent,
  type ReviewActionData,
} from "~/domain/validation/review";
import { issuesToFieldErrors } from "~/domain/validation/field-errors";
import type { AdminApplicationDetail } from "~/domain/views/admin-application-page";
import type { LinkActionData } from "~/components/admin/documents/types";
import { writeAudit, type AuditActor, type Caller } from "~/server/platform/audit/audit.server";
import { loadConversation } from "~/server/conversation/index.server";
import { listRequestItems, overdueItemIds } from "~/server/conversation/index.server";
import { todayUtc } from "~/domain/dates";
import { listTimeline } from "~/server/conversation/index.server";
import { getDb, type Db } from "~/server/platform/db/client.server";
import { bankAccounts, loanApplications, loanDocuments } from "~/server/platform/db/schema.server";
import { readActionForm, type ServiceAnswer } from "~/server/platform/http/action-answer.server";
import { logFailure } from "~/server/platform/log/describe-error.server";
import { closeAsIncomplete, startReview } from "~/server/applications/reviews.server";
import { approvalPanel } from "~/server/applications/approval-proposals.server";
import { assignmentPanel } from "./assignment.server";
import { sanctionsPanel } from "~/server/sanctions/index.server";
import { certificateForOffer, offersForApplication } from "~/server/offers/index.server";
import { applicationNotFound, CARD_COLUMNS, decide, MAX_REVIEW_FORM_BYTES, toAdminApplication, withCardDetails } from "./staff-applications.server";
import { createDocumentLink } from "./documents.server";
import { UUID_PATTERN } from "~/domain/ids";
import { AppError, actionRefusal } from "~/server/platform/http/app-error.server";

/**
 * The staff application page (/admin/applications/:id): the whole application as the
 * applicant entered it, its documents and bank accounts (masked), the notes, the timeline with the
 * internal entries, What We Need and Messages; and its action (Start Review, Approve, Deny, Close as
 * Incomplete, a note, a document's signed link), and the Sanctions Screening section (the sanctions module's). Every read writes 'application.view'. The SSN and
 * bank numbers are never selected: the page reveals one through /api/admin/reveal (audited).
 */

/** The URL's id, or null when it cannot name an application (the page answers 404). */
export function parseApplicationId(value: string | undefined): string | null {
  return value && UUID_PATTERN.test(value) ? value.toLowerCase() : null;
}

/** Whether an open request item's due date has passed (Close as Incomplete's condition). */
async function hasOverdueOpenItem(db: Db, applicationId: string, now: Date): Promise<boolean> {
  return (await overdueItemIds(applicationId, todayUtc(now), db)).length > 0;
}

/** The application for staff, or null when there is none. Audited ('application.view') when found. */
export async function loadAdminApplication(
  applicationId: string, { actor, request }: Caller, db: Db = getDb(), now: Date = new Date(),
): Promise<AdminApplicationDetail | null> {
  const [found] = await db
    .select({
      card: CARD_COLUMNS,
      denialSource: loanApplications.denialSource,
      propertyAddress: loanApplications.propertyAddress,
      businessName: loanApplications.businessName,
      businessYears: loanApplications.businessYears,
      middleInitial: loanApplications.middleInitial,
      dateOfBirth: loanApplications.dateOfBirth,
      addressLine1: loanApplications.addressLine1,
      addressLine2: loanApplications.addressLine2,
      city: loanApplications.city,
      state: loanApplications.state,
      zipCode: loanApplications.zipCode,
      hasSsn: sql<boolean>`(${loanApplications.ssnEncrypted} is not null and ${loanApplications.ssnEncrypted} <> '')`,
      employerName: loanApplications.employerName,
      jobTitle: loanApplications.jobTitle,
      yearsEmployed: loanApplications.yearsEmployed,
      monthlyIncomeCents: loanApplications.monthlyIncomeCents,
      hasOutstandingLoans: loanApplications.hasOutstandingLoans,
      monthlyDebtsCents: loanApplications.monthlyDebtsCents,
      authorizeCreditReport: loanApplications.authorizeCreditReport,
    })
    .from(loanApplications)
    .where(eq(loanApplications.id, applicationId))
    .limit(1);
  if (!found) return null;
  const [card] = await withCardDetails([found.card], db);
  const row = { ...found, card: card! };

  const staff = { id: actor.id, side: "staff" as const };
  const [accounts, documents, timeline, items, conversation, overdue, offers, approval, assignment, sanctions] = await Promise.all([
    db
      .select({
        id: bankAccounts.id,
        bankName: bankAccounts.bankName,
        accountHolderName: bankAccounts.accountHolderName,
        accountType: bankAccounts.accountType,
        isPrimary: bankAccounts.isPrimary,
        accountNumberLast4: bankAccounts.accountNumberLast4,
        routingNumberLast2: bankAccounts.routingNumberLast2,
      })
      .from(bankAccounts)
      .where(eq(bankAccounts.applicationId, applicationId))
      .orderBy(desc(bankAccounts.isPrimary), asc(bankAccounts.createdAt), asc(bankAccounts.id)),
    db
      .select({
        id: loanDocuments.id,
        fileName: loanDocuments.fileName,
        documentType: loanDocuments.documentType,
        fileSize: loanDocuments.fileSize,
        mimeType: loanDocuments.mimeType,
        uploadedAt: loanDocuments.uploadedAt,
        requestItemId: loanDocuments.requestItemId,
      })
      .from(loanDocuments)
      .where(eq(loanDocuments.applicationId, applicationId))
      .orderBy(asc(loanDocuments.uploadedAt), asc(loanDocuments.documentType), asc(loanDocuments.id)),
    listTimeline(applicationId, staff, db),
    listRequestItems(applicationId, db, now),
    loadConversation(applicationId, staff, db),
    hasOverdueOpenItem(db, applicationId, now),
    offersForApplication(applicationId, db),
    approvalPanel(applicationId, actor.id, db),
    assignmentPanel(applicationId, db),
    sanctionsPanel(applicationId, db),
  ]);
  const signed = offers.find((o) => o.status === "signed");
  const certificate = signed ? await certificateForOffer(signed.id, db) : null;

  await writeAudit(db, {
    actor,
    action: "application.view",
    table: "loan_applications",
    recordId: applicationId,
    details: { clientId: row.card.userId, status: row.card.status },
    request,
  });

  const status = row.card.status;
  const allowedEvents = isOneOf(APPLICATION_STATUSES, status) ? eventsFrom(status, "verified-admin") : [];
  return {
    summary: toAdminApplication(row.card, conversation.unread),
    loan: { propertyAddress: row.propertyAddress, businessName: row.businessName, businessYears: row.businessYears },
    personal: {
      firstName: row.card.firstName,
      middleInitial: row.middleInitial,
      lastName: row.card.lastName,
      dateOfBirth: row.dateOfBirth,
      email: row.card.applicationEmail,
      phone: row.card.applicationPhone,
      addressLine1: row.addressLine1,
      addressLine2: row.addressLine2,
      city: row.city,
      state: row.state,
      zipCode: row.zipCode,
      hasSsn: row.hasSsn,
    },
    employment: {
      employmentStatus: row.card.employmentStatus,
      employerName: row.employerName,
      jobTitle: row.jobTitle,
      yearsEmployed: row.yearsEmployed,
      monthlyIncome: dollarsOf(row.monthlyIncomeCents),
      annualIncome: row.card.annualIncomeCents === null ? null : dollarsOf(row.card.annualIncomeCents),
      creditScore: row.card.creditScore,
      hasOutstandingLoans: row.hasOutstandingLoans,
      monthlyDebts: row.monthlyDebtsCents === null ? null : dollarsOf(row.monthlyDebtsCents),
      authorizeCreditReport: row.authorizeCreditReport,
    },
    bankAccounts: accounts,
    documents: documents.map((d) => ({ ...d, uploadedAt: d.uploadedAt.toISOString() })),
    denialSource: status === "denied" ? denialSourceSummary(readDenialSource(row.denialSource)) : null,
    allowedEvents,
    closeIncompleteAvailable: allowedEvents.includes("close-incomplete") && overdue,
    timeline,
    requestItems: items,
    conversation,
    offers,
    certificate,
    approval,
    assignment,
    sanctions,
  };
}

export type ApplicationPageAnswer = ServiceAnswer<ReviewActionData | LinkActionData>;

function failure(status: number, intent: ApplicationPageIntent | null, body: Omit<ReviewActionData, "ok" | "intent">): ApplicationPageAnswer {
  return { status, body: { ok: false, intent, ...body } };
}

/**
 * The page's action after the guard. The application is the URL's: a form naming another is refused
 * (400), an id that names nothing is a 404. Each intent's input goes through its schema (400 with a
 * message, never a 500); conflicts (already decided, already under review, not yet overdue) are 409.
 */
export async function applicationPageAction(
  request: Request, urlId: string | undefined, caller: Caller<AuditActor & LifecycleActor>, db: Db = getDb(),
): Promise<ApplicationPageAnswer> {
  const { actor } = caller;
  const applicationId = parseApplicationId(urlId);
  if (!applicationId) return failure(404, null, { toast: updateFailedToast(applicationNotFound().message) });
  // requireAdmin has refused anyone else already; this keeps the lifecycle's rule beside the action.
  if (!mayMake("start-review", actor)) return failure(403, null, { toast: updateFailedToast("Access denied.") });
  const read = await readActionForm(request, (message): ReviewActionData => ({ ok: false, intent: null, toast: updateFailedToast(message) }), {
    limitBytes: MAX_REVIEW_FORM_BYTES,
  });
  if (!read.ok) return read.answer;
  const form = read.form;

  const [exists] = await db.select({ id: loanApplications.id }).from(loanApplications).where(eq(loanApplications.id, applicationId)).limit(1);
  if (!exists) return failure(404, null, { toast: updateFailedToast(applicationNotFound().message) });

  if (form.get("intent") === "link") return documentLink(form, applicationId, caller, db);

  const values = reviewFormValues(form);
  values.applicationId ??= applicationId;
  const schema = applicationPageSchemaForIntent(values.intent);
  if (!schema) return failure(400, null, { toast: updateFailedToast("Unknown action.") });
  const intent = values.intent as ApplicationPageIntent;
  if (typeof values.applicationId === "string" && values.applicationId.toLowerCase() !== applicationId) {
    return failure(400, intent, { toast: updateFailedToast(REVIEW_MESSAGES.applicationId) });
  }
  const parsed = schema.safeParse(values);
  if (!parsed.success) {
    const first = parsed.error.issues[0]?.message ?? "Check the form and try again.";
    return failure(400, intent, { toast: updateFailedToast(first), fieldErrors: issuesToFieldErrors(parsed.error) });
  }
  const input = parsed.data;

  try {
    switch (input.intent) {
      case "start-review":
        await startReview(applicationId, caller, db);
        return { status: 200, body: { ok: true, intent, toast: REVIEW_TOASTS.reviewStarted } };
      case "close-incomplete":
        await closeAsIncomplete(applicationId, caller, db);
        return { status: 200, body: { ok: true, intent, toast: REVIEW_TOASTS.closedIncomplete } };
      case "approve":
      case "deny":
      case "note":
        return { status: 200, body: { ok: true, intent, toast: await decide(applicationId, input, caller, db) } };
      default:
        return failure(400, null, { toast: updateFailedToast("Unknown action.") });
    }
  } catch (error) {
    if (error instanceof AppError) return actionRefusal(error, { title: UPDATE_FAILED_TITLE }, { intent });
    logFailure("admin", `${intent} failed`, error, { admin: actor.id, applicationId });
    return failure(500, intent, { toast: updateFailedToast("Something went wrong on our side. Please try again.") });
  }
}

/** intent=link: a 60-second signed link to one of this application's documents (audited as document.link). */
async function documentLink(form: FormData, applicationId: string, caller: Caller, db: Db): Promise<ApplicationPageAnswer> {
  const nonce = crypto.randomUUID();
  const refuse = (status: number, title: string, message: string, headers?: Record<string, string>): ApplicationPageAnswer => ({
    status,
    body: { ok: false, nonce, toast: errorToast(title, message) },
    headers,
  });
  const documentId = form.get("documentId");
  if (typeof documentId !== "string" || !UUID_PATTERN.test(documentId)) return refuse(400, "Access Error", "Invalid document request.");
  // Only this application's documents from this page (the Document Viewer lists every one).
  const [own] = await db
    .select({ id: loanDocuments.id })
    .from(loanDocuments)
    .where(and(eq(loanDocuments.id, documentId), eq(loanDocuments.applicationId, applicationId)))
    .limit(1);
  if (!own) return refuse(404, "Access Error", "That document no longer exists.");
  const result = await createDocumentLink({ documentId, disposition: form.get("disposition") }, caller, { db });
  if (!result.ok) return refuse(result.status, result.title, result.message, result.headers);
  return { status: 200, body: { ok: true, nonce, link: result.link } };
}
